const DAY_MS = 86_400_000
const offsetMs = (t: number) => new Date(t).getTimezoneOffset() * 60_000

/** The server machine's local calendar day of `t`, as days since 1970-01-01 (the household shares one clock). */
export const dayOf = (t: number): number => Math.floor((t - offsetMs(t)) / DAY_MS)

/** The local midnight that starts `day`, epoch ms. */
export function startOfDay(day: number): number {
  const utc = day * DAY_MS
  return utc + offsetMs(utc + offsetMs(utc))
}

/** YYYY-MM-DD of a day number. */
export const dayString = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10)
