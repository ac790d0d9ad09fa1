/**
 * The best k of scores seen in row order, ties going to the earlier row: a min-heap of k (its root is
 * the one to drop next), so placing a score costs log k swaps instead of shifting a sorted buffer.
 */
export interface BestK {
  /** What a later row must beat to get in (-Infinity until k are held). */
  readonly floor: number
  /** Offers row `row`'s score; rows come in increasing order. */
  push(score: number, row: number): void
  /** The rows held, best first, as `hit(row, score)` makes them; empties the heap. */
  drain<T>(hit: (row: number, score: number) => T): T[]
}

export function bestK(k: number): BestK {
  const scores = new Float32Array(k)
  const rows = new Int32Array(k)
  let n = 0
  // Sifts move a hole instead of swapping; "worse" is a lower score, or the same score on a later row.
  const up = (i: number) => {
    const s = scores[i]
    const r = rows[i]
    while (i > 0) {
      const p = (i - 1) >> 1
      if (!(s < scores[p] || (s === scores[p] && r > rows[p]))) break
      scores[i] = scores[p]
      rows[i] = rows[p]
      i = p
    }
    scores[i] = s
    rows[i] = r
  }
  const down = (i: number) => {
    const s = scores[i]
    const r = rows[i]
    for (;;) {
      let c = 2 * i + 1
      if (c >= n) break
      if (c + 1 < n && (scores[c + 1] < scores[c] || (scores[c + 1] === scores[c] && rows[c + 1] > rows[c]))) c++
      if (!(scores[c] < s || (scores[c] === s && rows[c] > r))) break
      scores[i] = scores[c]
      rows[i] = rows[c]
      i = c
    }
    scores[i] = s
    rows[i] = r
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
    drain(hit) {
      // The root is the worst held: taken off in turn, they come worst first.
      const out = new Array(n)
      while (n > 0) {
        out[n - 1] = hit(rows[0], scores[0])
        const last = --n
        if (last > 0) {
          scores[0] = scores[last]
          rows[0] = rows[last]
          down(0)
        }
      }
      return out
    },
  }
}

/**
 * The best k of `n` scores given with their rows (`scores[i]` is row `rows[i]`'s), as bestK holds them, best first:
 * the k-th best score is found first (quickselect over a copy, one pass on average), so only the rows at or above it
 * go through the heap rather than every row that beats the heap's floor as it rises (most of them, in row order).
 */
export function bestOf<T>(scores: Float32Array, rows: Int32Array, n: number, k: number, hit: (row: number, score: number) => T): T[] {
  const best = bestK(k)
  const floor = k > 0 && k < n ? kthLargest(scores, n, k) : -Infinity
  for (let i = 0; i < n; i++) if (scores[i] >= floor) best.push(scores[i], rows[i])
  return best.drain(hit)
}

let scratch = new Float32Array(1024)

/** The k-th largest of scores[0, n) (0 < k <= n), counting equal scores apart. */
export function kthLargest(scores: Float32Array, n: number, k: number): number {
  if (scratch.length < n) scratch = new Float32Array(Math.max(n, 2 * scratch.length))
  const a = scratch
  a.set(scores.subarray(0, n))
  const want = k - 1
  let lo = 0
  let hi = n - 1
  while (lo < hi) {
    const pivot = medianOf3(a[lo], a[(lo + hi) >> 1], a[hi])
    let i = lo
    let j = hi
    // Hoare's partition, largest first: [lo, j] >= pivot, [i, hi] <= pivot, and between them (if any) = pivot.
    while (i <= j) {
      while (a[i] > pivot) i++
      while (a[j] < pivot) j--
      if (i <= j) {
        const t = a[i]
        a[i++] = a[j]
        a[j--] = t
      }
    }
    if (want <= j) hi = j
    else if (want >= i) lo = i
    else return a[want]
  }
  return a[lo]
}

const medianOf3 = (x: number, y: number, z: number): number => (x > y ? (y > z ? y : x > z ? z : x) : x > z ? x : y > z ? z : y)
