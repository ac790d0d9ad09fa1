import type { PostMedia } from '../../../src-shared/schemas/posts.ts'
import { asArray, asObject, asString, nonEmpty, toInt } from './values.ts'

export type MediaType = PostMedia['type']

const TYPES: Record<string, MediaType> = { photo: 'photo', image: 'photo', video: 'video', animated_gif: 'animated_gif', gif: 'animated_gif' }

export const mediaType = (v: unknown): MediaType | null => TYPES[String(v ?? '').toLowerCase()] ?? null

const isPbs = (url: string) => /^https?:\/\/pbs\.twimg\.com\//.test(url)

/** pbs.twimg.com serves any size of an image through `name=`; other hosts are left as given. */
export function imageSize(url: string, name: 'orig' | 'small'): string {
  if (!isPbs(url)) return url
  const u = url.replace(/^http:/, 'https:')
  if (/[?&]name=/.test(u)) return u.replace(/([?&]name=)[a-z0-9_]+/i, `$1${name}`)
  if (/:(large|orig|small|medium|thumb)$/.test(u)) return u.replace(/:[a-z]+$/, '') + `?name=${name}`
  return `${u}${u.includes('?') ? '&' : '?'}name=${name}`
}

/** Guess the kind of a bare media URL (exports that keep only links). */
export function typeFromUrl(url: string): MediaType {
  if (/tweet_video(_thumb)?\//.test(url)) return 'animated_gif'
  if (/video\.twimg\.com\/|amplify_video|ext_tw_video/.test(url)) return 'video'
  return 'photo'
}

const isVideoFile = (url: string) => /\.(mp4|m3u8|mov|webm)(\?|$)/.test(url)

/** The highest-bitrate MP4; GIFs carry a single variant with bitrate 0. */
export function bestVariant(videoInfo: unknown): string | null {
  let best: string | null = null
  let bestRate = -1
  for (const v of asArray(asObject(videoInfo)?.variants)) {
    const o = asObject(v)
    const url = asString(o?.url)
    if (!o || !url || o.content_type !== 'video/mp4') continue
    const rate = toInt(o.bitrate) ?? 0
    if (rate > bestRate) {
      best = url
      bestRate = rate
    }
  }
  return best
}

/** One media entity in X's own shape (GraphQL legacy, v1.1, the archive, Twillot). */
export function mediaFromEntity(m: unknown): PostMedia | null {
  const o = asObject(m)
  if (!o) return null
  const type = mediaType(o.type)
  const poster = asString(o.media_url_https) ?? asString(o.media_url)
  if (!type || !poster) return null
  const info = asObject(o.original_info)
  const large = asObject(asObject(o.sizes)?.large)
  const video = asObject(o.video_info)
  return {
    type,
    url: imageSize(poster, 'orig'),
    thumbnailUrl: imageSize(poster, 'small'),
    videoUrl: type === 'photo' ? null : bestVariant(video),
    altText: nonEmpty(o.ext_alt_text),
    width: toInt(info?.width) ?? toInt(large?.w),
    height: toInt(info?.height) ?? toInt(large?.h),
    durationMs: toInt(video?.duration_millis),
  }
}

export const mediaFromEntities = (list: unknown): PostMedia[] =>
  asArray(list).map(mediaFromEntity).filter((m): m is PostMedia => m !== null)

/** A media item known only by a URL and maybe a kind (Siftly, flat exports). */
export function mediaFromUrl(url: string, kind?: unknown, altText?: unknown): PostMedia {
  const type = mediaType(kind) ?? typeFromUrl(url)
  const file = type !== 'photo' && isVideoFile(url)
  return {
    type,
    url: file ? url : imageSize(url, 'orig'),
    // A bare video file has no poster image; an empty thumbnail lets a richer copy win on merge.
    thumbnailUrl: file ? '' : imageSize(url, 'small'),
    videoUrl: file ? url : null,
    altText: nonEmpty(altText),
    width: null,
    height: null,
    durationMs: null,
  }
}
