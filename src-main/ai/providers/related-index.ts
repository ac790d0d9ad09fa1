/**
 * Related posts at library scale. relatedByVectors (ai/local) compares every pair, fine for small
 * sets; here small libraries are compared exhaustively too, and large ones through candidates from
 * random-hyperplane buckets (LSH) plus posts sharing an entity or tag. The score is the same:
 * cosine + 0.15 per shared entity, at most +0.3.
 */
const ENTITY_WEIGHT = 0.15
const MAX_ENTITY_BONUS = 0.3
const EXHAUSTIVE_BELOW = 2000
const TABLES = 10
const BITS = 11
/** Keys shared by more posts than this say little ("ai") and would flood the candidates. */
const MAX_POSTING = 200
/** Near-duplicate posts crowd one bucket; a strided sample of a big bucket finds the same neighbours for far less. */
const MAX_BUCKET = 200
const MAX_CANDIDATES = 1500

export interface RelatedIndexInput {
  ids: number[]
  dim: number
  /** Packed unit vectors, ids[i] at [i*dim, (i+1)*dim). */
  vectors: Float32Array
  /** Lowercased entity/tag keys per post. */
  keys: string[][]
}

export interface RelatedIndex {
  query(id: number, k?: number, minScore?: number): Array<{ id: number; score: number }>
}

function mulberry32(seed: number) {
  return () => {
    seed |= 0
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function buildRelatedIndex({ ids, dim, vectors, keys }: RelatedIndexInput): RelatedIndex {
  const n = ids.length
  const pos = new Map(ids.map((id, i) => [id, i]))
  const interned = new Map<string, number>()
  const keySets = keys.map((ks) => Int32Array.from(new Set(ks.map((k) => {
    let v = interned.get(k)
    if (v === undefined) interned.set(k, (v = interned.size))
    return v
  }))).sort())
  const postings = new Map<number, number[]>()
  for (let i = 0; i < n; i++) for (const k of keySets[i]) {
    const l = postings.get(k)
    if (l) l.push(i)
    else postings.set(k, [i])
  }

  let tables: Array<Map<number, number[]>> = []
  let planes: Float32Array[] = []
  let sigs = new Int32Array(0)
  const signature = (t: number, i: number) => {
    let sig = 0
    for (let b = 0; b < BITS; b++) {
      const p = planes[t * BITS + b]
      let dot = 0
      for (let d = 0; d < dim; d++) dot += p[d] * vectors[i * dim + d]
      if (dot > 0) sig |= 1 << b
    }
    return sig
  }
  if (n >= EXHAUSTIVE_BELOW) {
    const rand = mulberry32(42)
    planes = Array.from({ length: TABLES * BITS }, () => Float32Array.from({ length: dim }, () => rand() * 2 - 1))
    tables = Array.from({ length: TABLES }, () => new Map())
    sigs = new Int32Array(TABLES * n)
    for (let t = 0; t < TABLES; t++) for (let i = 0; i < n; i++) {
      const s = (sigs[t * n + i] = signature(t, i))
      const l = tables[t].get(s)
      if (l) l.push(i)
      else tables[t].set(s, [i])
    }
  }

  const shared = (a: Int32Array, b: Int32Array) => {
    let i = 0
    let j = 0
    let c = 0
    while (i < a.length && j < b.length) {
      if (a[i] === b[j]) { c++; i++; j++ } else if (a[i] < b[j]) i++
      else j++
    }
    return c
  }
  const dotOf = (i: number, j: number) => {
    let dot = 0
    const oi = i * dim
    const oj = j * dim
    for (let d = 0; d < dim; d++) dot += vectors[oi + d] * vectors[oj + d]
    return dot
  }

  return {
    query(id, k = 5, minScore = 0.5) {
      const i = pos.get(id)
      if (i === undefined || n < 2) return []
      let candidates: Iterable<number>
      if (n < EXHAUSTIVE_BELOW) candidates = Array.from({ length: n }, (_, j) => j)
      else {
        const set = new Set<number>()
        for (const key of keySets[i]) {
          const l = postings.get(key)!
          if (l.length <= MAX_POSTING) for (const j of l) set.add(j)
          if (set.size > MAX_CANDIDATES / 2) break
        }
        for (let t = 0; t < TABLES && set.size < MAX_CANDIDATES; t++) {
          const l = tables[t].get(sigs[t * n + i])!
          const step = l.length > MAX_BUCKET ? l.length / MAX_BUCKET : 1
          for (let x = 0; x < l.length; x += step) set.add(l[Math.floor(x)])
        }
        candidates = set
      }
      // Top k kept sorted by insertion; the entity bonus (at most +0.3) is only worked out when it could matter.
      const best: Array<{ j: number; s: number }> = []
      for (const j of candidates) {
        if (j === i) continue
        const floor = best.length < k ? -Infinity : best[best.length - 1].s
        const dot = dotOf(i, j)
        if (dot + MAX_ENTITY_BONUS <= floor) continue
        const s = dot + (keySets[i].length && keySets[j].length ? Math.min(MAX_ENTITY_BONUS, shared(keySets[i], keySets[j]) * ENTITY_WEIGHT) : 0)
        if (s <= floor) continue
        if (best.length === k) best.pop()
        let at = best.length
        while (at > 0 && best[at - 1].s < s) at--
        best.splice(at, 0, { j, s })
      }
      // Every post gets its nearest neighbours; those under minScore only when nothing closer exists.
      const strong = best.filter((b) => b.s >= minScore)
      const positive = best.filter((b) => b.s > 0)
      const chosen = strong.length > 0 ? strong : (positive.length > 0 ? positive : best).slice(0, 3)
      return chosen.map((b) => ({ id: ids[b.j], score: Math.round(b.s * 1000) / 1000 }))
    },
  }
}
