import { expect } from 'vitest'
import type { Client } from '../support/client.ts'
import { allBookmarks, upload } from '../library/helpers.ts'

export const DAY_MS = 86_400_000
export const CATEGORIES = [
  { name: 'AI & ML', slug: 'ai', color: '#7c3aed', description: '' },
  { name: 'Cooking', slug: 'cooking', color: '#f97316', description: '' },
  { name: 'Music', slug: 'music', color: '#0ea5e9', description: '' },
]

export interface PostSpec {
  postId: string
  text: string
  /** Categories by slug (none: in no category). */
  categories: string[]
  importedAt: number
  analyzedAt: number | null
  likes: number
}

/** A post in Sheaf's own export format, every field ours to choose. */
export function sheafPost(p: PostSpec) {
  return {
    postId: p.postId, text: p.text, authorHandle: `author${p.postId}`, authorName: `Author ${p.postId}`,
    postCreatedAt: new Date(p.importedAt - DAY_MS).toISOString(), urls: [], media: [],
    engagement: { likes: p.likes, reposts: null, replies: null, quotes: null, bookmarks: null, views: null },
    lang: 'en', conversationId: null, inReplyToPostId: null, quoted: null, source: 'bookmark', rawJson: JSON.stringify({ rest_id: p.postId }),
    importedAt: new Date(p.importedAt).toISOString(),
    categories: p.categories.map((slug) => ({ slug, assignedBy: 'user', confidence: 1 })),
    knowledge: p.analyzedAt === null ? null : {
      summary: `about ${p.postId}`, action: 'reference', tags: [], sentiment: 'neutral', confidence: 0.8,
      relatedPostIds: [], analyzedAt: new Date(p.analyzedAt).toISOString(), ossReport: null, entities: null, kind: null, provider: 'local',
    },
  }
}

export const sheafFile = (posts: PostSpec[]) => ({
  name: 'library.json',
  content: JSON.stringify({ format: 'sheaf-export', version: 1, exportedAt: '2026-01-04T00:00:00.000Z', categories: CATEGORIES, bookmarks: posts.map(sheafPost) }),
})

/** Imports the posts and returns their ids by post id. */
export async function importPosts(admin: Client, posts: PostSpec[]): Promise<Map<string, number>> {
  const res = await upload(admin, sheafFile(posts))
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return new Map((await allBookmarks(admin, 'hidden=false')).map((b) => [b.postId, b.id]))
}

/** Every page of a list query's ids. */
export async function listIds(c: Client, query = ''): Promise<number[]> {
  return (await allBookmarks(c, query)).map((b) => b.id)
}
