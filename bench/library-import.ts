/**
 * Library import in-process (no HTTP): the importer and store alone, for profiling with --cpu-prof.
 * Prints {posts, importMs, imported, peakRssMb} as JSON.
 * Usage: node bench/library-import.ts [--posts 100000] [--keep DIR] [--no-lang]  (--keep leaves the database in DIR;
 * --no-lang writes the export without X's language codes, so every post is detected)
 */
import { createReadStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createLibrary } from '../src-main/library/index.ts'
import { closeDatabase, openDatabase } from '../src-main/store/index.ts'
import { iteratePosts, writeGraphqlBookmarks } from './generate-library.ts'

const { values } = parseArgs({ options: { posts: { type: 'string', default: '100000' }, keep: { type: 'string' }, 'no-lang': { type: 'boolean', default: false } } })
const n = Number(values.posts)
// --no-lang: the export carries no language codes, so every post goes through the language detector
const noLang = values['no-lang']
const file = join(tmpdir(), `sheaf-bench-graphql-${n}${noLang ? '-nolang' : ''}.json`)
if (!existsSync(file)) await writeGraphqlBookmarks(file, noLang ? (function* () { for (const p of iteratePosts(n, 42)) yield { ...p, lang: null } })() : iteratePosts(n, 42))
const dir = values.keep ?? mkdtempSync(join(tmpdir(), 'sheaf-bench-import-'))
if (values.keep) mkdirSync(dir, { recursive: true })
const db = openDatabase({ file: join(dir, 'sheaf.db') })
const lib = createLibrary({ db, clock: Date.now, onImported: () => {} })
const t0 = performance.now()
const cpu0 = process.cpuUsage()
const r = await lib.importStream({ input: createReadStream(file, { highWaterMark: 1 << 20 }), fileName: 'x.json', userId: null })
const importMs = Math.round(performance.now() - t0)
const cpu = process.cpuUsage(cpu0)
/** CPU of every thread (parse worker included): steadier than wall time on a shared machine. */
const cpuMs = Math.round((cpu.user + cpu.system) / 1000)
closeDatabase(db)
if (!values.keep) rmSync(dir, { recursive: true, force: true })
process.stdout.write(JSON.stringify({ bench: 'library-import', posts: n, withLang: !noLang, importMs, cpuMs, imported: r.imported, errors: r.errors, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }) + '\n')
