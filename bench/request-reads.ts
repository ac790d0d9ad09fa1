/**
 * What each small read a search request makes of the store costs on the HTTP thread, in µs of this
 * thread's CPU: the settings a request reads (the signing key's version, the AI settings), the check a
 * cache of them would need instead (PRAGMA data_version: commits by other connections, which is how
 * `sheaf secret rotate` in another process is seen), the user behind the session, and the stamps.
 * A cache is worth having only if its check costs less than the read it saves.
 * The reads are repeated in a loop with no turn of the event loop, so store/remembered.ts's data_version
 * is read once for the loop; the last line begins each round as a request does (noticeCommits), so it
 * pays that read each time, as the server does.
 * Usage: node bench/request-reads.ts --db COPY [--runs 200000] [--root TREE]   (opened in place: use a copy)
 */
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { db: { type: 'string' }, runs: { type: 'string', default: '200000' }, root: { type: 'string', default: '.' } } })
if (!values.db) throw new Error('--db COPY (a library, opened in place: use a copy)')
const root = resolve(values.root)
const { stmt } = await import(`${root}/src-main/store/connection.ts`)
const store = await import(`${root}/src-main/store/index.ts`)
const { closeDatabase, dataStamp, findUserById, getSetting, libraryStamp, openDatabase, readAiSettings, searchEmbeddingVersion, searchIndexStamp } = store
// A tree without store/remembered.ts reads everything every time; with it, a request begins by noticing other connections' commits.
const noticeCommits: (db: unknown) => void = store.noticeCommits ?? (() => {})
const runs = Number(values.runs)
const db = openDatabase({ file: values.db })
const cpuUs = () => {
  const u = process.threadCpuUsage()
  return u.user + u.system
}
/** What one search request reads of these (stop 32's served profile): the session's two, the search's nine. */
const searchRequest = () => {
  noticeCommits(db)
  getSetting(db, 'auth.jwtKeyVersion')
  findUserById(db, 1)
  readAiSettings(db)
  readAiSettings(db)
  for (let i = 0; i < 3; i++) searchEmbeddingVersion(db)
  libraryStamp(db)
  libraryStamp(db)
  searchIndexStamp(db)
}
const reads: Array<[string, () => unknown]> = [
  ['getSetting(auth.jwtKeyVersion)', () => getSetting(db, 'auth.jwtKeyVersion')],
  ['readAiSettings', () => readAiSettings(db)],
  ['PRAGMA data_version (a cache\'s check)', () => stmt(db, 'PRAGMA data_version').pluck().get()],
  ['dataStamp (total_changes + data_version)', () => dataStamp(db)],
  ['findUserById', () => findUserById(db, 1)],
  ['libraryStamp', () => libraryStamp(db)],
  ['searchIndexStamp', () => searchIndexStamp(db)],
  ['searchEmbeddingVersion', () => searchEmbeddingVersion(db)],
  ['a search request\'s eleven reads, the request noticed', searchRequest],
]
const before = loadavg()[0]
const out: Record<string, number> = {}
for (const [name, read] of reads) {
  for (let i = 0; i < runs / 10; i++) read()
  const c = cpuUs()
  for (let i = 0; i < runs; i++) read()
  out[name] = Math.round(((cpuUs() - c) / runs) * 1000) / 1000
}
process.stdout.write(JSON.stringify({ bench: 'request-reads', runs, cpuUsPerRead: out, loadAverage: { before, after: loadavg()[0] } }, null, 2) + '\n')
closeDatabase(db)
