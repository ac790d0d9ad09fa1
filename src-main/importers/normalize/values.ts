/** Loose readers for the untyped JSON that exporters produce. */
export type Json = Record<string, unknown>

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

export const asObject = (v: unknown): Json | null => (isObject(v) ? v : null)

export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

export const asString = (v: unknown): string | null => {
  if (typeof v === 'string') return v
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  return null
}

export const nonEmpty = (v: unknown): string | null => {
  const s = asString(v)
  return s !== null && s.trim() !== '' ? s : null
}

/** Archives store numbers as strings ("12"), views arrive as "60529"; both mean the integer. */
export const toInt = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : null
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) {
    const n = Number(v)
    return Number.isSafeInteger(Math.trunc(n)) ? Math.trunc(n) : null
  }
  return null
}

const POST_ID = /^\d{1,20}$/

/**
 * A post id as a decimal string. Numbers are accepted only while they are exact: a JS number above
 * 2^53 has already lost digits, so it is refused rather than silently turned into another post.
 */
export const toPostId = (v: unknown): string | null => {
  if (typeof v === 'string') {
    const s = v.trim()
    return POST_ID.test(s) ? s : null
  }
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return String(v)
  if (typeof v === 'bigint' && v > 0n) return v.toString()
  return null
}

export const firstPostId = (...vs: unknown[]): string | null => {
  for (const v of vs) {
    const id = toPostId(v)
    if (id) return id
  }
  return null
}

export const stripAt = (handle: string): string => handle.replace(/^@+/, '').trim()
