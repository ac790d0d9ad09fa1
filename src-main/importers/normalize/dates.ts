const TWITTER_EPOCH = 1288834974657n
/** Ids below this are pre-snowflake (2006-2010 sequential ids): their bits hold no time. */
const FIRST_SNOWFLAKE = 20_000_000_000_000_000n

const MONTHS: Record<string, string> = {
  Jan: '01', Feb: '02', Mar: '03', Apr: '04', May: '05', Jun: '06',
  Jul: '07', Aug: '08', Sep: '09', Oct: '10', Nov: '11', Dec: '12',
}

// X's own form: "Sat Nov 09 12:14:18 +0000 2024"
const X_DATE = /^[A-Z][a-z]{2} ([A-Z][a-z]{2}) (\d{1,2}) (\d{2}:\d{2}:\d{2}) ([+-]\d{2}):?(\d{2}) (\d{4})$/
// "2026-07-09 05:59:10 +08:00" (twitter-web-exporter), also "+0800" and "Z"
const SPACED = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|[+-]\d{2}:?\d{2})?$/

const EARLIEST = Date.UTC(2006, 0, 1)
const LATEST = Date.UTC(2200, 0, 1)

const isoFromMs = (ms: number): string | null => {
  // Reject what cannot be a post time: before X existed or absurdly far ahead.
  if (!Number.isFinite(ms) || ms < EARLIEST || ms > LATEST) return null
  return new Date(ms).toISOString()
}

const fromEpoch = (n: number): string | null => isoFromMs(Math.abs(n) < 1e11 ? n * 1000 : n)

const offset = (z: string | undefined): string => {
  if (!z || z === 'Z') return 'Z'
  return z.includes(':') ? z : `${z.slice(0, 3)}:${z.slice(3)}`
}

/** Any date form the exporters use, as ISO 8601 UTC, or null when it is not a date. */
export function toIsoDate(v: unknown): string | null {
  if (typeof v === 'number') return fromEpoch(v)
  if (typeof v !== 'string') return null
  const s = v.trim()
  if (s === '') return null
  if (/^\d{9,14}(\.\d+)?$/.test(s)) return fromEpoch(Number(s))
  let m = X_DATE.exec(s)
  if (m) {
    const [, mon, day, time, zh, zm, year] = m
    const month = MONTHS[mon]
    if (!month) return null
    return isoFromMs(Date.parse(`${year}-${month}-${day.padStart(2, '0')}T${time}${zh}:${zm}`))
  }
  m = SPACED.exec(s)
  if (m) {
    const time = m[2].length === 5 ? `${m[2]}:00` : m[2]
    return isoFromMs(Date.parse(`${m[1]}T${time}${offset(m[3])}`))
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(s)) return isoFromMs(Date.parse(s))
  return null
}

/** The creation time hidden in a snowflake post id (upper bits = ms since X's epoch). */
export function snowflakeDate(postId: string): string | null {
  if (!/^\d{1,20}$/.test(postId)) return null
  const id = BigInt(postId)
  if (id < FIRST_SNOWFLAKE) return null
  return isoFromMs(Number((id >> 22n) + TWITTER_EPOCH))
}

/** The first usable date among the candidates, else the id's snowflake time. */
export function resolveDate(postId: string, ...candidates: unknown[]): string | null {
  for (const c of candidates) {
    const iso = toIsoDate(c)
    if (iso) return iso
  }
  return snowflakeDate(postId)
}
