/**
 * Importer throughput: writes a ~100k-post GraphQL Bookmarks export (deterministic), then parses it
 * in a fresh process and prints {posts, bytes, parseMs, postsPerSec, peakRssMb} as JSON.
 * Usage: node bench/import-parse.ts [--posts 100000] [--file /tmp/sheaf-bench-100k.json]
 */
import { spawnSync } from 'node:child_process'
import { createReadStream, existsSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { iteratePosts, writeGraphqlBookmarks } from './generate-library.ts'

const { values } = parseArgs({ options: { posts: { type: 'string', default: '100000' }, file: { type: 'string' }, measure: { type: 'boolean', default: false } } })
const n = Number(values.posts)
const file = values.file ?? join(tmpdir(), `sheaf-bench-graphql-${n}.json`)

if (values.measure) {
  const { parseExport } = await import('../src-main/importers/index.ts')
  const t0 = performance.now()
  const parsed = await parseExport(createReadStream(file, { highWaterMark: 1 << 16 }))
  const counts = { post: 0, error: 0, skipped: 0 }
  for await (const it of parsed.items) counts[it.kind]++
  const parseMs = performance.now() - t0
  process.stdout.write(JSON.stringify({ format: parsed.format, ...counts, parseMs: Math.round(parseMs), peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }))
} else {
  let generated: { posts: number; bytes: number } | null = null
  let generateMs = 0
  if (!existsSync(file)) {
    const t0 = performance.now()
    generated = await writeGraphqlBookmarks(file, iteratePosts(n, 42))
    generateMs = Math.round(performance.now() - t0)
  }
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--measure', '--file', file], { encoding: 'utf8', maxBuffer: 1 << 20 })
  if (child.status !== 0) { process.stderr.write(child.stderr); process.exit(1) }
  const m = JSON.parse(child.stdout) as { post: number; parseMs: number }
  const bytes = statSync(file).size
  console.log(JSON.stringify({
    bench: 'import-parse', file, bytes, mb: +(bytes / 1e6).toFixed(1), generateMs: generated ? generateMs : null, ...m,
    postsPerSec: Math.round(m.post / (m.parseMs / 1000)), mbPerSec: +((bytes / 1e6) / (m.parseMs / 1000)).toFixed(1),
  }))
}
