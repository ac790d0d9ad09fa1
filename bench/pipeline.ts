/**
 * The local pipeline at scale: N generated posts (default 100,000) imported into a real server, then
 * one job with no AI configured and media fetching off (OCR excluded). Prints JSON: posts/s per stage,
 * peak RSS, and GET /api/bookmarks latency (p50/p95) measured over HTTP while the job runs.
 *   node bench/pipeline.ts [N=100000]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PipelineEvent } from '../src-shared/schemas/pipeline.ts'
import { createApp, createLogger, listen, resolveConfig } from '../src-main/app/index.ts'
import { createMemoryStore } from '../src-main/secrets/index.ts'
import { generatePosts, writeGraphqlBookmarks } from './generate-library.ts'

const N = Number(process.argv[2] ?? 100_000)
const dir = mkdtempSync(join(tmpdir(), 'sheaf-bench-pipeline-'))
let peakRss = 0
let phase = 'import'
const peakByPhase: Record<string, number> = {}
const sampler = setInterval(() => {
  const rss = process.memoryUsage().rss
  peakRss = Math.max(peakRss, rss)
  peakByPhase[phase] = Math.max(peakByPhase[phase] ?? 0, Math.round(rss / 1048576))
}, 100)
try {
  const file = join(dir, 'export.json')
  await writeGraphqlBookmarks(file, generatePosts(N))
  const config = resolveConfig({ dataDir: join(dir, 'data'), host: '127.0.0.1', port: 0 }, { SHEAF_RATE_LIMIT_API: '1000000/1m' })
  const sheaf = await createApp(config, { secrets: createMemoryStore(), log: createLogger({ level: 'warn' }), bcryptCost: 4 })
  const server = await listen(sheaf, '127.0.0.1', 0)
  await sheaf.auth.users.create({ email: 'bench@example.com', name: 'Bench', role: 'admin', password: 'correct horse battery' })
  const login = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.com', password: 'correct horse battery' }) })
  const cookie = login.headers.get('set-cookie')!.split(';')[0]
  const api = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, { ...init, headers: { cookie, 'content-type': 'application/json', ...init.headers } })
  await api('/api/settings', { method: 'PUT', body: JSON.stringify({ fetchMedia: false, autoRunAfterImport: false }) })
  const t0 = performance.now()
  const imported = await sheaf.library.importFile(file)
  const importMs = performance.now() - t0

  const stageStart = new Map<string, number>()
  const stageEnd = new Map<string, number>()
  const totals = new Map<string, number>()
  let last: PipelineEvent | null = null
  const jobStart = performance.now()
  await api('/api/categorize', { method: 'POST', body: '{}' })
  const w = sheaf.pipeline.watch((ev) => {
    const now = performance.now()
    last = ev
    phase = ev.stage
    if (!stageStart.has(ev.stage)) stageStart.set(ev.stage, now)
    stageEnd.set(ev.stage, now)
    if ('total' in ev) totals.set(ev.stage, ev.total)
  })
  const latencies: number[] = []
  let running = true
  const done = sheaf.pipeline.idle().then(() => { running = false })
  while (running) {
    const s = performance.now()
    const r = await api(`/api/bookmarks?limit=20&page=${1 + Math.floor(Math.random() * 50)}`)
    await r.arrayBuffer()
    latencies.push(performance.now() - s)
    await new Promise((r) => setTimeout(r, 20))
  }
  await done
  w.stop()
  const jobMs = performance.now() - jobStart
  latencies.sort((a, b) => a - b)
  const pct = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] * 10) / 10
  const stages = ['entity_extraction', 'vision_analysis', 'semantic_tagging', 'categorization'].map((s, i, all) => {
    const begin = stageStart.get(s) ?? jobStart
    const end = stageStart.get(all[i + 1] ?? 'complete') ?? stageEnd.get(s) ?? begin
    const seconds = (end - begin) / 1000
    return { stage: s, seconds: Math.round(seconds * 10) / 10, postsPerSecond: seconds > 0 ? Math.round((totals.get(s) ?? N) / seconds) : null }
  })
  console.log(JSON.stringify({
    bench: 'pipeline', posts: N, imported: imported.imported, importSeconds: Math.round(importMs / 100) / 10,
    jobSeconds: Math.round(jobMs / 100) / 10, stages, complete: last,
    peakRssMb: Math.round(peakRss / 1048576), peakRssMbByPhase: peakByPhase,
    apiListWhileRunning: { requests: latencies.length, p50Ms: pct(0.5), p95Ms: pct(0.95), maxMs: Math.round(latencies.at(-1)! * 10) / 10 },
  }, null, 2))
  await server.close()
  await sheaf.close()
} finally {
  clearInterval(sampler)
  rmSync(dir, { recursive: true, force: true })
}
