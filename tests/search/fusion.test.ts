import { describe, expect, it } from 'vitest'
import { fuse, RRF_K } from '../../src-main/search/candidates.ts'

describe('fusion', () => {
  it('ranks a post both halves propose above posts only one proposes, keeping each half’s score', () => {
    const fused = fuse([{ id: 1, score: 9 }, { id: 2, score: 5 }], [{ id: 3, score: 0.8 }, { id: 2, score: 0.6 }])
    expect(fused.map((f) => f.id)).toEqual([2, 1, 3])
    expect(fused[0]).toEqual({ id: 2, bm25: 5, cosine: 0.6, rrf: 2 / (RRF_K + 2) })
    expect(fused[1]).toMatchObject({ id: 1, bm25: 9, cosine: null })
    expect(fused[2]).toMatchObject({ id: 3, bm25: null, cosine: 0.8 })
  })

  it('gives nothing for nothing', () => {
    expect(fuse([], [])).toEqual([])
  })
})
