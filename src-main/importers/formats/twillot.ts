import type { QuotedPost } from '../../../src-shared/schemas/posts.ts'
import { resolveDate } from '../normalize/dates.ts'
import { mediaFromEntities } from '../normalize/media.ts'
import { toPost, toQuoted, UNKNOWN_HANDLE, type PostDraft } from '../normalize/post.ts'
import { decodeEntities, stripTrailingLinks } from '../normalize/text.ts'
import { urlsFromStrings } from '../normalize/urls.ts'
import { asArray, asObject, asString, firstPostId, nonEmpty, toInt, type Json } from '../normalize/values.ts'
import { fail, ok, type Outcome } from '../types.ts'

/** Twillot writes the destination of each link straight into full_text; those are the post's URLs. */
const linksInText = (text: string) =>
  urlsFromStrings([...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]).filter((u) => !/^https?:\/\/t\.co\//.test(u)))

function draft(r: Json): PostDraft | string {
  const postId = firstPostId(r.tweet_id, r.id_str)
  if (!postId) return 'no post id'
  const createdAt = resolveDate(postId, r.created_at)
  if (!createdAt) return 'no usable creation time'
  const links = asArray(r.media_items).map((m) => asString(asObject(m)?.url)).filter((u): u is string => !!u)
  const text = stripTrailingLinks(decodeEntities(asString(r.full_text) ?? ''), links)
  return {
    postId, text, postCreatedAt: createdAt,
    authorHandle: nonEmpty(r.screen_name) ?? UNKNOWN_HANDLE, authorName: nonEmpty(r.username) ?? '',
    urls: linksInText(text), media: mediaFromEntities(r.media_items),
    engagement: {
      likes: toInt(r.favorite_count), reposts: toInt(r.retweet_count), replies: toInt(r.reply_count),
      quotes: toInt(r.quote_count), bookmarks: toInt(r.bookmark_count), views: toInt(r.views_count),
    },
    lang: nonEmpty(r.lang),
    conversationId: firstPostId(r.conversation_id_str),
    inReplyToPostId: firstPostId(/\/status\/(\d+)/.exec(asString(r.reply_tweet_url) ?? '')?.[1]),
  }
}

/** One Twillot export row (epoch-second dates, X media entities, nested quoted_tweet). */
export function twillotOutcome(record: unknown, source: string): Outcome {
  const r = asObject(record)
  if (!r) return fail(null, 'not an object')
  const d = draft(r)
  if (typeof d === 'string') return fail(firstPostId(r.tweet_id), d)
  const q = asObject(r.quoted_tweet)
  const qd = q ? draft(q) : null
  const quoted: QuotedPost | null = qd && typeof qd !== 'string' ? toQuoted(qd) : null
  return ok(toPost(d, { quoted, source, raw: record }))
}
