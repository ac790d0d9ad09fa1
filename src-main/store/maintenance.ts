import { statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type Database from 'better-sqlite3'

/**
 * SQLite housekeeping after bulk writes on a thread of its own with its own connection: copying the
 * WAL into the database file takes up to most of a second after a large import, which on the
 * connection's own thread held up every request. A PASSIVE checkpoint never blocks writers (nor
 * waits for them). Best effort: a task that fails is dropped; the next commit checkpoints anyway.
 * `index-words` empties search_fts_queue in short transactions with the SQL it is given, pausing
 * between them so other writers are not kept waiting. `merge-words` merges the word index's b-trees
 * into one, `pages` at a time, with the same pauses, each step in a transaction with the SQL that keeps
 * the index's stamp where it was (search-index.ts MERGE_WORDS_SQL).
 */
export type MaintenanceTask = 'checkpoint' | { task: 'index-words'; sql: { pick: string; steps: readonly string[] } }
  | { task: 'merge-words'; sql: { before: string; merge: string; after: string }; pages: number }

/**
 * Posts per transaction of the word index's catch-up (a few ms of holding the write lock), and the
 * pause after each, in which the app's own writers (an import, the pipeline) take the lock.
 */
const INDEX_WORDS_BATCH = 64
const INDEX_WORDS_PAUSE_MS = 8

const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
let db = null
let work = Promise.resolve()
let closing = false
parentPort.on('message', (task) => {
  if (task === 'close') closing = true
  work = work.then(async () => {
    try {
      db ??= new Database(workerData.file, { fileMustExist: true })
      db.pragma('busy_timeout = 1000')
      if (task === 'checkpoint') db.pragma('wal_checkpoint(PASSIVE)')
      else if (task === 'close') { db.close(); db = null; process.exit(0) }
      else if (task.task === 'index-words') await indexWords(task.sql)
      else if (task.task === 'merge-words') await mergeWords(task.sql, task.pages)
    } catch {
      // best effort
    }
    if (task.task) parentPort.postMessage('index-words')
  })
})
async function indexWords(sql) {
  const pick = db.prepare(sql.pick).pluck()
  const steps = sql.steps.map((s) => db.prepare(s))
  const batch = db.transaction((list) => { for (const s of steps) s.run(list) })
  for (;;) {
    const ids = closing ? [] : pick.all(workerData.batch)
    if (ids.length === 0) return
    batch.immediate(JSON.stringify(ids))
    // A pause between batches, so the app's own writes (an import, the pipeline) get the lock.
    await new Promise((r) => setTimeout(r, workerData.pauseMs))
  }
}
// FTS5's 'merge' did no work when it changed fewer than 2 rows (its documented end test).
async function mergeWords(sql, pages) {
  const [before, merge, after] = [sql.before, sql.merge, sql.after].map((s) => db.prepare(s))
  const changes = db.prepare('SELECT total_changes()').pluck()
  const step = db.transaction(() => {
    before.run()
    const from = changes.get()
    merge.run(-pages)
    const changed = changes.get() - from
    after.run()
    return changed
  })
  while (!closing) {
    if (step.immediate() < 2) return
    await new Promise((r) => setTimeout(r, workerData.pauseMs))
  }
}
`

type Entry = { worker: Worker; file: string; indexed: Array<() => void> }
const workers = new WeakMap<Database.Database, Entry>()

/**
 * Runs a housekeeping task for this database on its maintenance thread (started on first use);
 * `onDone` is called when an index task has ended, whether it emptied the queue or failed. False
 * when the database has no such thread (in memory).
 */
export function maintainInBackground(client: Database.Database, task: MaintenanceTask, onDone?: () => void): boolean {
  const file = client.name
  if (!client.open || file === ':memory:' || !file) return false
  let entry = workers.get(client)
  if (!entry) {
    const worker = new Worker(SCRIPT, { eval: true, workerData: { file, batch: INDEX_WORDS_BATCH, pauseMs: INDEX_WORDS_PAUSE_MS, driver: createRequire(import.meta.url).resolve('better-sqlite3') } })
    worker.unref()
    const made: Entry = { worker, file, indexed: [] }
    const settle = () => made.indexed.splice(0).forEach((f) => f())
    worker.on('message', () => made.indexed.shift()?.())
    worker.on('error', () => (workers.delete(client), settle()))
    worker.on('exit', settle)
    entry = made
    workers.set(client, entry)
  }
  if (onDone) entry.indexed.push(onDone)
  entry.worker.postMessage(task)
  return true
}

const watching = new WeakMap<Database.Database, NodeJS.Timeout>()

/**
 * SQLite's automatic checkpoint runs inside whichever commit takes the WAL past 1,000 pages, on that
 * connection's thread: on the HTTP thread's connection a 100-post key-fill commit took 107 ms
 * (bench/load.ts, profiled). Here the connection's own is switched off, and while the WAL is being
 * written (its modification time moved) the maintenance thread checkpoints, at most once per `everyMs`.
 */
export function checkpointInBackground(client: Database.Database, everyMs = 1000): boolean {
  const file = client.name
  if (!client.open || file === ':memory:' || !file || watching.has(client)) return false
  client.pragma('wal_autocheckpoint = 0')
  let seen = 0
  const timer = setInterval(() => {
    let written = seen
    try {
      written = statSync(`${file}-wal`).mtimeMs
    } catch {
      // no WAL yet
    }
    if (written === seen || !client.open) return
    seen = written
    maintainInBackground(client, 'checkpoint')
  }, everyMs)
  timer.unref()
  watching.set(client, timer)
  return true
}

/** Stops the maintenance thread of a database being closed (it closes its connection first). */
export function stopMaintenance(client: Database.Database): void {
  clearInterval(watching.get(client))
  watching.delete(client)
  const entry = workers.get(client)
  workers.delete(client)
  entry?.worker.postMessage('close')
}
