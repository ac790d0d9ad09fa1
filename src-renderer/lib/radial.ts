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

/** Posts of an expanded category fanned outward from it, in rings of up to 12. */
export function layoutChildren(parent: Placed, ids: string[]): Placed[] {
  const perRing = 12
  return ids.map((id, i) => {
    const ring = Math.floor(i / perRing)
    const inRing = Math.min(perRing, ids.length - ring * perRing)
    const spread = Math.min(Math.PI * 0.9, 0.22 * inRing)
    const a = parent.angle + (inRing === 1 ? 0 : ((i % perRing) / (inRing - 1) - 0.5) * spread)
    const d = parent.r + 90 + ring * 64
    return { id, x: parent.x + Math.cos(a) * d, y: parent.y + Math.sin(a) * d, r: 7, angle: a }
  })
}
