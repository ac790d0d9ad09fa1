const nf = new Intl.NumberFormat()
export const fmtNumber = (n: number | null | undefined) => (n === null || n === undefined ? '–' : nf.format(n))
/** "1 post", "2,048 posts". */
export const noun = (n: number, one: string, many: string) => `${fmtNumber(n)} ${n === 1 ? one : many}`
export const fmtCompact = (n: number) => new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 }).format(n)

export function fmtDate(iso: string | null | undefined, opts: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
  if (!iso) return '–'
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? '–' : d.toLocaleString(undefined, opts)
}

export function fmtRelative(iso: string | null | undefined): string {
  if (!iso) return 'never'
  const ms = Date.parse(iso)
  if (Number.isNaN(ms)) return '–'
  const s = Math.round((ms - Date.now()) / 1000)
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })
  const abs = Math.abs(s)
  if (abs < 60) return rtf.format(s, 'second')
  if (abs < 3600) return rtf.format(Math.round(s / 60), 'minute')
  if (abs < 86400) return rtf.format(Math.round(s / 3600), 'hour')
  if (abs < 86400 * 30) return rtf.format(Math.round(s / 86400), 'day')
  if (abs < 86400 * 365) return rtf.format(Math.round(s / (86400 * 30)), 'month')
  return rtf.format(Math.round(s / (86400 * 365)), 'year')
}

export function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`
  return `${(n / 1024 ** 3).toFixed(2)} GB`
}

export const postUrl = (handle: string, postId: string) =>
  `https://x.com/${encodeURIComponent(handle.replace(/^@/, ''))}/status/${encodeURIComponent(postId)}`

export const SOURCE_LABELS: Record<string, string> = {
  bookmark: 'Bookmarks',
  like: 'Likes',
  own_post: 'Own posts',
}
export const sourceLabel = (s: string) => SOURCE_LABELS[s] ?? s.replace(/_/g, ' ')


export { fmtDuration, fmtMonth, initials, monthSeries } from '../../src-shared/display.ts'
