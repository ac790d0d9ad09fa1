import { resolveDate } from '../normalize/dates.ts'
import { mediaFromUrl } from '../normalize/media.ts'
import { noEngagement, toPost, UNKNOWN_HANDLE } from '../normalize/post.ts'
import { decodeEntities, stripMediaLink } from '../normalize/text.ts'
import { urlsFromStrings } from '../normalize/urls.ts'
import { asArray, asObject, asString, firstPostId, nonEmpty, stripAt, toInt } from '../normalize/values.ts'
import { fail, ok, type Outcome } from '../types.ts'

/** "fetch"-style flat JSON: `{updated_at, count, bookmarks: [{id, url, author, handle, created_at, text, media: [url], urls, likes}]}`. */
export function flatOutcome(record: unknown, source: string): Outcome {
  const r = asObject(record)
  if (!r) return fail(null, 'not an object')
  const postId = firstPostId(r.id_str, r.id, r.tweet_id) ?? firstPostId(/\/status\/(\d+)/.exec(asString(r.url) ?? '')?.[1])
  if (!postId) return fail(null, 'no post id')
  const createdAt = resolveDate(postId, r.created_at, r.timestamp, r.date)
  if (!createdAt) return fail(postId, 'no usable creation time')
  const handle = stripAt(asString(r.handle) ?? asString(r.screen_name) ?? '') ||
    /(?:x|twitter)\.com\/([A-Za-z0-9_]{1,15})\/status\//.exec(asString(r.url) ?? '')?.[1] || UNKNOWN_HANDLE
  const media = asArray(r.media).flatMap((m) => {
    const o = asObject(m)
    const url = asString(m) ?? asString(o?.url)
    return url ? [mediaFromUrl(url, o?.type, o?.alt_text ?? o?.altText)] : []
  })
  const text = decodeEntities(asString(r.text) ?? asString(r.full_text) ?? '')
  return ok(toPost({
    postId, text: stripMediaLink(text, media.length > 0), authorHandle: handle,
    authorName: nonEmpty(r.author) ?? nonEmpty(r.name) ?? '', postCreatedAt: createdAt,
    urls: urlsFromStrings(r.urls), media,
    engagement: { ...noEngagement(), likes: toInt(r.likes), reposts: toInt(r.retweets), replies: toInt(r.replies), views: toInt(r.views) },
  }, { source, raw: record }))
}
