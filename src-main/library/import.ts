import { createReadStream, statSync } from 'node:fs'
import { basename } from 'node:path'
import { AppError } from '../../src-shared/errors.ts'
import { holdHeapGrowthDown } from '../background/index.ts'
import type { ImportResult } from '../../src-shared/schemas/posts.ts'
import { mergePost, UNKNOWN_HANDLE, type ExportInput } from '../importers/index.ts'
import {
  adoptSoleOwnerHandle, allMergedPostIds, allPostIds, beginWrite, bookmarkByPostId, insertBookmarkRow, insertImportHistory, insertMediaRow, maxBookmarkId, mediaForBookmarks,
  optimize, queueForKeys, queueNewPostsForKeys, queueNewPostsForSearch, replaceMedia, updateBookmark, type Db, type WriteTransaction,
} from '../store/index.ts'
import { assembleThreads } from '../threads/index.ts'
import { postToValues, recordToPost, valuesToPost } from './convert.ts'
import { applySheafExtras } from './import-extras.ts'
import type { PreparedItem } from './import-items.ts'
import { prepareExport } from './import-source.ts'

const BATCH = 250
/**
 * The longest the importer writes without letting the event loop answer requests: a batch of 250
 * posts takes 15-60 ms (more on a busy machine), which queued every request behind it.
 */
const SLICE_MS = 8
const MAX_ERROR_DETAILS = 100
/** Uploads at least this large are parsed on a worker thread while this thread writes (import-source.ts). */
const OFF_THREAD_MIN_BYTES = 2 << 20

export interface ImportDeps {
  db: Db
  clock: () => number
  /** Called after a successful import with the ids of new posts and posts whose content changed. */
  onImported?: (ids: number[]) => void | Promise<void>
  /**
   * Before the import commits, with how many posts it wrote: indexes them for words (search's
   * indexQueuedInSlices), so that searches right after the commit find them in the index.
   */
  beforeCommit?: (posts: number) => Promise<void>
  /** Files at least this large are parsed off-thread (default 2 MiB; tests set 0 to always use the worker). */
  offThreadMinBytes?: number
  /** Where large zip archives are kept while they are read (the system's temporary folder by default). */
  tempDir?: string
}

export interface ImportRequest {
  input: ExportInput
  fileName: string
  userId: number | null
  /** Bytes read from the upload (asked once the file is consumed), for the history. */
  bytes?: () => number
}

export type LibraryImportResult = ImportResult & { skipped: number }

/** One import in the queue: the one running has place 0, those waiting 1, 2, … in the order they run. */
export interface QueuedImport {
  id: number
  fileName: string
  userId: number | null
  state: 'running' | 'waiting'
  place: number
  /** When it joined the queue (ISO). */
  queuedAt: string
}

interface Run {
  result: LibraryImportResult
  changed: number[]
  inserted: Set<number>
  /** Post ids stored before this import plus those it wrote: a post not in here needs no lookup. */
  known: Set<string>
  /** Post ids folded into another post by a merge: importing one again counts as a duplicate. */
  merged: Set<string>
}

/** Writes one prepared post; database failures fail the import. */
function applyPost(db: Db, run: Run, item: Extract<PreparedItem, { kind: 'post' }>, now: number): void {
  const { result } = run
  const { values, media } = item
  if (run.merged.has(values.postId)) {
    result.duplicates++
    return
  }
  const existing = run.known.has(values.postId) ? bookmarkByPostId(db, values.postId) : null
  if (!existing) {
    // Queued for search per batch (queueNewPostsForSearch), not per row.
    const id = insertBookmarkRow(db, values, now)
    run.known.add(values.postId)
    for (let i = 0; i < media.length; i++) insertMediaRow(db, id, i, media[i])
    result.imported++
    run.changed.push(id)
    run.inserted.add(id)
    return
  }
  if (existing.rawJson === values.rawJson && existing.text === values.text) {
    result.duplicates++
    return
  }
  const before = recordToPost(existing, mediaForBookmarks(db, [existing.id]))
  const { post: merged, changed } = mergePost(before, valuesToPost(values, media))
  if (!changed) {
    result.duplicates++
    return
  }
  const next = postToValues(merged)
  updateBookmark(db, existing.id, next, now)
  // Keyed again in the background; keys are added, not replaced, so those of records merged into it stay.
  queueForKeys(db, existing.id)
  if (JSON.stringify(merged.media) !== JSON.stringify(before.media)) {
    replaceMedia(db, existing.id, merged.media)
  }
  result.updated++
  if (next.contentHash !== existing.contentHash) run.changed.push(existing.id)
}

function recordError(result: ImportResult, index: number, postId: string | null, reason: string): void {
  result.errors++
  if (result.errorDetails.length < MAX_ERROR_DETAILS) result.errorDetails.push({ index, postId, reason })
}

function applyItem(db: Db, run: Run, item: PreparedItem, now: number): void {
  if (item.kind === 'post') applyPost(db, run, item, now)
  else if (item.kind === 'error') recordError(run.result, item.index, item.postId, item.reason)
  else run.result.skipped++
}

/**
 * Imports one export. The posts stream in (parsed on a worker thread for large files, see
 * import-source.ts) and are written in batches inside ONE write transaction that stays open across
 * the awaits; any failure (including the file breaking off half-way) rolls the whole import back.
 * Imports run one at a time.
 */
export function createImporter(deps: ImportDeps) {
  const { db, clock } = deps
  const offThreadMinBytes = deps.offThreadMinBytes ?? OFF_THREAD_MIN_BYTES
  let queue: Promise<unknown> = Promise.resolve()

  /** A whole-file refusal names the file: "bookmarks.json: not valid JSON at line 1, column 17." */
  const named = (fileName: string, e: unknown): unknown => {
    if (!(e instanceof AppError) || e.code !== 'VALIDATION_ERROR' || !fileName) return e
    const body = e.message.replace(/^(This|The) file is /, '').replace(/^(This|The) file /, 'the file ')
    const lower = /^[A-Z][a-z]/.test(body) ? body.charAt(0).toLowerCase() + body.slice(1) : body
    return new AppError('VALIDATION_ERROR', `${fileName}: ${lower}`, e.details)
  }

  async function run(req: ImportRequest): Promise<LibraryImportResult> {
    const letGo = holdHeapGrowthDown()
    try {
      return await runNamed(req)
    } catch (e) {
      throw named(req.fileName, e)
    } finally {
      letGo()
    }
  }

  async function runNamed(req: ImportRequest): Promise<LibraryImportResult> {
    const parsed = await prepareExport(req.input, { fileName: req.fileName, batchSize: BATCH, offThreadMinBytes, tempDir: deps.tempDir })
    const r: Run = {
      result: { imported: 0, duplicates: 0, errors: 0, updated: 0, skipped: 0, format: parsed.format, errorDetails: [] },
      changed: [],
      inserted: new Set(),
      known: new Set(),
      merged: new Set(),
    }
    const now = clock()
    let tx: WriteTransaction | null = null
    /** New posts above this id are not queued for the search index yet. */
    let queuedUpTo = 0
    /** Every post above this id is new in this import. */
    let newAfter = 0
    const apply = async (batch: readonly PreparedItem[]) => {
      if (!tx) {
        tx = beginWrite(db)
        r.known = allPostIds(db)
        r.merged = allMergedPostIds(db)
        queuedUpTo = newAfter = maxBookmarkId(db)
      }
      let sliceStart = performance.now()
      for (const item of batch) {
        applyItem(db, r, item, now)
        // Requests waiting meanwhile are answered between slices (they read the same connection).
        if (performance.now() - sliceStart > SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve))
          sliceStart = performance.now()
        }
      }
      const last = maxBookmarkId(db)
      if (last > queuedUpTo) {
        queueNewPostsForSearch(db, queuedUpTo)
        queueNewPostsForKeys(db, queuedUpTo)
        queuedUpTo = last
      }
    }
    try {
      for await (const batch of parsed.batches) await apply(batch)
      await apply([])
      if (parsed.format.startsWith('x-archive')) adoptSoleOwnerHandle(db, newAfter, UNKNOWN_HANDLE)
      const extras = parsed.extras()
      if (extras) applySheafExtras(db, extras, { now, inserted: r.inserted })
      // After the owner's handle is known (a thread is one author's): parts from earlier imports join in.
      assembleThreads(db)
      insertImportHistory(db, {
        userId: req.userId, fileName: req.fileName, format: parsed.format, bytes: req.bytes?.() ?? 0,
        imported: r.result.imported, duplicates: r.result.duplicates, updated: r.result.updated, errors: r.result.errors, createdAt: now,
      })
      // The posts still waiting for the word index when the writes end (about a tenth of them) were
      // found after the commit by a pass over each one's text in every search and list with `q`, at
      // the moment every answer kept had just gone stale. Should indexing fail, the background slices
      // index them after the commit, as before; the import stands.
      await deps.beforeCommit?.(r.changed.length).catch(() => undefined)
      tx!.commit({ deferCheckpoint: true })
    } catch (e) {
      ;(tx as WriteTransaction | null)?.rollback()
      throw e
    } finally {
      parsed.close()
    }
    if (r.result.imported + r.result.updated > 0) void optimize(db)
    if (r.changed.length > 0) await deps.onImported?.(r.changed)
    return r.result
  }

  /** Imports that have their whole file and wait for the slot, in order; the first is running. */
  const lined: { id: number; fileName: string; userId: number | null; queuedAt: number; running: boolean }[] = []
  let nextId = 1

  const importStream = (req: ImportRequest): Promise<LibraryImportResult> => {
    const entry = { id: nextId++, fileName: req.fileName, userId: req.userId, queuedAt: clock(), running: false }
    lined.push(entry)
    const p = queue.then(() => {
      entry.running = true
      return run(req)
    }).finally(() => {
      lined.splice(lined.indexOf(entry), 1)
    })
    queue = p.catch(() => undefined)
    return p
  }

  /** The running import (place 0) and those waiting behind it (place 1, 2, …). */
  const importQueue = (): QueuedImport[] => {
    const offset = lined[0]?.running ? 0 : 1
    return lined.map((e, i) => ({
      id: e.id, fileName: e.fileName, userId: e.userId, state: e.running ? 'running' : 'waiting', place: i + offset, queuedAt: new Date(e.queuedAt).toISOString(),
    }))
  }

  /** For `sheaf import FILE`: the same path as an upload, read from disk. */
  async function importFile(path: string, opts: { userId?: number | null; limitBytes?: number } = {}): Promise<LibraryImportResult> {
    let size: number
    try {
      size = statSync(path).size
    } catch {
      throw new AppError('VALIDATION_ERROR', `Cannot read ${path}: no such file.`)
    }
    if (opts.limitBytes !== undefined && size > opts.limitBytes) {
      throw new AppError('VALIDATION_ERROR', `${basename(path)} is ${size} bytes; the import limit is ${opts.limitBytes} bytes (SHEAF_IMPORT_LIMIT_BYTES).`)
    }
    return importStream({ input: createReadStream(path, { highWaterMark: 1 << 20 }), fileName: basename(path), userId: opts.userId ?? null, bytes: () => size })
  }

  return { importStream, importFile, importQueue }
}

export type Importer = ReturnType<typeof createImporter>
