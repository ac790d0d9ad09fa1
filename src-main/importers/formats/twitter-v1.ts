import type { QuotedPost } from '../../../src-shared/schemas/posts.ts'
import { draftFromLegacy } from '../normalize/legacy-tweet.ts'
import { toPost, toQuoted, UNKNOWN_HANDLE, type PostDraft } from '../normalize/post.ts'
import { asObject, asString, firstPostId, type Json } from '../normalize/values.ts'
import { fail, ok, type Outcome } from '../types.ts'

/** Streaming-API tweets keep long text in extended_tweet. */
function draftV1(t: Json): PostDraft | null {
  const ext = asObject(t.extended_tweet)
  const longText = asString(ext?.full_text)
  const base = ext ? { ...t, entities: ext.entities ?? t.entities, extended_entities: ext.extended_entities ?? t.extended_entities } : t
  const d = draftFromLegacy(base, longText ? { text: longText, urls: asObject(ext?.entities)?.urls } : null)
  if (d) d.authorHandle ??= UNKNOWN_HANDLE
  return d
}

/** A classic v1.1 tweet object (`id_str`, `full_text`, `entities`, `extended_entities`, `user`). */
export function v1Outcome(record: unknown, source: string): Outcome {
  let t = asObject(record)
  if (!t) return fail(null, 'not an object')
  const original = asObject(t.retweeted_status)
  if (original) t = original
  const d = draftV1(t)
  if (!d) return fail(firstPostId(t.id_str, t.id), 'no post id or no usable creation time')
  const q = asObject(t.quoted_status)
  const qd = q ? draftV1(q) : null
  const quoted: QuotedPost | null = qd ? toQuoted(qd) : null
  return ok(toPost(d, { quoted, source, raw: record }))
}
