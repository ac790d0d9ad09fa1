import { expect } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { Client } from '../support/client.ts'
import { sheafExport, type PostSpec } from '../search/sheaf-export.ts'

export const CATEGORIES = [{ name: 'Dev Tools', slug: 'dev-tools' }, { name: 'Cooking', slug: 'cooking' }]

export const POSTS: PostSpec[] = [
  { postId: '101', handle: 'alice', name: 'Alice Doe', at: '2024-03-10T10:00:00Z', categories: ['dev-tools'], tags: ['databases'],
    text: 'How I made my SQLite queries ten times faster with the right indexes', urls: ['https://sqlite.org/queryplanner.html'], summary: 'Indexes speed up SQLite' },
  { postId: '102', handle: 'bob', at: '2023-06-01T10:00:00Z', text: 'My cat loves sleeping on the warm laptop keyboard all afternoon' },
  { postId: '103', handle: 'chef', name: 'Mario', at: '2024-11-03T10:00:00Z', categories: ['cooking'],
    text: 'Tips for cooking perfect spaghetti: salt the water generously and save some of it for the sauce' },
  { postId: '104', handle: 'alice', name: 'Alice Doe', at: '2024-03-20T10:00:00Z', categories: ['dev-tools'], text: 'The Rust borrow checker explained with diagrams' },
  { postId: '105', handle: 'pgdude', at: '2022-02-01T10:00:00Z', text: 'Postgres vacuum tuning guide for very large tables' },
]

export async function importLibrary(admin: Client): Promise<void> {
  const fd = new FormData()
  fd.append('file', new Blob([sheafExport(POSTS, CATEGORIES)]), 'library.json')
  const res = await admin.request('POST', '/api/import', fd)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}

/** Polls the HTTP search until the index has caught up with the import (indexing runs in the background). */
export async function searchReady(api: Client, q: string, postId: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const res = await api.get(`/api/search/ai?q=${encodeURIComponent(q)}`)
    if (res.body?.results?.some((r: { bookmark: { postId: string } }) => r.bookmark.postId === postId)) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`search never found ${postId} for "${q}"`)
}

export const call = async (mcp: McpClient, name: string, args: Record<string, unknown> = {}) =>
  (await mcp.callTool({ name, arguments: args })) as CallToolResult

export const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')

export const ALL_TOOLS = ['add_note', 'get_post', 'library_stats', 'list_categories', 'list_posts', 'search', 'set_categories']
export const READ_TOOLS = ['get_post', 'library_stats', 'list_categories', 'list_posts', 'search']

/** Checks every tool against the HTTP API answered with the same token. */
export async function checkToolsAgainstApi(mcp: McpClient, api: Client): Promise<void> {
  const tools = (await mcp.listTools()).tools
  expect(tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS)
  for (const tool of tools) {
    expect(tool.description, tool.name).toBeTruthy()
    expect(tool.inputSchema.type).toBe('object')
    for (const [prop, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
      expect((schema as { description?: string }).description, `${tool.name}.${prop}`).toBeTruthy()
    }
  }

  await searchReady(api, 'sqlite indexes', '101')
  const search = await call(mcp, 'search', { query: 'sqlite indexes', limit: 5 })
  const httpSearch = (await api.get('/api/search/ai?q=sqlite%20indexes&limit=5')).body
  const ids = (r: { results: Array<{ bookmark: { id: number } }> }) => r.results.map((x) => x.bookmark.id)
  expect(ids(search.structuredContent as never)).toEqual(ids(httpSearch))
  const first = httpSearch.results[0]
  expect(textOf(search)).toContain(`#${first.bookmark.id} @${first.bookmark.authorHandle}`)
  expect(textOf(search)).toContain(`why: ${first.reason}`)

  const list = await call(mcp, 'list_posts', { author: 'alice', sort: 'oldest' })
  const httpList = (await api.get('/api/bookmarks?author=alice&sort=oldest')).body
  expect(list.structuredContent).toEqual(httpList)
  expect(httpList.total).toBe(2)
  expect(textOf(list)).toMatch(/^Posts 1-2 of 2/)

  const id = httpList.bookmarks[0].id as number
  const post = await call(mcp, 'get_post', { id })
  const { rawJson: _raw, ...httpPost } = (await api.get(`/api/bookmarks/${id}`)).body
  expect(post.structuredContent).toEqual(httpPost)
  expect(textOf(post)).toContain('How I made my SQLite queries')

  const cats = await call(mcp, 'list_categories')
  expect(cats.structuredContent).toEqual((await api.get('/api/categories')).body)
  expect(textOf(cats)).toContain('dev-tools: Dev Tools (2 posts)')

  const stats = await call(mcp, 'library_stats')
  expect(stats.structuredContent).toEqual((await api.get('/api/stats')).body)
  expect(textOf(stats)).toMatch(new RegExp(`^${POSTS.length} saved posts`))

  await call(mcp, 'add_note', { id, text: 'first thought' })
  const noted = await call(mcp, 'add_note', { id, text: 'second thought' })
  expect(noted.isError).toBeFalsy()
  expect((await api.get(`/api/bookmarks/${id}`)).body.note).toBe('first thought\n\nsecond thought')

  const set = await call(mcp, 'set_categories', { id, categories: ['cooking'] })
  expect(set.isError).toBeFalsy()
  expect((await api.get(`/api/bookmarks/${id}`)).body.categories.map((c: { slug: string }) => c.slug)).toEqual(['cooking'])

  const missing = await call(mcp, 'get_post', { id: 999_999 })
  expect(missing.isError).toBe(true)
  const httpMissing = (await api.get('/api/bookmarks/999999')).body
  expect(missing.structuredContent).toEqual(httpMissing)
}
