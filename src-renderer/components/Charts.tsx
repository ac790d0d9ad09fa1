import { CATEGORY_COLORS } from '../../src-shared/categories.ts'
import { fmtMonth, fmtNumber, monthSeries, noun } from '../lib/format.ts'
import { Link } from './Link.tsx'

export interface BarDatum {
  label: string
  value: number
  color?: string
  to?: string
}

/** Horizontal bars in plain CSS: readable labels, values as text, no colour-only meaning. */
export function BarList({ data, label }: { data: BarDatum[]; label: string }) {
  const max = Math.max(1, ...data.map((d) => d.value))
  if (!data.length) return <p className="muted">Nothing yet.</p>
  return (
    <ul className="barlist" aria-label={label}>
      {data.map((d) => (
        <li key={d.label} className="barlist-row">
          <span className="barlist-label">{d.to ? <Link to={d.to}>{d.label}</Link> : d.label}</span>
          <span className="barlist-track" aria-hidden="true">
            <span className="barlist-fill" style={{ width: `${(d.value / max) * 100}%`, background: d.color ?? 'var(--accent)' }} />
          </span>
          <span className="barlist-value">{fmtNumber(d.value)}</span>
        </li>
      ))}
    </ul>
  )
}

const MAX_MONTHS = 36

/** Posts per month as columns; the table behind it is given to screen readers. */
export function TimeChart({ data, label }: { data: { month: string; count: number }[]; label: string }) {
  if (!data.length) return <p className="muted">Nothing yet.</p>
  // Every month in the range, empty ones too (they would vanish from the axis), the last three years at most.
  const all = monthSeries(data)
  const shown = all.slice(-MAX_MONTHS)
  const earlier = all.slice(0, Math.max(0, all.length - MAX_MONTHS))
  const left = earlier.reduce((s, d) => s + d.count, 0)
  const max = Math.max(1, ...shown.map((d) => d.count))
  const w = 600
  const h = 160
  const gap = 2
  const bw = Math.max(2, (w - gap * shown.length) / shown.length)
  const fmt = fmtMonth
  const ticks = [0, Math.floor(shown.length / 2), shown.length - 1].filter((v, i, a) => a.indexOf(v) === i)
  return (
    <figure className="timechart">
      <svg viewBox={`0 0 ${w} ${h + 22}`} role="img" aria-label={`${label}: ${shown.length} months, peak ${fmtNumber(max)} posts`} preserveAspectRatio="none">
        {[0.25, 0.5, 0.75, 1].map((f) => <line key={f} x1={0} x2={w} y1={h - h * f} y2={h - h * f} className="grid-line" />)}
        {shown.map((d, i) => {
          const bh = Math.max(d.count > 0 ? 2 : 0, (d.count / max) * (h - 6))
          return (
            <rect key={d.month} x={i * (bw + gap)} y={h - bh} width={bw} height={bh} rx={Math.min(3, bw / 3)} className="bar">
              <title>{`${fmt(d.month)}: ${fmtNumber(d.count)} posts`}</title>
            </rect>
          )
        })}
        {ticks.map((i) => (
          <text key={i} x={i === shown.length - 1 ? w : i === 0 ? 0 : i * (bw + gap)} textAnchor={i === shown.length - 1 ? 'end' : i === 0 ? 'start' : 'middle'} y={h + 16} className="axis-label">{fmt(shown[i].month)}</text>
        ))}
      </svg>
      {left > 0 && <figcaption className="muted">The last {MAX_MONTHS} months; {noun(left, 'earlier post', 'earlier posts')}, from {fmtMonth(earlier[0].month)}, are not in the chart.</figcaption>}
      <table className="sr-only">
        <caption>{label}</caption>
        <tbody>{shown.map((d) => <tr key={d.month}><th scope="row">{fmt(d.month)}</th><td>{d.count}</td></tr>)}</tbody>
      </table>
    </figure>
  )
}

const paletteAt = (i: number) => CATEGORY_COLORS[i % CATEGORY_COLORS.length]

export function Donut({ data, label }: { data: BarDatum[]; label: string }) {
  const total = data.reduce((s, d) => s + d.value, 0)
  if (!total) return <p className="muted">No media yet.</p>
  const r = 42
  const c = 2 * Math.PI * r
  let offset = 0
  return (
    <div className="donut">
      <svg viewBox="0 0 100 100" role="img" aria-label={`${label}: ${data.map((d) => `${d.label} ${d.value}`).join(', ')}`}>
        <circle cx={50} cy={50} r={r} className="donut-track" />
        {data.map((d, i) => {
          const len = (d.value / total) * c
          const el = <circle key={d.label} cx={50} cy={50} r={r} fill="none" stroke={d.color ?? paletteAt(i)} strokeWidth={12}
            strokeDasharray={`${len} ${c - len}`} strokeDashoffset={-offset} transform="rotate(-90 50 50)" />
          offset += len
          return el
        })}
        <text x={50} y={48} textAnchor="middle" className="donut-total">{fmtNumber(total)}</text>
        <text x={50} y={62} textAnchor="middle" className="donut-caption">items</text>
      </svg>
      <ul className="legend">
        {data.map((d, i) => (
          <li key={d.label}><span className="legend-dot" style={{ background: d.color ?? paletteAt(i) }} aria-hidden="true" />{d.label} <strong>{fmtNumber(d.value)}</strong></li>
        ))}
      </ul>
    </div>
  )
}
