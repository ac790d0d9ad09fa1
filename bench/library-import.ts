/**
 * Library import in-process (no HTTP): the importer and store alone, for profiling with --cpu-prof.
 * Prints {posts, importMs, imported, peakRssMb} as JSON.
 * Usage: node bench/library-import.ts [--posts 100000] [--keep DIR]  (--keep leaves the database in DIR)
 */
import { createReadStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createLibrary } from '../src-main/library/index.ts'
import { closeDatabase, openDatabase } from '../src-main/store/index.ts'
import { iteratePosts, writeGraphqlBookmarks } from './generate-library.ts'

const { values } = parseArgs({ options: { posts: { type: 'string', default: '100000' }, keep: { type: 'string' } } })
const n = Number(values.posts)
const file = join(tmpdir(), `sheaf-bench-graphql-${n}.json`)
if (!existsSync(file)) await writeGraphqlBookmarks(file, iteratePosts(n, 42))
const dir = values.keep ?? mkdtempSync(join(tmpdir(), 'sheaf-bench-import-'))
if (values.keep) mkdirSync(dir, { recursive: true })
const db = openDatabase({ file: join(dir, 'sheaf.db') })
const lib = createLibrary({ db, clock: Date.now, onImported: () => {} })
const t0 = performance.now()
const r = await lib.importStream({ input: createReadStream(file, { highWaterMark: 1 << 20 }), fileName: 'x.json', userId: null })
const importMs = Math.round(performance.now() - t0)
closeDatabase(db)
if (!values.keep) rmSync(dir, { recursive: true, force: true })
process.stdout.write(JSON.stringify({ bench: 'library-import', posts: n, importMs, imported: r.imported, errors: r.errors, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }) + '\n')
