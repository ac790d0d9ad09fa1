import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { can, type Role } from '../../src-shared/roles.ts'
import type { BookmarkDetail, BookmarkList, CategorySummary } from '../../src-shared/schemas/bookmarks.ts'
import type { Category } from '../../src-shared/schemas/categories.ts'
import { BOOKMARK_SORTS, MEDIA_FILTERS } from '../../src-shared/schemas/library.ts'
import type { SearchResponse } from '../../src-shared/schemas/search.ts'
import type { Stats } from '../../src-shared/schemas/stats.ts'
import { ApiCallError, type ApiClient } from './api.ts'
import { categoriesText, detailText, listText, searchText, statsText } from './format.ts'

/** Whose token the tools run with: they are offered only when the API would allow them. */
export interface Caller {
  role: Role
  readOnly: boolean
}

const result = (text: string, structured: object): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: structured as Record<string, unknown>,
})

/** The API's refusal (403, 404, 400 ...) is the tool's answer, in its words, not a protocol error. */
async function answer(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run()
  } catch (e) {
    if (!(e instanceof ApiCallError)) throw e
    return { content: [{ type: 'text', text: e.message }], structuredContent: { error: e.message, code: e.code }, isError: true }
  }
}

const postId = z.number().int().positive().describe('The post id Sheaf shows as #id (the `id` field), not the X post id.')
const READ = { readOnlyHint: true, openWorldHint: false } as const

function readTools(server: McpServer, api: ApiClient, caller: Caller): void {
  if (can(caller.role, 'search:use')) {
    server.registerTool('search', {
      title: 'Search saved posts',
      description: 'Finds saved posts by meaning and words, as the search box in Sheaf does. Write the request in plain language ("that thread about sqlite performance", "videos by @simonw last year"); quoted "phrases" must occur, -word excludes, from:handle, in:category, lang:de and has:image|video|link filter. Each result says why it matched.',
      inputSchema: {
        query: z.string().min(1).max(500).describe('What to look for, in plain language.'),
        limit: z.number().int().min(1).max(50).optional().describe('How many posts to return (default 10, at most 50).'),
      },
      annotations: READ,
    }, ({ query, limit }) => answer(async () => {
      const r = await api.get<SearchResponse>('/api/search/ai', { q: query, limit })
      return result(searchText(r), r)
    }))
  }
  server.registerTool('list_posts', {
    title: 'List saved posts',
    description: 'Lists saved posts with the filters of the library view, newest first unless `sort` says otherwise. Use `search` to find posts by meaning; use this to browse by category, author, tag, date or media.',
    inputSchema: {
      q: z.string().max(500).optional().describe('Words the post must contain.'),
      category: z.string().optional().describe('A category slug (see list_categories).'),
      author: z.string().optional().describe('Author handle, with or without @.'),
      tag: z.string().optional().describe('A tag, with or without #.'),
      source: z.string().optional().describe('How the post was saved: bookmark, like, own_post ...'),
      lang: z.string().optional().describe('Two-letter ISO 639-1 language code, such as en or de.'),
      media: z.enum(MEDIA_FILTERS).optional().describe('Only posts with this kind of media (or none).'),
      from: z.string().optional().describe('Posted on or after this date (2024-05-01).'),
      to: z.string().optional().describe('Posted on or before this date (2024-05-31).'),
      uncategorized: z.boolean().optional().describe('true: only posts in no category.'),
      sort: z.enum(BOOKMARK_SORTS).optional().describe('newest (default), oldest, popular or imported (latest import first).'),
      page: z.number().int().min(1).optional().describe('Page number, from 1.'),
      limit: z.number().int().min(1).max(100).optional().describe('Posts per page (default 20, at most 100).'),
    },
    annotations: READ,
  }, (args) => answer(async () => {
    const l = await api.get<BookmarkList>('/api/bookmarks', args)
    return result(listText(l), l)
  }))
  server.registerTool('get_post', {
    title: 'Read one saved post',
    description: 'The whole post: text, author, links, media, quoted post, categories, what the analysis found (summary, tags, action), its thread when it is part of one, and your own note.',
    inputSchema: { id: postId },
    annotations: READ,
  }, ({ id }) => answer(async () => {
    // rawJson is the export record as it came: long, and nothing an assistant needs.
    const { rawJson: _raw, ...detail } = await api.get<BookmarkDetail>(`/api/bookmarks/${id}`)
    return result(detailText(detail), detail)
  }))
  server.registerTool('list_categories', {
    title: 'List categories',
    description: 'The categories of the library: slug (what the other tools take), name, description and how many posts each holds.',
    annotations: READ,
  }, () => answer(async () => {
    const r = await api.get<{ categories: Category[] }>('/api/categories')
    return result(categoriesText(r.categories), r)
  }))
  server.registerTool('library_stats', {
    title: 'Library statistics',
    description: 'Counts for the whole library: posts, categories, media, the last import, top categories and authors, posts per source and month.',
    annotations: READ,
  }, () => answer(async () => {
    const s = await api.get<Stats>('/api/stats')
    return result(statsText(s), s)
  }))
}

function writeTools(server: McpServer, api: ApiClient, caller: Caller): void {
  if (caller.readOnly) return
  const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const
  if (can(caller.role, 'notes:write')) {
    server.registerTool('add_note', {
      title: 'Add to your note on a post',
      description: 'Adds text to your private note on a post (each person has one note per post; what is there already is kept, the new text goes after it).',
      inputSchema: { id: postId, text: z.string().min(1).max(20_000).describe('The text to add.') },
      annotations: WRITE,
    }, ({ id, text }) => answer(async () => {
      const { note } = await api.get<BookmarkDetail>(`/api/bookmarks/${id}`)
      const r = await api.put<{ note: string | null }>(`/api/bookmarks/${id}/note`, { text: note ? `${note}\n\n${text}` : text })
      return result(`Your note on #${id} now reads:\n${r.note ?? ''}`, { id, note: r.note })
    }))
  }
  if (can(caller.role, 'bookmarks:edit')) {
    server.registerTool('set_categories', {
      title: "Set a post's categories",
      description: 'Puts a post in exactly these categories (slugs from list_categories), replacing the ones it had; an empty list takes it out of all. Categories must exist already.',
      inputSchema: {
        id: postId,
        categories: z.array(z.string().min(1).max(80)).max(50).describe('Category slugs, e.g. ["ai-tools", "reading"].'),
      },
      annotations: { ...WRITE, idempotentHint: true },
    }, ({ id, categories }) => answer(async () => {
      const r = await api.put<{ categories: CategorySummary[] }>(`/api/bookmarks/${id}/categories`, { slugs: categories })
      const names = r.categories.map((c) => `${c.name} (${c.slug})`).join(', ')
      return result(r.categories.length ? `#${id} is now in: ${names}.` : `#${id} is now in no category.`, { id, categories: r.categories })
    }))
  }
}

/** The tools this caller may use: viewers do not get search, read-only tokens get no writing tools. */
export function registerTools(server: McpServer, api: ApiClient, caller: Caller): void {
  readTools(server, api, caller)
  writeTools(server, api, caller)
}
