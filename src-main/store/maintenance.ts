import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type Database from 'better-sqlite3'

/**
 * SQLite housekeeping after bulk writes on a thread of its own with its own connection: copying the
 * WAL into the database file takes up to most of a second after a large import, which on the
 * connection's own thread held up every request. A PASSIVE checkpoint never blocks writers (nor
 * waits for them). Best effort: a task that fails is dropped; the next commit checkpoints anyway.
 */
export type MaintenanceTask = 'checkpoint'

const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
let db = null
parentPort.on('message', (task) => {
  try {
    db ??= new Database(workerData.file, { fileMustExist: true })
    db.pragma('busy_timeout = 1000')
    if (task === 'checkpoint') db.pragma('wal_checkpoint(PASSIVE)')
    else if (task === 'close') { db.close(); db = null; process.exit(0) }
  } catch {
    // best effort
  }
})
`

const workers = new WeakMap<Database.Database, { worker: Worker; file: string }>()

/** Runs a housekeeping task for this database on its maintenance thread (started on first use). */
export function maintainInBackground(client: Database.Database, task: MaintenanceTask): void {
  const file = client.name
  if (!client.open || file === ':memory:' || !file) return
  let entry = workers.get(client)
  if (!entry) {
    const worker = new Worker(SCRIPT, { eval: true, workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3') } })
    worker.unref()
    worker.on('error', () => workers.delete(client))
    entry = { worker, file }
    workers.set(client, entry)
  }
  entry.worker.postMessage(task)
}

/** Stops the maintenance thread of a database being closed (it closes its connection first). */
export function stopMaintenance(client: Database.Database): void {
  const entry = workers.get(client)
  workers.delete(client)
  entry?.worker.postMessage('close')
}
