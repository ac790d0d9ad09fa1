import { describe, expect, it } from 'vitest'
import { orderThreads, type Edge } from '../../src-main/threads/index.ts'

const edge = (id: number, parentId: number, postCreatedAt: number, postId = String(id)): Edge =>
  ({ id, parentId, postId, postCreatedAt, parentPostId: String(parentId) })

const read = (edges: Edge[]) => {
  const byRoot = new Map<number, number[]>()
  for (const p of [...orderThreads(edges)].sort((a, b) => a.position - b.position)) byRoot.set(p.rootId, [...(byRoot.get(p.rootId) ?? []), p.id])
  return Object.fromEntries(byRoot)
}

describe('orderThreads', () => {
  it('reads depth first, replies in the order posted, whatever order the edges come in', () => {
    const edges = [edge(4, 1, 40), edge(2, 1, 20), edge(3, 2, 30), edge(5, 4, 50)]
    expect(read(edges)).toEqual({ 1: [1, 2, 3, 4, 5] })
    expect(read([...edges].reverse())).toEqual({ 1: [1, 2, 3, 4, 5] })
    expect(orderThreads(edges).every((p) => p.size === 5)).toBe(true)
  })

  it('breaks a tie in time by post id as a number (a shorter id is older), not as text', () => {
    expect(read([edge(2, 1, 10, '1000'), edge(3, 1, 10, '999')])).toEqual({ 1: [1, 3, 2] })
  })

  it('keeps separate threads apart and leaves out a reply cycle, which has no root', () => {
    expect(read([edge(2, 1, 1), edge(12, 11, 1), edge(21, 22, 1), edge(22, 21, 2)])).toEqual({ 1: [1, 2], 11: [11, 12] })
  })
})
