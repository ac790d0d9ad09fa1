import { initials } from '../lib/format.ts'

const hue = (s: string) => [...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 7)

/** Initials on a colour derived from the handle: no remote avatar fetch, stable per author. */
export function Avatar({ name, handle, size = 36 }: { name: string; handle: string; size?: number }) {
  return (
    <span className="avatar" aria-hidden="true"
      style={{ width: size, height: size, fontSize: size * 0.38, background: `hsl(${hue(handle)} 60% 30%)` }}>
      {initials(name, handle)}
    </span>
  )
}
