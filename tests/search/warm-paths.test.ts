import { afterEach, describe, expect, it } from 'vitest'
import type { Reranker } from '../../src-main/search/index.ts'
import { startTestServer, type TestServer } from '../support/server.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * The first searches and lists after a start paid V8's compiling of their code inside requests. Once
 * the library holds still, the server runs a few of each itself (as nobody: no member's state); never
 * while a provider's model would be asked (a reranker here).
 */
describe('the request paths are warmed before the first request', () => {
  let t: TestServer | null = null
  afterEach(async () => {
    await t?.close()
    t = null
  })

  /** Counts the list and search calls the server makes of its own (none is requested here). */
  const watch = (server: TestServer) => {
    const calls = { lists: [] as Array<{ q?: string; userId: number }>, asked: 0 }
    const { bookmarks } = server.sheaf.library
    const list = bookmarks.list.bind(bookmarks)
    bookmarks.list = (q, userId) => {
      calls.lists.push({ q: q.q, userId })
      return list(q, userId)
    }
    return calls
  }

  it("runs lists (as nobody) and searches once the library holds still, without a request", async () => {
    t = await startTestServer()
    const calls = watch(t)
    for (const end = Date.now() + 10_000; calls.lists.length === 0 && Date.now() < end;) await sleep(50)
    expect(calls.lists.length).toBeGreaterThan(0)
    expect(calls.lists.some((c) => c.q !== undefined)).toBe(true)
    expect(calls.lists.every((c) => c.userId === 0)).toBe(true)
  })

  it('does nothing while a model would be asked', async () => {
    let asked = 0
    const reranker: Reranker = {
      name: 'fake',
      async rerank(_q, candidates) {
        asked++
        return candidates.map((c) => ({ id: c.id, reason: 'fake', score: 0.5 }))
      },
    }
    t = await startTestServer({ reranker })
    const calls = watch(t)
    await sleep(3500)
    expect(calls.lists).toEqual([])
    expect(asked).toBe(0)
  })
})
