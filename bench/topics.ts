/**
 * Zero-shot categorisation as a household meets it: the 19 TweetTopic topics, described in our own
 * words (bench/topic-set.ts), replace the default categories; the 200 labelled posts of
 * ../shared/fixtures/labelled/tweet_topic_xl_dev200.jsonl are imported over HTTP; the default
 * pipeline runs (no AI configured); macro-F1 is scored over the categories each post ends with.
 * Also prints how well confidence is calibrated (precision per confidence band, expected calibration
 * error). The file is for measuring only: nothing is fitted on it.
 *   node bench/topics.ts
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp, createLogger, listen, resolveConfig } from '../src-main/app/index.ts'
import { createMemoryStore } from '../src-main/secrets/index.ts'
import { TOPIC_CATEGORIES } from './topic-set.ts'

const file = join(import.meta.dirname, '..', '..', 'shared', 'fixtures', 'labelled', 'tweet_topic_xl_dev200.jsonl')

type Row = { id: number | string; text: string; topics: string[] }
type Item = { id: number; postId: string; categories: Array<{ name: string; confidence?: number }> }

export async function measureTopics(path = file) {
  const rows = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Row)
  const dir = mkdtempSync(join(tmpdir(), 'sheaf-bench-topics-'))
  const config = resolveConfig({ dataDir: join(dir, 'data'), host: '127.0.0.1', port: 0 }, { SHEAF_RATE_LIMIT_API: '1000000/1m' })
  const sheaf = await createApp(config, { secrets: createMemoryStore(), log: createLogger({ level: 'warn' }), bcryptCost: 4 })
  const server = await listen(sheaf, '127.0.0.1', 0)
  try {
    await sheaf.auth.users.create({ email: 'bench@example.com', name: 'Bench', role: 'admin', password: 'correct horse battery' })
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.com', password: 'correct horse battery' }),
    })
    const cookie = login.headers.get('set-cookie')!.split(';')[0]
    const api = async <T>(p: string, init: RequestInit = {}): Promise<T> => {
      const r = await fetch(`${server.url}${p}`, { ...init, headers: { cookie, 'x-sheaf-request': '1', ...(init.body && typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}), ...init.headers } })
      if (!r.ok) throw new Error(`${init.method ?? 'GET'} ${p}: ${r.status} ${await r.text()}`)
      const body = await r.text()
      return (body ? JSON.parse(body) : null) as T
    }
    await api('/api/settings', { method: 'PUT', body: JSON.stringify({ fetchMedia: false, autoRunAfterImport: false }) })
    // The household's own categories replace the defaults.
    const { categories: defaults } = await api<{ categories: Array<{ id: number }> }>('/api/categories')
    for (const c of defaults) await api(`/api/categories/${c.id}`, { method: 'DELETE' })
    for (const c of TOPIC_CATEGORIES) await api('/api/categories', { method: 'POST', body: JSON.stringify({ name: c.topic, description: c.description }) })

    // A plain v1.1 array: the posts as an export would carry them.
    const exportJson = JSON.stringify(rows.map((r, i) => ({
      id_str: String(r.id), full_text: r.text, created_at: new Date(Date.UTC(2022, 5, 1) + i * 60_000).toUTCString(),
      user: { screen_name: `user${i}`, name: `User ${i}` }, entities: { urls: [], hashtags: [], user_mentions: [] }, lang: 'en',
    })))
    const form = new FormData()
    form.append('file', new Blob([exportJson], { type: 'application/json' }), 'topics.json')
    const imported = await api<{ imported: number }>('/api/import', { method: 'POST', body: form })

    const t0 = performance.now()
    await api('/api/categorize', { method: 'POST', body: '{}' })
    await sheaf.pipeline.idle()
    const seconds = (performance.now() - t0) / 1000

    const items: Item[] = []
    for (let page = 1; ; page++) {
      const r = await api<{ bookmarks: Item[] }>(`/api/bookmarks?limit=100&page=${page}`)
      items.push(...r.bookmarks)
      if (r.bookmarks.length < 100) break
    }
    const confidence = new Map(items.map((it) => [it.id, new Map(it.categories.map((c) => [c.name, c.confidence ?? 1]))]))
    return { imported: imported.imported, pipelineSeconds: Math.round(seconds * 10) / 10, ...score(rows, items, confidence) }
  } finally {
    await server.close()
    await sheaf.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

function score(rows: Row[], items: Item[], confidence: Map<number, Map<string, number>>) {
  const byPost = new Map(items.map((i) => [i.postId, i]))
  const topics = TOPIC_CATEGORIES.map((c) => c.topic as string)
  const tp = new Map(topics.map((t) => [t, 0]))
  const fp = new Map(tp)
  const fn = new Map(tp)
  let labels = 0
  let empty = 0
  const bands = [0, 0.2, 0.4, 0.6, 0.8, 1.01].slice(0, -1).map((lo, i, a) => ({ lo, hi: a[i + 1] ?? 1.01, n: 0, right: 0, sum: 0 }))
  for (const r of rows) {
    const it = byPost.get(String(r.id))
    const got = new Set(it?.categories.map((c) => c.name) ?? [])
    labels += got.size
    if (got.size === 0) empty++
    const want = new Set(r.topics)
    for (const t of topics) {
      if (got.has(t) && want.has(t)) tp.set(t, tp.get(t)! + 1)
      else if (got.has(t)) fp.set(t, fp.get(t)! + 1)
      else if (want.has(t)) fn.set(t, fn.get(t)! + 1)
    }
    for (const [name, c] of confidence.get(it?.id ?? -1) ?? []) {
      const b = bands.find((x) => c >= x.lo && c < x.hi) ?? bands.at(-1)!
      b.n++
      b.sum += c
      if (want.has(name)) b.right++
    }
  }
  const f1 = Object.fromEntries(topics.map((t) => {
    const d = 2 * tp.get(t)! + fp.get(t)! + fn.get(t)!
    return [t, d ? Math.round(((2 * tp.get(t)!) / d) * 1000) / 1000 : 0]
  }))
  const macroF1 = Object.values(f1).reduce((a, b) => a + b, 0) / topics.length
  const assigned = bands.reduce((a, b) => a + b.n, 0)
  const ece = bands.reduce((a, b) => a + (b.n ? (b.n / assigned) * Math.abs(b.right / b.n - b.sum / b.n) : 0), 0)
  return {
    posts: rows.length, macroF1: Math.round(macroF1 * 1000) / 1000, categoriesPerPost: Math.round((labels / rows.length) * 100) / 100,
    labelsPerPost: Math.round((rows.reduce((a, r) => a + r.topics.length, 0) / rows.length) * 100) / 100, postsWithoutCategory: empty, f1,
    calibration: {
      expectedCalibrationError: Math.round(ece * 1000) / 1000,
      bands: bands.map((b) => ({ confidence: `${b.lo.toFixed(1)}-${Math.min(1, b.hi).toFixed(1)}`, assignments: b.n, precision: b.n ? Math.round((b.right / b.n) * 1000) / 1000 : null })),
    },
  }
}

if (import.meta.main) {
  if (!existsSync(file)) console.log(JSON.stringify({ skipped: `fixtures absent: ${file}` }))
  else console.log(JSON.stringify({ bench: 'topics', ...(await measureTopics()) }, null, 2))
}
