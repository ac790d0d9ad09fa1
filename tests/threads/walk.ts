import { readFileSync } from 'node:fs'

/**
 * An independent reading of threads in an export file, without the importers' or src-main/threads'
 * code: every post with its author and the post it replies to, then each thread (a reply to the same
 * author's post, both in the file) read from its root, depth first, replies in the order posted.
 */
export interface RawPost { postId: string; author: string; parent: string | null; createdAt: number }

const json = (file: string) => JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''))

function* tweetObjects(o: unknown): Generator<any> {
  if (Array.isArray(o)) for (const v of o) yield* tweetObjects(v)
  else if (o && typeof o === 'object') {
    const t = o as any
    if (typeof t.rest_id === 'string' && t.legacy && typeof t.legacy.full_text === 'string') yield t
    for (const v of Object.values(t)) yield* tweetObjects(v)
  }
}

/** Every Tweet object of a GraphQL capture, by id. */
export function graphqlPosts(file: string): Map<string, RawPost> {
  const out = new Map<string, RawPost>()
  for (const t of tweetObjects(json(file))) {
    const u = t.core?.user_results?.result ?? {}
    out.set(t.rest_id, {
      postId: t.rest_id,
      author: String(u.core?.screen_name ?? u.legacy?.screen_name ?? '').toLowerCase(),
      parent: t.legacy.in_reply_to_status_id_str ?? null,
      createdAt: Date.parse(t.legacy.created_at),
    })
  }
  return out
}

/** The `[...]` of an archive's `window.YTD.tweets.part0 = [...]`. */
export const archiveTweets = (file: string): any[] => {
  const s = readFileSync(file, 'utf8')
  return JSON.parse(s.slice(s.indexOf('=') + 1))
}

/** An archive's posts; all are the owner's, and a reply names whose post it answers (`in_reply_to_screen_name`). */
export function archivePosts(rows: any[], owner: string): Map<string, RawPost> {
  return new Map(rows.map((r) => {
    const t = r.tweet
    return [t.id_str, { postId: t.id_str, author: owner, parent: t.in_reply_to_status_id_str ?? null, createdAt: Date.parse(t.created_at) }]
  }))
}

const earlier = (a: RawPost, b: RawPost) => a.createdAt - b.createdAt || (BigInt(a.postId) < BigInt(b.postId) ? -1 : 1)

/** Each thread of at least two posts, as post ids in reading order. */
export function expectedThreads(posts: Map<string, RawPost>): string[][] {
  const isPart = (p: RawPost) => p.parent !== null && posts.has(p.parent) && posts.get(p.parent)!.author === p.author && p.author !== ''
  const replies = new Map<string, RawPost[]>()
  for (const p of posts.values()) if (isPart(p)) replies.set(p.parent!, [...(replies.get(p.parent!) ?? []), p])
  const read = (p: RawPost): string[] => [p.postId, ...(replies.get(p.postId) ?? []).sort(earlier).flatMap(read)]
  return [...posts.values()].filter((p) => !isPart(p) && replies.has(p.postId)).map(read)
}
