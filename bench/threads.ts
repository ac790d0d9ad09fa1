/**
 * Thread assembly's share of an import (issue 16: "adds < 10 % to import time at 100,000 posts").
 * The generated library, with a share of its posts made into replies: most continue their author's
 * previous post (threads), some answer another author (not threads). Each round imports, in-process
 * into a fresh library, (a) that file and (b) the same posts with no replies at all (no reply index
 * entries, nothing to assemble), alternating; then times one full assembly of the threaded library
 * from scratch (every thread place cleared first, so all are written again, as on a first import).
 * Prints JSON; the load average goes with it, as the machine is shared.
 * Usage: node bench/threads.ts [--posts 100000] [--rounds 3] [--self 0.15] [--others 0.05]
 */
import { createReadStream, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import type { NormalizedPost } from '../src-shared/schemas/posts.ts'
import { createLibrary } from '../src-main/library/index.ts'
import { closeDatabase, openDatabase, type Db } from '../src-main/store/index.ts'
import { transaction } from '../src-main/store/db.ts'
import { assembleThreads } from '../src-main/threads/index.ts'
import { iteratePosts, writeGraphqlBookmarks } from './generate-library.ts'
import { sqliteOf } from '../src-main/store/db.ts'

const { values } = parseArgs({ options: {
  posts: { type: 'string', default: '100000' }, rounds: { type: 'string', default: '3' },
  self: { type: 'string', default: '0.15' }, others: { type: 'string', default: '0.05' },
} })
const n = Number(values.posts)
const rounds = Number(values.rounds)
const selfShare = Number(values.self)
const otherShare = Number(values.others)

/** Deterministic: post i continues its author's previous post when (i * 7919) mod 1000 falls in the self share. */
function* withReplies(posts: Iterable<NormalizedPost>): Generator<NormalizedPost> {
  const last = new Map<string, { postId: string; at: number }>()
  let previous: NormalizedPost | null = null
  let i = 0
  for (const p of posts) {
    const r = ((i++ * 7919) % 1000) / 1000
    const mine = last.get(p.authorHandle)
    let out = p
    if (r < selfShare && mine) {
      out = { ...p, inReplyToPostId: mine.postId, postCreatedAt: new Date(mine.at + 60_000).toISOString() }
    } else if (r < selfShare + otherShare && previous && previous.authorHandle !== p.authorHandle) {
      out = { ...p, inReplyToPostId: previous.postId }
    }
    last.set(out.authorHandle, { postId: out.postId, at: Date.parse(out.postCreatedAt) })
    previous = out
    yield out
  }
}

const threaded = join(tmpdir(), `sheaf-bench-threads-${n}-${selfShare}-${otherShare}.json`)
const plain = join(tmpdir(), `sheaf-bench-threads-${n}-plain.json`)
if (!existsSync(threaded)) await writeGraphqlBookmarks(threaded, withReplies(iteratePosts(n, 42)))
if (!existsSync(plain)) await writeGraphqlBookmarks(plain, (function* () { for (const p of withReplies(iteratePosts(n, 42))) yield { ...p, inReplyToPostId: null } })())

async function importInto(file: string): Promise<{ ms: number; cpuMs: number; db: Db; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'sheaf-bench-threads-db-'))
  const db = openDatabase({ file: join(dir, 'sheaf.db') })
  const lib = createLibrary({ db, clock: Date.now, onImported: () => {}, languageUpgrade: false })
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  await lib.importStream({ input: createReadStream(file, { highWaterMark: 1 << 20 }), fileName: 'x.json', userId: null })
  const ms = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  lib.close()
  // CPU of every thread (the parse worker too): steadier than wall time on a shared machine
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, db, dir }
}

const done = ({ db, dir }: { db: Db; dir: string }) => {
  closeDatabase(db)
  rmSync(dir, { recursive: true, force: true })
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const withThreads: number[] = [], without: number[] = [], assembly: number[] = []
const cpuWith: number[] = [], cpuWithout: number[] = []
let shape = { threads: 0, parts: 0 }
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [threaded, plain] : [plain, threaded]
  for (const file of order) {
    const run = await importInto(file)
    if (file === plain) {
      without.push(run.ms)
      cpuWithout.push(run.cpuMs)
    } else {
      withThreads.push(run.ms)
      cpuWith.push(run.cpuMs)
      sqliteOf(run.db).prepare('DELETE FROM thread_parts').run()
      const t0 = performance.now()
      const res = transaction(run.db, () => assembleThreads(run.db))
      assembly.push(performance.now() - t0)
      shape = { threads: res.threads, parts: res.parts }
    }
    done(run)
  }
}
const importMs = median(withThreads)
const assemblyMs = median(assembly)
process.stdout.write(JSON.stringify({
  bench: 'threads', posts: n, rounds, ...shape,
  importMs: Math.round(importMs), importWithoutRepliesMs: Math.round(median(without)),
  assemblyMs: Math.round(assemblyMs), assemblyShareOfImport: +(assemblyMs / (importMs - assemblyMs)).toFixed(4),
  importDifference: +((importMs - median(without)) / median(without)).toFixed(4),
  importCpuMs: Math.round(median(cpuWith)), importWithoutRepliesCpuMs: Math.round(median(cpuWithout)),
  importCpuDifference: +((median(cpuWith) - median(cpuWithout)) / median(cpuWithout)).toFixed(4),
  allImportMs: withThreads.map(Math.round), allWithoutMs: without.map(Math.round), allAssemblyMs: assembly.map(Math.round),
  allImportCpuMs: cpuWith.map(Math.round), allWithoutCpuMs: cpuWithout.map(Math.round),
  loadAverage: loadavg().map((l) => +l.toFixed(2)),
}) + '\n')
