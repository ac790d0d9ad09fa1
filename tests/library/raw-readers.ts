import { readFileSync } from 'node:fs'

/**
 * Independent readers of the fixture files: what a person sees in each file, without the importers'
 * code, so the API's values are checked against the files themselves.
 */
export interface Expected {
  postId: string
  authorHandle?: string
  authorName?: string
  /** Epoch ms. */
  createdAt?: number
  text?: string
  mediaCount?: number
}

/** Text as compared: links removed (exporters expand or drop t.co), entities decoded, spaces collapsed. */
export const comparable = (s: string): string =>
  s.replace(/https?:\/\/\S+/g, ' ').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>')
    .replace(/[\s\u00a0]+/g, ' ').trim()

const json = (file: string) => JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''))

function* tweets(o: unknown): Generator<any> {
  if (Array.isArray(o)) for (const v of o) yield* tweets(v)
  else if (o && typeof o === 'object') {
    const t = o as any
    if (t.rest_id && t.legacy && typeof t.legacy.full_text === 'string') yield t
    for (const v of Object.values(t)) yield* tweets(v)
  }
}

/** Every Tweet object in a GraphQL capture (top-level, quoted and retweeted alike), by id. */
export function graphqlTweets(file: string): Map<string, Expected> {
  const out = new Map<string, Expected>()
  for (const t of tweets(json(file))) {
    const u = t.core?.user_results?.result ?? {}
    const note = t.note_tweet?.note_tweet_results?.result?.text
    out.set(t.rest_id, {
      postId: t.rest_id,
      authorHandle: u.core?.screen_name ?? u.legacy?.screen_name,
      authorName: u.core?.name ?? u.legacy?.name,
      createdAt: Date.parse(t.legacy.created_at),
      text: note ?? t.legacy.full_text,
      mediaCount: t.legacy.extended_entities?.media?.length ?? 0,
    })
  }
  return out
}

export const twillotRows = (file: string): Expected[] => json(file).map((r: any) => ({
  postId: r.tweet_id, authorHandle: r.screen_name, authorName: r.username, createdAt: r.created_at * 1000, text: r.full_text,
  mediaCount: r.media_items?.length ?? 0,
}))

/** A repost row names the original in `retweeted_status` (an id); some readers store the original under that id. */
export const tweRows = (file: string): Expected[] => json(file).flatMap((r: any) => [
  {
    postId: r.id, authorHandle: r.screen_name, authorName: r.name, createdAt: Date.parse(r.created_at.replace(' ', 'T').replace(' ', '')),
    text: r.full_text, mediaCount: r.media?.length ?? 0,
  },
  ...(typeof r.retweeted_status === 'string' ? [{ postId: r.retweeted_status, text: 'RT @' }] : []),
])

/** Siftly rows that are posts (link-card rows carry a t.co URL as id). */
export const siftlyRows = (file: string): Expected[] => json(file).bookmarks.filter((r: any) => /^\d+$/.test(r.id)).map((r: any) => ({
  postId: r.id, authorHandle: r.handle.replace(/^@/, ''), createdAt: Date.parse(r.timestamp), text: r.text, mediaCount: r.media?.length ?? 0,
}))

export const flatRows = (file: string): Expected[] => json(file).bookmarks.map((r: any) => ({
  postId: r.id, authorHandle: r.handle, authorName: r.author, createdAt: Date.parse(r.created_at), text: r.text, mediaCount: r.media?.length ?? 0,
}))

const ytd = (file: string) => {
  const s = readFileSync(file, 'utf8')
  return JSON.parse(s.slice(s.indexOf('[')))
}

export const archiveRows = (file: string): Expected[] => ytd(file).map((r: any) => ({
  postId: r.tweet.id_str, createdAt: Date.parse(r.tweet.created_at), text: r.tweet.full_text,
  mediaCount: r.tweet.extended_entities?.media?.length ?? 0,
}))

export const archiveNotes = (file: string): { createdAt: number; text: string }[] =>
  ytd(file).map((r: any) => ({ createdAt: Date.parse(r.noteTweet.createdAt), text: r.noteTweet.core.text }))
