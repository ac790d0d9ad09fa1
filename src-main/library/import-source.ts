import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { startNicedWorker } from '../background/index.ts'
import type { ImportFormat } from '../../src-shared/schemas/posts.ts'
import { openSource, parseExport, type ExportInput, type SheafExtras } from '../importers/index.ts'
import {
  createPreparer, decodeBatch, fromWireError, PULL_BYTES, type FromWorker, type PreparedItem, type ToWorker,
} from './import-items.ts'
import { detectorWorker, type DetectorWorker } from './language-detector-worker.ts'

/** An export being read: its format, then its records in batches ready to write. */
export interface PreparedExport {
  format: ImportFormat
  /** Single use. A batch should be written before the next is asked for: the parser waits on that. */
  batches: AsyncIterable<PreparedItem[]>
  /** Available once `batches` is fully consumed (Sheaf format only; null otherwise). */
  extras(): SheafExtras | null
  /** Stops the parse worker, if any, and the input if it was not read to the end. */
  close(): void
}

export interface PrepareOptions {
  fileName: string
  batchSize: number
  /** Files at least this large are parsed on a worker thread, in parallel with the writes. */
  offThreadMinBytes: number
  /** Where a large zip archive is kept while it is read; removed with close(). */
  tempDir?: string
}

/** A zip's local-file signature: zips are always read on the worker, however small (a 3 MB zip can inflate to gigabytes). */
const isZip = (head: Uint8Array) => head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04

/** Bytes the worker keeps buffered or asked for: a few batches' worth of a GraphQL export. */
const READ_AHEAD_BYTES = 1 << 20
/** Batches the worker may send before the importer has written the first of them. */
const MAX_UNACKED = 2

/**
 * Reads an export with the importers' one parse path (parseExport), and prepares every record for
 * writing. A small file is parsed right here; a large one on a worker thread, so that parsing,
 * normalising and hashing (about half of a large import's work) overlap with the SQLite writes on
 * this thread. The worker is fed the bytes as it asks for them and is never more than MAX_UNACKED
 * batches ahead of the writes, so memory stays flat whatever the file's size.
 */
export async function prepareExport(input: ExportInput, opts: PrepareOptions): Promise<PreparedExport> {
  const src = await openSource(input, opts.offThreadMinBytes)
  return src.complete && !isZip(src.head) ? prepareHere(src.chunks(), opts) : prepareOffThread(src.chunks(), opts)
}

/**
 * Posts of a batch prepared on this thread that still need a language (no usable code in the export)
 * are detected on a language worker, started only if one is needed: the same detector, and so the
 * same answers, as the parse worker's, without loading it on the server's thread. Should the worker
 * fail, they stay unchecked and the background language check takes them.
 */
async function detectLanguages(batch: PreparedItem[], detector: () => DetectorWorker): Promise<void> {
  const need = batch.filter((it): it is Extract<PreparedItem, { kind: 'post' }> => it.kind === 'post' && it.values.langChecked === false)
  if (need.length === 0) return
  try {
    const langs = await detector().detect(need.map((it) => it.values.text))
    need.forEach((it, i) => {
      it.values.lang = langs[i] ?? null
      it.values.langChecked = true
    })
  } catch {
    // left unchecked: the background check retries them after the import
  }
}

async function prepareHere(input: AsyncIterable<Uint8Array>, opts: PrepareOptions): Promise<PreparedExport> {
  const parsed = await parseExport(input, { fileName: opts.fileName })
  const prepare = createPreparer({ detect: false })
  let worker: DetectorWorker | null = null
  const detector = () => (worker ??= detectorWorker())
  async function* batches(): AsyncGenerator<PreparedItem[]> {
    try {
      let batch: PreparedItem[] = []
      for await (const item of parsed.items) {
        const prepared = prepare(item)
        batch.push(prepared instanceof Promise ? await prepared : prepared)
        if (batch.length >= opts.batchSize) {
          await detectLanguages(batch, detector)
          yield batch
          batch = []
        }
      }
      if (batch.length > 0) {
        await detectLanguages(batch, detector)
        yield batch
      }
    } finally {
      worker?.close()
    }
  }
  return { format: parsed.format, batches: batches(), extras: () => parsed.extras?.() ?? null, close: () => worker?.close() }
}

type Inbox = Exclude<FromWorker, { type: 'pull' }> | { type: 'input-error'; error: unknown }

async function prepareOffThread(input: AsyncIterable<Uint8Array>, opts: PrepareOptions): Promise<PreparedExport> {
  // The worker's temporary files go in a folder of this import's own, removed on close even when
  // the worker is stopped mid-way (a terminated thread runs no finally).
  const tempDir = opts.tempDir ? mkdtempSync(join(opts.tempDir, 'upload-parse-')) : undefined
  const worker = startNicedWorker(new URL('./import-worker.ts', import.meta.url), {
    workerData: { fileName: opts.fileName, batchSize: opts.batchSize, readAheadBytes: READ_AHEAD_BYTES, maxUnacked: MAX_UNACKED, tempDir },
  })
  const post = (m: ToWorker, transfer?: ArrayBuffer[]) => worker.postMessage(m, transfer)
  const source = input[Symbol.asyncIterator]()
  let inputDone = false
  let closed = false

  const inbox: Inbox[] = []
  let waiting: (() => void) | null = null
  const deliver = (m: Inbox) => {
    inbox.push(m)
    const w = waiting
    waiting = null
    w?.()
  }
  const next = async (): Promise<Inbox> => {
    while (inbox.length === 0) await new Promise<void>((resolve) => { waiting = resolve })
    return inbox.shift()!
  }

  /** Answers one pull with the next PULL_BYTES of the input (copied into a buffer the worker then owns). */
  async function answerPull(): Promise<void> {
    if (inputDone || closed) return
    const parts: Uint8Array[] = []
    let size = 0
    try {
      while (size < PULL_BYTES) {
        const r = await source.next()
        if (r.done) { inputDone = true; break }
        parts.push(r.value)
        size += r.value.length
      }
    } catch (e) {
      inputDone = true
      deliver({ type: 'input-error', error: e })
      return
    }
    if (closed) return
    if (size > 0) {
      const chunk = new Uint8Array(size)
      let at = 0
      for (const p of parts) { chunk.set(p, at); at += p.length }
      post({ type: 'bytes', chunk }, [chunk.buffer as ArrayBuffer])
    }
    if (inputDone) post({ type: 'end' })
  }

  let reading = Promise.resolve()
  worker.on('message', (m: FromWorker) => {
    if (m.type === 'pull') reading = reading.then(answerPull)
    else deliver(m)
  })
  worker.on('error', (e) => deliver({ type: 'input-error', error: e }))
  worker.on('exit', (code) => {
    if (!closed) deliver({ type: 'input-error', error: new Error(`the import's parse worker stopped (exit code ${code})`) })
  })

  const close = () => {
    if (closed) return
    closed = true
    // Removed now (an open file goes with its last handle), and again once the thread is gone.
    const removeTemp = () => { if (tempDir) rmSync(tempDir, { recursive: true, force: true }) }
    removeTemp()
    void worker.terminate().finally(removeTemp)
    if (!inputDone) {
      inputDone = true
      // After a pending read settles, so an async generator is not asked to return mid-step.
      reading = reading.then(() => source.return?.()).then(() => undefined, () => undefined)
    }
  }

  const fail = (m: Inbox): never => {
    close()
    if (m.type === 'input-error') throw m.error
    if (m.type === 'error') throw fromWireError(m.error)
    throw new Error(`the import's parse worker answered ${m.type} out of turn`)
  }

  const first = await next()
  if (first.type !== 'format') fail(first)
  let extras: SheafExtras | null = null
  async function* batches(): AsyncGenerator<PreparedItem[]> {
    for (;;) {
      const m = await next()
      if (m.type === 'batch') {
        yield decodeBatch(m.batch)
        post({ type: 'credit' })
      } else if (m.type === 'done') {
        extras = m.extras
        return
      } else {
        fail(m)
      }
    }
  }
  return { format: (first as { format: ImportFormat }).format, batches: batches(), extras: () => extras, close }
}
