import { resolveDate } from '../normalize/dates.ts'
import { mediaFromUrl } from '../normalize/media.ts'
import { toPost, UNKNOWN_HANDLE } from '../normalize/post.ts'
import { decodeEntities, stripMediaLink } from '../normalize/text.ts'
import { urlsFromStrings } from '../normalize/urls.ts'
import { asArray, asObject, asString, nonEmpty, stripAt, toPostId } from '../normalize/values.ts'
import { fail, ok, skip, type Outcome } from '../types.ts'

/** A `source` the file states (bookmark, like, chrome_cookie…), else bookmark. */
export const fileSource = (v: unknown): string => {
  const s = asString(v)?.trim().toLowerCase()
  return s && /^[a-z][a-z0-9_-]{0,39}$/.test(s) ? s : 'bookmark'
}

/** The Siftly bookmarklet / console export: `{bookmarks: [{id, author, handle, timestamp, text, media, urls}], source}`. */
export function siftlyOutcome(record: unknown, source: string): Outcome {
  const r = asObject(record)
  if (!r) return fail(null, 'not an object')
  const rawId = asString(r.id)?.trim() ?? ''
  const postId = toPostId(rawId)
  if (!postId) {
    // The bookmarklet also scrapes link cards, whose "id" is their t.co URL: not a post.
    if (/^https?:\/\//.test(rawId)) return skip(`link card row, not a post (${rawId})`)
    return fail(null, `id "${rawId.slice(0, 40)}" is not a post id`)
  }
  const createdAt = resolveDate(postId, r.timestamp)
  if (!createdAt) return fail(postId, 'no usable creation time')
  let handle = stripAt(asString(r.handle) ?? '')
  // Siftly writes @unknown when X's newer user schema defeated it; keep it as unknown, not as a person.
  if (handle.toLowerCase() === UNKNOWN_HANDLE) handle = UNKNOWN_HANDLE
  let name = nonEmpty(r.author) ?? ''
  if (handle === UNKNOWN_HANDLE && name.toLowerCase() === 'unknown') name = ''
  const media = asArray(r.media).flatMap((m) => {
    const o = asObject(m)
    const url = asString(o?.url) ?? asString(m)
    return url ? [mediaFromUrl(url, o?.type, o?.altText ?? o?.alt)] : []
  })
  const text = decodeEntities(asString(r.text) ?? '')
  return ok(toPost({
    postId, text: stripMediaLink(text, media.length > 0), authorHandle: handle || UNKNOWN_HANDLE, authorName: name,
    postCreatedAt: createdAt, urls: urlsFromStrings(r.urls), media,
  }, { source, raw: record }))
}
