export interface Placed {
  id: string
  x: number
  y: number
  r: number
  angle: number
}

/** Categories evenly on a circle around the root, sized by the square root of their post count. */
export function layoutCategories(cats: { id: string; count: number }[]): { radius: number; placed: Placed[] } {
  const max = Math.max(1, ...cats.map((c) => c.count))
  const sizes = cats.map((c) => 14 + 26 * Math.sqrt(c.count / max))
  const circumference = sizes.reduce((s, r) => s + 2 * r + 26, 0)
  const radius = Math.max(220, circumference / (2 * Math.PI))
  return {
    radius,
    placed: cats.map((c, i) => {
      const angle = (i / Math.max(1, cats.length)) * 2 * Math.PI - Math.PI / 2
      return { id: c.id, x: Math.cos(angle) * radius, y: Math.sin(angle) * radius, r: sizes[i], angle }
    }),
  }
}

/**
 * Posts of an expanded category fanned outward from it on one arc, far enough out that neighbours
 * are at least 17 px apart: each can carry a label along its ray without crossing another's.
 */
export function layoutChildren(parent: Placed, ids: string[]): Placed[] {
  const n = ids.length
  const spread = Math.min(Math.PI * 0.9, 0.22 * n)
  const d = Math.max(parent.r + 90, n > 1 ? (17 * (n - 1)) / spread : 0)
  return ids.map((id, i) => {
    const a = parent.angle + (n === 1 ? 0 : (i / (n - 1) - 0.5) * spread)
    return { id, x: parent.x + Math.cos(a) * d, y: parent.y + Math.sin(a) * d, r: 7, angle: a }
  })
}
