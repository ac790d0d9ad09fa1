/**
 * The server's memory by kind of map while it serves a library: a `sheaf serve` child over a copy of
 * `--db` (by default the 100,000-post library), 4 clients asking `--searches` searches
 * (bench/search-questions.ts), then `--jobs` pipeline jobs one after another (each goes over the whole
 * library again: a minute or more at 100,000 posts; the next is started once it has ended or after
 * 60 s), with how long each POST that starts one took (the start holds the heap down: heap-growth.ts). Prints the server's RSS, VmHWM and smaps grouped as
 * bench/pipeline-server.ts groups them, after sign-in, after the searches, 5 s later and after the jobs.
 *   node bench/served-memory.ts [--db /work/libs/gen100k-merged.db] [--searches 3000] [--jobs 0]
 */
import { rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { benchDataDir, fillDuplicateKeys, keptAliveGet, processMemoryMb, signIn, smapsGroupsMb, spawnServer } from './child-server.ts'
import { MANY_QUESTIONS } from './search-questions.ts'

const { values } = parseArgs({ options: { db: { type: 'string', default: '/work/libs/gen100k-merged.db' }, searches: { type: 'string', default: '3000' }, jobs: { type: 'string', default: '0' } } })
const total = Number(values.searches)
const load0 = loadavg()[0]
const dataDir = await benchDataDir('served-memory', fillDuplicateKeys, values.db)
const server = spawnServer(dataDir)
process.on('exit', () => server.kill('SIGKILL'))
const { base, cookie } = await signIn(server)
const pid = server.pid!
const at = (what: string) => ({ what, rss: processMemoryMb(pid), hwm: processMemoryMb(pid, 'VmHWM'), ...smapsGroupsMb(pid) })
const rows = [at('signed in')]
let asked = 0
const client = async () => {
  const get = keptAliveGet(base, cookie)
  while (asked < total) await get(`/api/search/ai?q=${encodeURIComponent(MANY_QUESTIONS[asked++ % MANY_QUESTIONS.length])}&limit=10`)
}
await Promise.all([client(), client(), client(), client()])
rows.push(at(`after ${total} searches`))
await new Promise((r) => setTimeout(r, 5000))
rows.push(at('5 s later'))
const jobStartMs: number[] = []
for (let i = 0; i < Number(values.jobs); i++) {
  const t0 = performance.now()
  const r = await fetch(`${base}/api/categorize`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: '{}' })
  jobStartMs.push(Math.round((performance.now() - t0) * 10) / 10)
  await r.text()
  for (let s = 0; s < 600; s++) { // at most 60 s
    const j = (await (await fetch(`${base}/api/categorize`, { headers: { cookie } })).json()) as { job: { status: string } | null }
    if (!j.job || !['running', 'cancelling'].includes(j.job.status)) break
    await new Promise((r) => setTimeout(r, 100))
  }
  await new Promise((r) => setTimeout(r, 1000))
}
if (jobStartMs.length) rows.push(at(`after ${jobStartMs.length} jobs`))
server.kill('SIGTERM')
await new Promise((r) => server.once('exit', r))
rmSync(dataDir, { recursive: true, force: true })
process.stdout.write(JSON.stringify({ bench: 'served-memory', load: [load0, loadavg()[0]], jobStartMs, rows }, null, 2) + '\n')
