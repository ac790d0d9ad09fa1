/** How names, months and durations are shown, the same wherever they are (pure; no DOM, no Node). */

/**
 * Up to two initials, whole characters only: words that start with a letter or digit give theirs
 * ("EuroMaximalist 🇪🇺" → "E", never half of a flag), emoji-only names fall back to the handle.
 */
export function initials(name: string, handle = ''): string {
  const pick = (s: string) => s.replace(/^@/, '').split(/\s+/)
    .map((w) => /^[\p{L}\p{N}]/u.exec(w)?.[0] ?? '').filter(Boolean).slice(0, 2).join('').toLocaleUpperCase()
  return pick(name) || pick(handle) || '?'
}

/** "2017-10" → "Oct 2017": a month with its full year, which no one reads as a day of the month. */
export const fmtMonth = (m: string) =>
  new Date(`${m}-01T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' })

/** Every month from the first to the last of `data` ("YYYY-MM"), the empty ones with 0: none vanishes from the axis. */
export function monthSeries(data: { month: string; count: number }[]): { month: string; count: number }[] {
  if (data.length === 0) return []
  const counts = new Map(data.map((d) => [d.month, d.count]))
  const sorted = [...counts.keys()].sort()
  let [y, m] = sorted[0].split('-').map(Number)
  const [ly, lm] = sorted[sorted.length - 1].split('-').map(Number)
  const out: { month: string; count: number }[] = []
  while (y < ly || (y === ly && m <= lm)) {
    const key = `${y}-${String(m).padStart(2, '0')}`
    out.push({ month: key, count: counts.get(key) ?? 0 })
    if (++m > 12) {
      m = 1
      y++
    }
  }
  return out
}

/** Seconds as "45 s", "3 min 5 s" or "1 h 20 min"; "–" when unknown. */
export function fmtDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '–'
  // Rounded up once, before splitting, so 119.6 s reads "2 min 0 s", never "1 min 60 s".
  const s = Math.ceil(seconds)
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`
  const min = Math.ceil(s / 60)
  return `${Math.floor(min / 60)} h ${min % 60} min`
}
