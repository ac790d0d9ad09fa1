import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { zQuickSearchResponse, zSearchResponse, type SearchResponse } from '../../src-shared/schemas/search.ts'
import type { Reranker } from '../../src-main/search/index.ts'
import { clientsByRole, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { sheafExport, type PostSpec } from './sheaf-export.ts'

const NOW = Date.UTC(2024, 11, 15, 12)

const CATEGORIES = [{ name: 'Dev Tools', slug: 'dev-tools' }, { name: 'Cooking', slug: 'cooking' }]

const POSTS: PostSpec[] = [
  { postId: '101', handle: 'alice', name: 'Alice Doe', at: '2024-03-10T10:00:00Z', categories: ['dev-tools'], tags: ['databases'],
    text: 'How I made my SQLite queries ten times faster with the right indexes', urls: ['https://sqlite.org/queryplanner.html'] },
  { postId: '102', handle: 'bob', at: '2023-06-01T10:00:00Z',
    text: 'My cat loves sleeping on the warm laptop keyboard all afternoon', media: [{ type: 'photo', altText: 'a cat asleep on a laptop' }] },
  { postId: '103', handle: 'chef', name: 'Mario', at: '2024-11-03T10:00:00Z', categories: ['cooking'],
    text: 'Tips for cooking perfect spaghetti: salt the water generously and save some of it for the sauce' },
  { postId: '104', handle: 'pgdude', at: '2022-02-01T10:00:00Z', tags: ['databases'], text: 'Postgres vacuum tuning guide for very large tables' },
  { postId: '105', handle: 'alice', name: 'Alice Doe', at: '2024-03-20T10:00:00Z', categories: ['dev-tools'],
    text: 'The Rust borrow checker explained with diagrams', media: [{ type: 'photo', ocrText: 'ownership and lifetimes cheat sheet' }] },
  { postId: '106', handle: 'ops', at: '2024-08-05T10:00:00Z', text: 'Kubernetes operators in production: lessons from two years of on-call',
    media: [{ type: 'video' }], entities: { tools: ['Kubernetes'] } },
  { postId: '107', handle: 'gardener', at: '2021-04-01T10:00:00Z', text: 'Tomatoes need full sun and deep watering twice a week', summary: 'Growing vegetables at home' },
  { postId: '108', handle: 'crypto', at: '2024-12-02T10:00:00Z', text: 'Bitcoin databases and ledgers explained for beginners' },
]

const BULK: PostSpec[] = Array.from({ length: 60 }, (_, i) => ({
  postId: String(900 + i), handle: 'bulk', at: Date.UTC(2020, 0, 1 + i), text: `Weekly newsletter number ${i} about assorted links`,
}))

async function importPosts(admin: Client, posts: PostSpec[]) {
  const fd = new FormData()
  fd.append('file', new Blob([sheafExport(posts, CATEGORIES)]), 'library.json')
  const res = await admin.request('POST', '/api/import', fd)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}

const ids = (r: SearchResponse) => r.results.map((x) => x.bookmark.postId)

describe('GET /api/search/ai over the real server', () => {
  let t: TestServer
  let c: Record<'admin' | 'member' | 'viewer', Client>
  const ask = async (q: string, extra = '') => {
    const res = await c.member.get(`/api/search/ai?q=${encodeURIComponent(q)}${extra}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return zSearchResponse.parse(res.body)
  }

  beforeAll(async () => {
    t = await startTestServer()
    t.clock.now = NOW
    c = await clientsByRole(t)
    await importPosts(c.admin, [...POSTS, ...BULK])
  })
  afterAll(async () => t?.close())

  it('answers 400 VALIDATION_ERROR naming q when it is missing or empty, and for a bad limit', async () => {
    for (const path of ['/api/search/ai', '/api/search/ai?q=', '/api/search/ai?q=%20%20']) {
      const res = await c.member.get(path)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'q' } })
      expect(res.body.error).toMatch(/^q: /)
    }
    for (const limit of ['0', 'abc', '2.5']) {
      const res = await c.member.get(`/api/search/ai?q=cat&limit=${limit}`)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'limit' } })
    }
  })

  it('refuses viewers with 403 and serves members and admins', async () => {
    const viewer = await c.viewer.get('/api/search/ai?q=cat')
    expect(viewer.status).toBe(403)
    expect(viewer.body.code).toBe('FORBIDDEN')
    expect((await c.admin.get('/api/search/ai?q=cat')).status).toBe(200)
    expect((await c.member.get('/api/search/ai?q=cat')).status).toBe(200)
  })

  it('defaults limit to 10, clamps to 50 and echoes the effective limit and the query', async () => {
    const def = await ask('from:@bulk')
    expect(def.results).toHaveLength(10)
    expect(def.limit).toBe(10)
    expect(def.query).toBe('from:@bulk')
    const big = await ask('from:@bulk', '&limit=500')
    expect(big.limit).toBe(50)
    expect(big.results).toHaveLength(50)
    expect((await ask('newsletter', '&limit=3')).results).toHaveLength(3)
  })

  it('gives every result a relevance in [0, 1] and a reason in words', async () => {
    const r = await ask('sqlite indexes')
    expect(ids(r)[0]).toBe('101')
    for (const x of r.results) {
      expect(x.relevance).toBeGreaterThanOrEqual(0)
      expect(x.relevance).toBeLessThanOrEqual(1)
      expect(x.reason.length).toBeGreaterThan(5)
    }
    expect(r.results[0].relevance).toBeGreaterThan(0.6)
    expect(r.results[0].reason).toMatch(/^Mentions “SQLite” and “indexes”/)
    expect(r.results[0].reason).not.toMatch(/\d/)
    expect(r.results[0].bookmark).toMatchObject({ id: expect.any(Number), text: POSTS[0].text, authorHandle: 'alice' })
    expect(r.rerank).toBe('off')
  })

  it('finds a paraphrase by meaning alone and says so', async () => {
    const r = await ask('kitten napping on a computer')
    expect(ids(r)[0]).toBe('102')
    expect(r.results[0].reason).toBe('Similar in meaning to your search')
    const pasta = await ask('pasta recipe')
    expect(ids(pasta)[0]).toBe('103')
  })

  it('reads a misspelt word that finds nothing as the closest indexed word, and offers the word as typed', async () => {
    const r = await ask('kuberntes operators')
    expect(ids(r)[0]).toBe('106')
    expect(r.understood.corrections).toEqual([{ from: 'kuberntes', to: 'kubernetes' }])
    expect(r.results[0].reason).toMatch(/“Kubernetes” \(for “kuberntes”\)/)
    const chip = r.understood.chips.find((x) => x.kind === 'correction')!
    expect(chip.label).toBe('showing results for "kubernetes" (you typed "kuberntes")')
    expect(chip.queryWithout).toBe('"kuberntes" operators')
    const asTyped = await ask(chip.queryWithout)
    expect(asTyped.understood.corrections).toEqual([])
    expect(asTyped.results).toEqual([])
  })

  it('never rewrites a real word, even one no post contains', async () => {
    // "funny" once became "function", "spies" became "sai": dictionary words are searched as typed.
    for (const q of ['funny posts', 'spies in Berlin', 'function']) {
      const r = await ask(q)
      expect(r.understood.corrections, q).toEqual([])
      expect(r.understood.chips.filter((x) => x.kind === 'correction'), q).toEqual([])
      for (const x of r.results) expect(x.reason, q).not.toMatch(/ for “/)
    }
  })

  it('lists results in the order of the relevance it shows', async () => {
    let longest = 0
    for (const q of ['sqlite indexes', 'databases explained', 'cat on a laptop', 'cooking spaghetti sauce', 'newsletter links', 'weekly links about databases']) {
      const rel = (await ask(q)).results.map((x) => x.relevance)
      longest = Math.max(longest, rel.length)
      expect(rel, q).toEqual([...rel].sort((a, b) => b - a))
    }
    expect(longest).toBeGreaterThan(3)
  })

  it('applies from:, "by @", in:, has:, dates, quoted phrases and minus words, and echoes them as chips', async () => {
    const from = await ask('from:@alice')
    expect(ids(from).sort()).toEqual(['101', '105'])
    expect(from.understood.author).toBe('alice')
    expect(from.understood.chips[0]).toMatchObject({ kind: 'author', label: 'by @alice', queryWithout: '' })
    expect(ids(await ask('diagrams by @alice'))).toEqual(['105'])

    const cat = await ask('in:dev-tools')
    expect(ids(cat).sort()).toEqual(['101', '105'])
    expect(cat.understood.category).toEqual({ slug: 'dev-tools', name: 'Dev Tools' })
    expect(ids(await ask('in:"Dev Tools" rust'))).toEqual(['105'])
    const unknown = await ask('in:gardening tomatoes')
    expect(unknown.understood.category).toBeNull()
    expect(unknown.understood.notes[0]).toMatch(/no category called "gardening"/)

    expect(ids(await ask('has:image')).sort()).toEqual(['102', '105'])
    expect(ids(await ask('has:video'))).toEqual(['106'])
    expect(ids(await ask('has:link'))).toEqual(['101'])

    const y2023 = await ask('2023')
    expect(ids(y2023)).toEqual(['102'])
    expect(y2023.understood).toMatchObject({ after: '2023-01-01T00:00:00.000Z', before: '2024-01-01T00:00:00.000Z' })
    expect(ids(await ask('in March 2024')).sort()).toEqual(['101', '105'])
    const lastMonth = await ask('cooking last month')
    expect(ids(lastMonth)).toEqual(['103'])
    expect(lastMonth.understood.chips).toEqual([{ kind: 'date', label: 'last month', queryWithout: 'cooking' }])
    expect(ids(await ask('databases this month'))).toEqual(['108'])
    expect(ids(await ask('before:2022-06 databases'))).toEqual(['104'])

    const phrase = await ask('"borrow checker"')
    expect(ids(phrase)).toEqual(['105'])
    expect(phrase.results[0].reason).toMatch(/exact phrase “borrow checker”/)
    expect(ids(await ask('"checker borrow"'))).toEqual([])

    const minus = await ask('databases -bitcoin -postgres')
    expect(ids(minus)).toEqual(['101'])
    expect(minus.understood.excluded).toEqual(['bitcoin', 'postgres'])
    expect(minus.results[0].reason).toMatch(/without "bitcoin"/)
  })

  it('keeps the index current after import, edit and delete', async () => {
    expect(ids(await ask('quokka'))).toEqual([])
    await importPosts(c.admin, [{ postId: '201', handle: 'zoo', at: '2024-10-01T00:00:00Z', text: 'A smiling quokka on Rottnest island' }])
    const found = await ask('quokka')
    expect(ids(found)).toEqual(['201'])
    const id = found.results[0].bookmark.id

    expect(ids(await ask('in:cooking quokka'))).toEqual([])
    expect((await c.member.post(`/api/bookmarks/${id}/categories`, { slug: 'cooking' })).status).toBe(200)
    const edited = await ask('in:cooking quokka')
    expect(ids(edited)).toEqual(['201'])
    expect(edited.results[0].bookmark.categories.map((x) => x.slug)).toEqual(['cooking'])

    expect((await c.member.delete(`/api/bookmarks/${id}`)).status).toBe(204)
    expect(ids(await ask('quokka'))).toEqual([])
    expect(ids(await ask('marsupial smiling on an island'))).not.toContain('201')
  })
})

describe('GET /api/search/quick', () => {
  let t: TestServer
  let c: Record<'admin' | 'member' | 'viewer', Client>
  beforeAll(async () => {
    t = await startTestServer()
    c = await clientsByRole(t)
    await importPosts(c.admin, POSTS)
  })
  afterAll(async () => t?.close())

  it('matches as you type for every reader, titles only', async () => {
    const res = await c.viewer.get('/api/search/quick?q=kube')
    expect(res.status).toBe(200)
    const body = zQuickSearchResponse.parse(res.body)
    expect(body.results).toEqual([{ id: expect.any(Number), title: POSTS[5].text, authorHandle: 'ops', authorName: 'ops' }])
    const two = zQuickSearchResponse.parse((await c.member.get('/api/search/quick?q=alice%20rus')).body)
    expect(two.results.map((r) => r.title)).toEqual(['The Rust borrow checker explained with diagrams'])
    expect((await c.viewer.get('/api/search/quick?q=')).status).toBe(400)
  })
})

describe('reranking with a model', () => {
  const start = async (reranker: Reranker) => {
    const t = await startTestServer({ reranker })
    const c = await clientsByRole(t)
    await importPosts(c.admin, POSTS)
    return { t, c }
  }

  it('reorders by the model, keeps only candidate ids and uses its reasons', async () => {
    let seen: number[] = []
    const { t, c } = await start({
      name: 'fake',
      async rerank(_q, candidates) {
        seen = candidates.map((x) => x.id)
        const reversed = [...candidates].reverse()
        return [{ id: 999_999, reason: 'not a candidate' }, ...reversed.map((x) => ({ id: x.id, reason: `model says ${x.authorHandle}`, score: 0.5 }))]
      },
    })
    try {
      const r = zSearchResponse.parse((await c.member.get('/api/search/ai?q=databases')).body)
      expect(r.rerank).toBe('applied')
      expect(seen.length).toBeGreaterThan(1)
      expect(r.results.map((x) => x.bookmark.id)).toEqual([...seen].reverse().slice(0, r.results.length))
      expect(r.results[0].reason).toMatch(/^Model: model says \w+ · /)
      // 0.7 x the model's 0.5 + 0.3 x the offline relevance (docs/api/search.md).
      expect(r.results.every((x) => x.relevance <= 0.65)).toBe(true)
      // The model's order stands, and no result shows more relevance than the one above it.
      const rel = r.results.map((x) => x.relevance)
      expect(rel).toEqual([...rel].sort((a, b) => b - a))
    } finally {
      await t.close()
    }
  })

  it('keeps the fused order and says so when the model fails', async () => {
    const { t, c } = await start({ name: 'broken', rerank: async () => { throw new Error('503 from provider') } })
    try {
      const r = zSearchResponse.parse((await c.member.get('/api/search/ai?q=databases')).body)
      expect(r.rerank).toBe('failed')
      expect(r.results.length).toBeGreaterThan(1)
      expect(r.results[0].reason).toMatch(/“databases”/i)
      expect(r.understood.notes.join(' ')).toMatch(/could not rerank/)
    } finally {
      await t.close()
    }
  })
})
