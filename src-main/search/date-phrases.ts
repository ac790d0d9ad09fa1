/** Time phrases in a query ("last month", "in March 2024", before:2023-05) as half-open UTC ranges. */

export interface DateRange {
  /** Inclusive, epoch ms. */
  after: number | null
  /** Exclusive, epoch ms. */
  before: number | null
  label: string
}

export interface DateMatch {
  range: DateRange
  start: number
  end: number
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']
const MONTH_RE = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)'
const DAY = 86_400_000

const monthIndex = (s: string): number => MONTHS.findIndex((m) => m.startsWith(s.toLowerCase().slice(0, 3)))
const utc = (y: number, m = 0, d = 1) => Date.UTC(y, m, d)
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
const monthName = (m: number) => cap(MONTHS[m])

/** A year, year-month or full date as its whole span. */
function spanOf(value: string): { from: number; to: number; label: string } | null {
  let m = /^(\d{4})$/.exec(value)
  if (m) return { from: utc(+m[1]), to: utc(+m[1] + 1), label: m[1] }
  m = /^(\d{4})-(\d{1,2})$/.exec(value)
  if (m && +m[2] >= 1 && +m[2] <= 12) return { from: utc(+m[1], +m[2] - 1), to: utc(+m[1], +m[2]), label: `${monthName(+m[2] - 1)} ${m[1]}` }
  m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(value)
  if (m && +m[2] >= 1 && +m[2] <= 12 && +m[3] >= 1 && +m[3] <= 31) {
    const from = utc(+m[1], +m[2] - 1, +m[3])
    return { from, to: from + DAY, label: new Date(from).toISOString().slice(0, 10) }
  }
  return null
}

const startOfWeek = (now: number) => {
  const d = new Date(now)
  const dayStart = utc(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())
  return dayStart - ((d.getUTCDay() + 6) % 7) * DAY
}

type Rule = { re: RegExp; make: (m: RegExpExecArray, now: number) => DateRange | null }

const RULES: Rule[] = [
  {
    re: /\b(before|after|since|until):(\d{4}(?:-\d{1,2}){0,2})\b/gi,
    make: (m) => {
      const s = spanOf(m[2])
      if (!s) return null
      const op = m[1].toLowerCase()
      return op === 'before' || op === 'until' ? { after: null, before: s.from, label: `before ${s.label}` }
        : { after: op === 'after' ? s.to : s.from, before: null, label: `${op} ${s.label}` }
    },
  },
  {
    re: /\b(today|yesterday|this (?:week|month|year)|last (?:week|month|year))\b/gi,
    make: (m, now) => {
      const d = new Date(now)
      const y = d.getUTCFullYear()
      const mo = d.getUTCMonth()
      const today = utc(y, mo, d.getUTCDate())
      switch (m[1].toLowerCase().replace(/\s+/g, ' ')) {
        case 'today': return { after: today, before: null, label: 'today' }
        case 'yesterday': return { after: today - DAY, before: today, label: 'yesterday' }
        case 'this week': return { after: startOfWeek(now), before: null, label: 'this week' }
        case 'last week': return { after: startOfWeek(now) - 7 * DAY, before: startOfWeek(now), label: 'last week' }
        case 'this month': return { after: utc(y, mo), before: null, label: 'this month' }
        case 'last month': return { after: utc(y, mo - 1), before: utc(y, mo), label: 'last month' }
        case 'this year': return { after: utc(y), before: null, label: 'this year' }
        default: return { after: utc(y - 1), before: utc(y), label: 'last year' }
      }
    },
  },
  {
    re: /\b(?:in the )?(?:last|past) (\d{1,3}) (day|week|month|year)s?\b/gi,
    make: (m, now) => {
      const n = +m[1]
      const unit = m[2].toLowerCase()
      const d = new Date(now)
      const after = unit === 'day' ? now - n * DAY : unit === 'week' ? now - 7 * n * DAY
        : unit === 'month' ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, d.getUTCDate())
        : Date.UTC(d.getUTCFullYear() - n, d.getUTCMonth(), d.getUTCDate())
      return { after, before: null, label: `in the last ${n} ${unit}${n === 1 ? '' : 's'}` }
    },
  },
  {
    re: new RegExp(`\\b(?:(in|from|during|since|before|after) )?${MONTH_RE}(?: (\\d{4}))?\\b`, 'gi'),
    make: (m, now) => {
      const month = monthIndex(m[2])
      const d = new Date(now)
      // A month without a year: the most recent one that has started.
      const year = m[3] ? +m[3] : month <= d.getUTCMonth() ? d.getUTCFullYear() : d.getUTCFullYear() - 1
      // "may" and "march" are also ordinary words: without a year, ask for "in"/"since"… before them.
      if (!m[3] && !m[1]) return null
      return bounded(m[1], { from: utc(year, month), to: utc(year, month + 1), label: `${monthName(month)} ${year}` })
    },
  },
  {
    re: /\b(?:(in|from|during|since|before|after) )?((?:19|20)\d{2})\b/gi,
    make: (m) => {
      const y = +m[2]
      if (y < 2006 || y > 2100) return null
      return bounded(m[1], { from: utc(y), to: utc(y + 1), label: String(y) })
    },
  },
]

function bounded(op: string | undefined, s: { from: number; to: number; label: string }): DateRange {
  switch (op?.toLowerCase()) {
    case 'since': return { after: s.from, before: null, label: `since ${s.label}` }
    case 'after': return { after: s.to, before: null, label: `after ${s.label}` }
    case 'before': return { after: null, before: s.from, label: `before ${s.label}` }
    default: return { after: s.from, before: s.to, label: s.label }
  }
}

/** Every time phrase in `text`, first rule wins where phrases overlap. */
export function findDatePhrases(text: string, now: number): DateMatch[] {
  const found: DateMatch[] = []
  const taken = (a: number, b: number) => found.some((f) => a < f.end && b > f.start)
  for (const rule of RULES) {
    rule.re.lastIndex = 0
    for (let m = rule.re.exec(text); m; m = rule.re.exec(text)) {
      const start = m.index
      const end = start + m[0].length
      if (taken(start, end)) continue
      const range = rule.make(m, now)
      if (range) found.push({ range, start, end })
    }
  }
  return found.sort((a, b) => a.start - b.start)
}

/** The intersection of several ranges ("since 2022" and "before:2023-06"). */
export function intersect(ranges: DateRange[]): DateRange | null {
  if (ranges.length === 0) return null
  let after: number | null = null
  let before: number | null = null
  for (const r of ranges) {
    if (r.after !== null) after = after === null ? r.after : Math.max(after, r.after)
    if (r.before !== null) before = before === null ? r.before : Math.min(before, r.before)
  }
  return { after, before, label: ranges.map((r) => r.label).join(', ') }
}
