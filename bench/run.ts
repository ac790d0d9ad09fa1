/**
 * `npm run bench`: runs every bench in bench/ (each prints JSON) one after another, so they do not
 * compete for the CPU, and prints {"<name>": <its JSON>, …}. Helpers that are not benches are skipped.
 * Usage: node bench/run.ts [name …]   (e.g. `npm run bench -- library`)
 */
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const dir = dirname(fileURLToPath(import.meta.url))
const NOT_BENCHES = new Set(['run.ts', 'generate-library.ts', 'search-relevance-set.ts', 'topic-set.ts', 'child-server.ts', 'search-questions.ts', 'settled-server.ts', 'tag-pairs.ts', 'real-posts-judged.ts'])
const only = process.argv.slice(2)
const benches = readdirSync(dir).filter((f) => f.endsWith('.ts') && !NOT_BENCHES.has(f) && !f.startsWith('_'))
  .filter((f) => only.length === 0 || only.includes(f.replace(/\.ts$/, ''))).sort()

const results: Record<string, unknown> = {}
let failed = 0
for (const f of benches) {
  process.stderr.write(`bench ${f}…\n`)
  const r = spawnSync(process.execPath, [join(dir, f)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 })
  const out = r.stdout.trim()
  try {
    results[f.replace(/\.ts$/, '')] = JSON.parse(out.slice(out.indexOf('{')))
  } catch {
    failed++
    results[f.replace(/\.ts$/, '')] = { error: `exit ${r.status}`, output: out.slice(-2000) }
  }
}
process.stdout.write(JSON.stringify(results, null, 2) + '\n')
process.exitCode = failed ? 1 : 0
