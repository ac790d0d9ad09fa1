/**
 * The best k of scores seen in row order, ties going to the earlier row: a min-heap of k (its root is
 * the one to drop next), so placing a score costs log k swaps instead of shifting a sorted buffer.
 */
export interface BestK {
  /** What a later row must beat to get in (-Infinity until k are held). */
  readonly floor: number
  /** Offers row `row`'s score; rows come in increasing order. */
  push(score: number, row: number): void
  /** The rows held, best first. */
  sorted(): Array<{ row: number; score: number }>
}

export function bestK(k: number): BestK {
  const scores = new Float32Array(k)
  const rows = new Int32Array(k)
  let n = 0
  // a is worse than b: a lower score, or the same score on a later row.
  const worse = (a: number, b: number) => scores[a] < scores[b] || (scores[a] === scores[b] && rows[a] > rows[b])
  const swap = (a: number, b: number) => {
    const s = scores[a]
    scores[a] = scores[b]
    scores[b] = s
    const r = rows[a]
    rows[a] = rows[b]
    rows[b] = r
  }
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1
      if (!worse(i, p)) return
      swap(i, p)
      i = p
    }
  }
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1
      if (l >= n) return
      const c = l + 1 < n && worse(l + 1, l) ? l + 1 : l
      if (!worse(c, i)) return
      swap(c, i)
      i = c
    }
  }
  return {
    get floor() {
      return n < k ? -Infinity : scores[0]
    },
    push(score, row) {
      if (k <= 0) return
      if (n < k) {
        scores[n] = score
        rows[n] = row
        up(n++)
      } else if (score > scores[0]) {
        scores[0] = score
        rows[0] = row
        down(0)
      }
    },
    sorted() {
      const out = Array.from({ length: n }, (_, i) => ({ row: rows[i], score: scores[i] }))
      return out.sort((a, b) => b.score - a.score || a.row - b.row)
    },
  }
}
