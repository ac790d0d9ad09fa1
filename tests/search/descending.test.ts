import { describe, expect, it } from 'vitest'
import { descending } from '../../src-main/search/word-memory.ts'

describe('the larger-first comparison (descending)', () => {
  it('orders as b - a does, ties kept in place', () => {
    let seed = 5
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
    const xs = Array.from({ length: 500 }, (_, i) => ({ i, score: Math.floor(rnd() * 40) / 7 - 2 }))
    expect([...xs].sort((a, b) => descending(a.score, b.score))).toEqual([...xs].sort((a, b) => b.score - a.score))
    expect([3, -1, 0.5, 3, -0.25].sort(descending)).toEqual([3, 3, 0.5, -0.25, -1])
  })
})
