import type { PostMedia } from '../../../src-shared/schemas/posts.ts'
import { resolveDate, snowflakeDate } from '../normalize/dates.ts'
import { imageSize, mediaType } from '../normalize/media.ts'
import { toPost, UNKNOWN_HANDLE } from '../normalize/post.ts'
import { decodeEntities, parseRetweetText, stripTrailingLinks } from '../normalize/text.ts'
import { asArray, asObject, asString, firstPostId, nonEmpty, toInt, type Json } from '../normalize/values.ts'
import { fail, ok, type Outcome } from '../types.ts'

function media(list: unknown): PostMedia[] {
  return asArray(list).flatMap((m) => {
    const o = asObject(m)
    const type = mediaType(o?.type)
    const original = asString(o?.original)
    const thumb = asString(o?.thumbnail) ?? original
    if (!o || !type || !thumb) return []
    const poster = type === 'photo' ? (original ?? thumb) : thumb
    return [{
      type,
      url: imageSize(poster, 'orig'),
      thumbnailUrl: imageSize(thumb, 'small'),
      videoUrl: type === 'photo' ? null : original,
      altText: nonEmpty(o.ext_alt_text) ?? nonEmpty(o.alt_text),
      width: toInt(o.width), height: toInt(o.height), durationMs: toInt(o.duration),
    }]
  })
}

/**
 * One prinsss/twitter-web-exporter row (JSON object or CSV row; CSV cells are strings). The
 * exporter keeps only ids for retweeted and quoted posts: a retweet row yields its original post
 * with what the row knows of it (handle and truncated text from "RT @h: …", time from the id).
 */
export function tweOutcome(r: Json, source: string, raw: unknown): Outcome {
  const rowId = firstPostId(r.id)
  if (!rowId) return fail(null, 'no post id')
  const links = asArray(r.media).map((m) => asString(asObject(m)?.url)).filter((u): u is string => !!u)
  let text = stripTrailingLinks(decodeEntities(asString(r.full_text) ?? ''), links)
  const originalId = firstPostId(r.retweeted_status)
  const rt = originalId ? parseRetweetText(text) : null
  if (originalId && rt) {
    const createdAt = snowflakeDate(originalId) ?? resolveDate(originalId, r.created_at)
    if (!createdAt) return fail(originalId, 'no usable creation time')
    return ok(toPost({ postId: originalId, text: rt.text, authorHandle: rt.handle, authorName: '', postCreatedAt: createdAt },
      { source, raw }))
  }
  const createdAt = resolveDate(rowId, r.created_at)
  if (!createdAt) return fail(rowId, 'no usable creation time')
  text = text.trimEnd()
  return ok(toPost({
    postId: rowId, text,
    authorHandle: nonEmpty(r.screen_name) ?? UNKNOWN_HANDLE, authorName: nonEmpty(r.name) ?? '',
    postCreatedAt: createdAt, media: media(r.media),
    engagement: {
      likes: toInt(r.favorite_count), reposts: toInt(r.retweet_count), replies: toInt(r.reply_count),
      quotes: toInt(r.quote_count), bookmarks: toInt(r.bookmark_count), views: toInt(r.views_count),
    },
    lang: nonEmpty(r.lang), inReplyToPostId: firstPostId(r.in_reply_to),
  }, { source, raw }))
}
