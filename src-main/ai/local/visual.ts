import type { NormalizedPost } from '../../../src-shared/schemas/posts.ts'

// sharp (libvips, ~30 MB resident) loads when the first image is looked at.
const sharp = async () => (await import('sharp')).default

export const VISUAL_TAGS = ['screenshot', 'code', 'chart', 'document', 'photo', 'meme', 'text'] as const
export type VisualTag = (typeof VISUAL_TAGS)[number]

/** Colour statistics of an image, from sharp's `.stats()`. */
export type ImageStats = {
  /** Shannon entropy of the greyscale histogram, 0-8: photos ~7, flat UI ~3-5. */
  entropy: number
  /** Mean brightness 0-255. */
  brightness: number
  /** Spread between the channel means, 0-255: ~0 for greyscale documents. */
  colourfulness: number
  /** Mean of the channel standard deviations. */
  contrast: number
}

export const imageStats = async (image: Buffer): Promise<ImageStats> => {
  const s = await (await sharp())(image).stats()
  const rgb = s.channels.slice(0, 3)
  const means = rgb.map((c) => c.mean)
  return {
    entropy: s.entropy,
    brightness: means.reduce((a, b) => a + b, 0) / means.length,
    colourfulness: Math.max(...means) - Math.min(...means),
    contrast: rgb.reduce((a, c) => a + c.stdev, 0) / rgb.length,
  }
}

export type VisualInput = {
  width: number | null
  height: number | null
  ocrText?: string | null
  altText?: string | null
  mediaType?: NormalizedPost['media'][number]['type']
  stats?: ImageStats | null
}

const CODE_TOKENS = /(=>|===?|!==?|\+\+|&&|\|\||::|->|[{}[\];]|\b(function|const|let|var|def|import|from|return|class|public|private|static|void|int|fn|impl|struct|async|await|print|console\.log|SELECT|WHERE|#include)\b)/g
const CHART_WORDS = /\b(chart|graph|plot|axis|trend|growth|revenue|percent|quarter|q[1-4]|yoy|mom|vs\.?)\b|%/gi

/** Heuristic tags for an image: what kind of picture it is, from OCR text, shape and colour. */
export const visualTags = (input: VisualInput): VisualTag[] => {
  const text = (input.ocrText ?? '').trim()
  const alt = (input.altText ?? '').toLowerCase()
  const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]{2,}/u.test(w))
  const lines = text.split('\n').filter((l) => l.trim())
  const tags = new Set<VisualTag>()
  const stats = input.stats
  const ratio = input.width && input.height ? input.width / input.height : 1

  const codeHits = (text.match(CODE_TOKENS) ?? []).length
  if (codeHits >= 4 || /\bcode\b|snippet|terminal/.test(alt)) {
    tags.add('code')
    tags.add('screenshot')
  }
  const numbers = (text.match(/\d+(?:[.,]\d+)?/g) ?? []).length
  const chartWords = (text.match(CHART_WORDS) ?? []).length
  if (/\b(chart|graph|plot|diagram)\b/.test(alt) || (numbers >= 6 && chartWords >= 1 && words.length < 80)) tags.add('chart')
  if (words.length >= 40 && (!stats || (stats.brightness > 170 && stats.colourfulness < 40))) tags.add('document')
  if (/\b(screenshot|screen shot|screencap)\b/.test(alt)) tags.add('screenshot')
  // Flat UI colours with readable text and a screen-like shape.
  if (stats && stats.entropy < 5.5 && words.length >= 5 && !tags.has('document')) tags.add('screenshot')
  const caps = words.filter((w) => w.length > 1 && w === w.toUpperCase() && /\p{L}/u.test(w)).length
  // Photos spread over the whole grey range, or are at least fairly varied and colourful.
  const photoLike = !stats || stats.entropy >= 6 || (stats.entropy >= 5 && stats.colourfulness >= 20)
  if (/\bmeme\b/.test(alt) || (photoLike && words.length >= 3 && words.length <= 30 && lines.length <= 4 && caps / words.length > 0.6)) tags.add('meme')
  if (words.length >= 8) tags.add('text')
  if (input.mediaType === 'video' || input.mediaType === 'animated_gif' || (photoLike && words.length < 8 && !tags.has('chart'))) {
    if (!tags.has('meme') && !tags.has('code')) tags.add('photo')
  }
  if (tags.size === 0) tags.add(ratio > 1.2 && words.length > 0 ? 'screenshot' : 'photo')
  return VISUAL_TAGS.filter((t) => tags.has(t))
}

export type ThumbnailOptions = { width?: number; format?: 'webp' | 'jpeg'; quality?: number }

/** A small preview (longest side `width`, never enlarged), EXIF-rotated, as WebP or JPEG. */
export const makeThumbnail = async (image: Buffer, opts: ThumbnailOptions = {}): Promise<Buffer> => {
  const { width = 400, format = 'webp', quality = 75 } = opts
  const img = (await sharp())(image, { failOn: 'none' }).rotate().resize({ width, height: width, fit: 'inside', withoutEnlargement: true })
  return format === 'jpeg' ? img.jpeg({ quality, mozjpeg: true }).toBuffer() : img.webp({ quality }).toBuffer()
}
