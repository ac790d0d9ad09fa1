/**
 * A minimal reader of the real X GraphQL captures in ../shared/fixtures, for testing the offline
 * toolkit on real posts. Not the importer: just enough to make NormalizedPost-shaped records.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { NormalizedPost, PostMedia, QuotedPost } from '../../../src-shared/schemas/posts.ts'

export const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'fixtures')
export const GRAPHQL_DIR = join(FIXTURES, 'exports', 'graphql')
export const hasFixtures = existsSync(GRAPHQL_DIR)

type Node = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const unwrap = (r: Node | undefined): Node | undefined => (r?.__typename === 'TweetWithVisibilityResults' ? r.tweet : r)

const toPost = (n: Node): QuotedPost => {
  const l = n.legacy
  const user = n.core?.user_results?.result
  const media: PostMedia[] = (l.extended_entities?.media ?? []).map((m: Node) => ({
    type: m.type,
    url: m.media_url_https,
    thumbnailUrl: m.media_url_https,
    videoUrl: null,
    altText: m.ext_alt_text ?? null,
    width: m.original_info?.width ?? null,
    height: m.original_info?.height ?? null,
    durationMs: m.video_info?.duration_millis ?? null,
  }))
  return {
    postId: n.rest_id,
    text: n.note_tweet?.note_tweet_results?.result?.text ?? l.full_text,
    authorHandle: user?.core?.screen_name ?? user?.legacy?.screen_name ?? 'unknown',
    authorName: user?.core?.name ?? user?.legacy?.name ?? '',
    postCreatedAt: new Date(l.created_at).toISOString(),
    urls: (l.entities?.urls ?? []).map((u: Node) => ({ url: u.url, expandedUrl: u.expanded_url ?? u.url, displayUrl: u.display_url ?? null })),
    media,
    engagement: { likes: l.favorite_count ?? null, reposts: l.retweet_count ?? null, replies: l.reply_count ?? null, quotes: l.quote_count ?? null, bookmarks: l.bookmark_count ?? null, views: null },
    lang: l.lang ?? null,
    conversationId: l.conversation_id_str ?? null,
    inReplyToPostId: l.in_reply_to_status_id_str ?? null,
  }
}

export const readFixturePosts = (files?: string[]): NormalizedPost[] => {
  const out = new Map<string, NormalizedPost>()
  const walk = (o: unknown): void => {
    if (!o || typeof o !== 'object') return
    if (Array.isArray(o)) return o.forEach(walk)
    const n = o as Node
    if (n.rest_id && n.legacy?.full_text !== undefined && !n.legacy.retweeted_status_result) {
      const q = unwrap(n.quoted_status_result?.result)
      if (!out.has(n.rest_id)) {
        out.set(n.rest_id, {
          ...toPost(n),
          quoted: q?.legacy ? toPost(q) : null,
          source: 'bookmark',
          rawJson: JSON.stringify({ in_reply_to_screen_name: n.legacy.in_reply_to_screen_name ?? null }),
        })
      }
    }
    for (const v of Object.values(n)) walk(v)
  }
  for (const f of files ?? readdirSync(GRAPHQL_DIR).filter((f) => f.endsWith('.json'))) {
    walk(JSON.parse(readFileSync(f.startsWith('/') ? f : join(GRAPHQL_DIR, f), 'utf8')))
  }
  return [...out.values()]
}

/** The flat fetch.py excerpt: tech bookmarks (text + expanded urls only). */
export const readFlatExcerpt = (): NormalizedPost[] => {
  const file = join(FIXTURES, 'exports', 'flat', 'x_bookmarks_fetchpy_excerpt.json')
  const j = JSON.parse(readFileSync(file, 'utf8')) as { bookmarks: Node[] }
  return j.bookmarks.map((b) => ({
    postId: b.id,
    text: b.text,
    authorHandle: b.handle,
    authorName: b.author,
    postCreatedAt: new Date(b.created_at).toISOString(),
    urls: (b.urls as string[]).map((u) => ({ url: u, expandedUrl: u, displayUrl: null })),
    media: (b.media as string[]).map((u) => ({ type: 'photo' as const, url: u, thumbnailUrl: u, videoUrl: null, altText: null, width: null, height: null, durationMs: null })),
    engagement: { likes: b.likes ?? null, reposts: null, replies: null, quotes: null, bookmarks: null, views: null },
    lang: null,
    conversationId: null,
    inReplyToPostId: null,
    quoted: null,
    source: 'bookmark',
    rawJson: '{}',
  }))
}

export const ARCHIVE_TWEETS = join(FIXTURES, 'exports', 'archive', 'alrocar_x', 'tweets.js')

/** The official X archive's tweets.js (1,223 posts; long posts truncated there), read by the real importer. */
export const readArchivePosts = async (): Promise<NormalizedPost[]> => {
  const { parseExport } = await import('../../../src-main/importers/index.ts')
  const out: NormalizedPost[] = []
  for await (const it of (await parseExport(readFileSync(ARCHIVE_TWEETS))).items) if (it.kind === 'post') out.push(it.post)
  return out
}
