import type { NormalizedPost, QuotedPost } from '../../../src-shared/schemas/posts.ts'
import { resolveDate } from '../normalize/dates.ts'
import { legacyParts } from '../normalize/legacy-tweet.ts'
import { toPost, toQuoted, type PostDraft } from '../normalize/post.ts'
import { asArray, asObject, asString, firstPostId, nonEmpty, toInt, type Json } from '../normalize/values.ts'
import type { JsonPath } from '../json-stream.ts'
import { fail, ok, skip, type Outcome } from '../types.ts'

/** Records of a GraphQL page (or an array of pages): timeline entries and module items. */
export const isGraphqlRecord = (path: JsonPath): boolean => {
  const n = path.length
  if (n < 2 || typeof path[n - 1] !== 'number') return false
  const key = path[n - 2]
  return key === 'entries' || key === 'moduleItems'
}

const unwrap = (result: unknown): Json | null => {
  let r = asObject(result)
  // TweetWithVisibilityResults and friends wrap the real tweet one level down.
  while (r && !r.legacy && asObject(r.tweet)) r = asObject(r.tweet)
  return r
}

const author = (tweet: Json): { handle: string | null; name: string | null } => {
  const user = asObject(asObject(asObject(tweet.core)?.user_results)?.result)
  const core = asObject(user?.core) // 2025+ schema
  const legacy = asObject(user?.legacy) // older schema
  return {
    handle: nonEmpty(core?.screen_name) ?? nonEmpty(legacy?.screen_name),
    name: nonEmpty(core?.name) ?? nonEmpty(legacy?.name),
  }
}

type Draft = { draft: PostDraft } | { skip: string } | { error: string; postId: string | null }

function draftOf(result: Json): Draft {
  const type = asString(result.__typename)
  if (type === 'TweetTombstone' || type === 'TweetUnavailable' || (!result.legacy && result.tombstone)) {
    return { skip: `unavailable post (${type ?? 'tombstone'})` }
  }
  const legacy = asObject(result.legacy)
  const postId = firstPostId(result.rest_id, legacy?.id_str)
  if (!legacy || !postId) return { error: 'a tweet result without legacy data or id', postId }
  const note = asObject(asObject(asObject(result.note_tweet)?.note_tweet_results)?.result)
  const noteText = asString(note?.text)
  const parts = legacyParts(legacy, noteText ? { text: noteText, urls: asObject(note?.entity_set)?.urls } : null)
  const createdAt = resolveDate(postId, legacy.created_at)
  if (!createdAt) return { error: 'no usable creation time', postId }
  const who = author(result)
  return {
    draft: {
      postId, ...parts,
      engagement: { ...parts.engagement, views: toInt(asObject(result.views)?.count) },
      authorHandle: who.handle, authorName: who.name, postCreatedAt: createdAt,
    },
  }
}

function quotedOf(result: Json): QuotedPost | null {
  const q = unwrap(asObject(result.quoted_status_result)?.result)
  if (!q) return null
  const d = draftOf(q)
  return 'draft' in d ? toQuoted(d.draft) : null
}

/** One tweet result (as found under `tweet_results.result`) as an outcome. */
export function tweetOutcome(resultIn: unknown, source: string, raw: unknown): Outcome {
  let result = unwrap(resultIn)
  if (!result) return fail(null, 'an empty tweet result')
  // A retweet's bookmark is the original post.
  const original = unwrap(asObject(asObject(result.legacy)?.retweeted_status_result)?.result)
  if (original && original.legacy) result = original
  const d = draftOf(result)
  if ('skip' in d) return skip(d.skip)
  if ('error' in d) return fail(d.postId, d.error)
  const post: NormalizedPost = toPost(d.draft, { quoted: quotedOf(result), source, raw })
  return ok(post)
}

/** All tweets of one timeline entry or module item; users, cursors and prompts are not posts. */
export function* entryOutcomes(entry: unknown, source: string): Generator<Outcome> {
  const e = asObject(entry)
  if (!e) return
  const content = asObject(e.content) ?? asObject(e.item) ?? e
  const entryId = asString(e.entryId) ?? ''
  const items: Json[] = []
  const direct = asObject(content.itemContent) ?? asObject(content.content)
  if (direct) items.push(direct)
  for (const it of asArray(content.items)) {
    const inner = asObject(asObject(asObject(it)?.item)?.itemContent)
    if (inner) items.push(inner)
  }
  if (items.length === 0) {
    if (/^cursor-|^sq-cursor/.test(entryId) || content.cursorType || content.__typename === 'TimelineTimelineCursor') {
      yield skip('cursor entry')
    }
    return
  }
  for (const item of items) {
    const tr = asObject(item.tweet_results)
    if (!tr) {
      if (item.itemType === 'TimelineTimelineCursor' || item.cursorType) yield skip('cursor entry')
      continue
    }
    const result = asObject(tr.result)
    if (!result) { yield skip('unavailable post (empty result)'); continue }
    yield tweetOutcome(result, source, result)
  }
}

/** Which list a page came from decides the source: the Likes timeline holds likes. */
export function graphqlSource(head: string): string {
  if (/"(favorites|likes)_timeline|"Likes"/.test(head)) return 'like'
  if (/"bookmark_timeline/.test(head)) return 'bookmark'
  return 'bookmark'
}
