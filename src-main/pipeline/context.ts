import { setTimeout as sleep } from 'node:timers/promises'
import type { PipelineStage } from '../../src-shared/schemas/pipeline.ts'
import type { AiProvider, EnginePost, LocalRunner, PostReading, Usage } from '../ai/index.ts'
import { createOcr, imageStats, makeThumbnail, visualTags, type Entities, type Ocr } from '../ai/local/index.ts'
import type { Logger } from '../app/logger.ts'
import type { MediaCache } from '../media/index.ts'
import { inTransaction, transaction, transactionIfFree, type Db, type PipelineCategory, type PipelinePost } from '../store/index.ts'
import type { Loan } from '../vectors/index.ts'

/**
 * Search's vectors of a model, once it has read every one stored (null: it holds none of that model):
 * stage 4 borrows their rows rather than holding a second copy.
 */
export type VectorLender = (model: string) => Promise<{ lend(ids: ArrayLike<number>): Loan } | null>

export interface ImageTools {
  thumbnail(image: Buffer): Promise<Buffer>
  ocr(image: Buffer): Promise<string>
  visualTags(input: { image: Buffer | null; width: number | null; height: number | null; ocrText: string | null; altText: string | null; mediaType: 'photo' | 'video' | 'animated_gif' }): Promise<string[]>
  close(): Promise<void>
}

/** The offline image models (ai/local): thumbnails, OCR (one tesseract worker, started on first use), visual tags. */
export function createImageTools(): ImageTools {
  let ocr: Ocr | null = null
  return {
    thumbnail: (image) => makeThumbnail(image),
    async ocr(image) {
      ocr ??= createOcr()
      return (await ocr.ocrImage(image)).text
    },
    async visualTags({ image, ...rest }) {
      const stats = image ? await imageStats(image).catch(() => null) : null
      return visualTags({ ...rest, stats })
    },
    async close() {
      const o = ocr
      ocr = null
      await o?.terminate()
    },
  }
}

/** What every stage of one job run can use. */
export interface RunContext {
  jobId: string
  force: boolean
  signal: AbortSignal
  db: Db
  now: () => number
  log: Logger
  provider: AiProvider
  runner: LocalRunner
  /** null when media fetching is off: vision_analysis then works from alt text only. */
  mediaCache: MediaCache | null
  images: ImageTools
  categories: PipelineCategory[]
  /** entity_extraction output (entities), kept for semantic_tagging (recomputed when a restart lost it). */
  entities: ReadingStore
  /** Categories a remote provider suggested in semantic_tagging, used by categorization. */
  remoteCategories: Map<number, Array<{ slug: string; confidence: number }>>
  /** Absent where the pipeline runs without search (tests): stage 4 then reads the vectors itself. */
  vectors?: VectorLender
  /** Keeps an error for the next batch write (`commit`), which writes it in the same transaction. */
  recordError(bookmarkId: number | null, stage: PipelineStage, message: string, fellBack?: boolean): void
  addUsage(u: Usage): void
  /** Resolves when the shared connection has no foreign transaction open; await it right before writing. */
  writable(): Promise<void>
  /**
   * How a stage writes a batch: once the connection is writable, and unless the job was cancelled
   * meanwhile, runs `write` and marks `ids` done up to stage `doneStage`, in one transaction.
   */
  commit(ids: number[], doneStage: number, write?: () => void): Promise<void>
}

export type Reading = Omit<PostReading, 'id'>

export interface ReadingStore {
  set(id: number, r: Reading): void
  get(id: number): Reading | undefined
  has(id: number): boolean
  delete(id: number): void
}

const EMPTY_LISTS = ['hashtags', 'mentions', 'urls', 'domains', 'tools', 'products', 'companies', 'people', 'places', 'organisations', 'repos', 'topics', 'concepts'] as const

/**
 * Keeps stage 1's readings as JSON text between stages: a large job holds one for every post until
 * stage 3, and text is several times smaller than the objects; empty lists (most of them) are left out.
 */
export function createReadingStore(): ReadingStore {
  const m = new Map<number, string>()
  const compact = (key: string, v: unknown) => (Array.isArray(v) && v.length === 0 && key !== '' ? undefined : v)
  return {
    set: (id, r) => void m.set(id, JSON.stringify(r, compact)),
    get: (id) => {
      const s = m.get(id)
      if (s === undefined) return undefined
      const r = JSON.parse(s) as { entities: Partial<Entities> }
      const entities = { ...r.entities } as Entities
      for (const k of EMPTY_LISTS) (entities[k] as unknown[]) ??= []
      return { entities }
    },
    has: (id) => m.has(id),
    delete: (id) => void m.delete(id),
  }
}

/** `T`: what `analyse` hands to `run` (a stage without `analyse` does all its work in `run`). */
export interface Stage<T = unknown> {
  name: PipelineStage
  /** 1-based; job_items.done_stage reaches it when a post has finished this stage. */
  index: number
  /** Posts per batch (one worker message, one short write transaction). */
  batchSize: number
  prepare?(ctx: RunContext): Promise<void>
  /** After the stage's last batch (not after a cancel). */
  finish?(ctx: RunContext): Promise<void>
  /**
   * The work for `ids` that writes nothing (reads and models). The runner starts it for the next
   * batches while this one is written, so the model workers never wait on a write.
   */
  analyse?(ids: number[], ctx: RunContext): Promise<T>
  /** Does the work for `ids` (or takes `analysed`, its analysis started ahead), writes it and marks the items done in one transaction. */
  run(ids: number[], ctx: RunContext, analysed?: Promise<T>): Promise<void>
}

/** Text from a post's images (alt text, OCR, visual tags, descriptions), for the text models. */
export function imageTextOf(p: PipelinePost): string | null {
  const parts: string[] = []
  for (const m of p.media) {
    if (m.altText) parts.push(m.altText)
    if (m.ocrText) parts.push(m.ocrText)
    if (m.description) parts.push(m.description)
  }
  const text = parts.join('\n').trim()
  return text ? text.slice(0, 4000) : null
}

export function toEnginePost(p: PipelinePost): EnginePost {
  return {
    id: p.id,
    text: p.text,
    lang: p.lang,
    authorHandle: p.authorHandle,
    urls: p.urls,
    media: p.media.map((m) => ({
      type: m.type, url: m.url, thumbnailUrl: m.thumbnailUrl, videoUrl: m.videoUrl, altText: m.altText,
      width: m.width, height: m.height, durationMs: m.durationMs,
    })),
    inReplyToPostId: p.inReplyToPostId,
    quoted: p.quoted ? { text: p.quoted.text ?? '', authorHandle: p.quoted.authorHandle ?? '' } : null,
    imageText: imageTextOf(p),
  }
}

// The shared connection's guards: every unit of the pipeline writes through them, beside an import's
// open transaction and the word index's catch-up.

/** SQLite said another writer holds the lock (another connection, or the busy timeout ran out). */
export function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
}

/**
 * Waits while a transaction someone else holds across awaits is open on the shared connection (an
 * import's BEGIN IMMEDIATE): pipeline writes made meanwhile would join it and roll back with it.
 * JavaScript is single-threaded, so after an await an open transaction is never the caller's own.
 */
export async function waitForWriters(db: Db, signal?: AbortSignal, pollMs = 25): Promise<void> {
  while (inTransaction(db) && !signal?.aborted) await sleep(pollMs)
}

/** Runs `fn`, retrying with a growing pause while the database is busy; other errors pass through. */
export async function retryBusy<T>(db: Db, fn: () => T, { attempts = 8, signal }: { attempts?: number; signal?: AbortSignal } = {}): Promise<T> {
  for (let i = 1; ; i++) {
    await waitForWriters(db, signal)
    try {
      return fn()
    } catch (e) {
      if (!isBusy(e) || i >= attempts || signal?.aborted) throw e
      await sleep(Math.min(2000, 50 * 2 ** i))
    }
  }
}

/** How long writeWhenFree polls for the write lock before it waits in SQLite's busy handler instead. */
const POLL_FOR_MS = 5000

/**
 * Runs `fn` in one transaction once the write lock is free, polling for it every `pollMs` with the
 * event loop free meanwhile: the word index's catch-up holds the lock in short batches with short
 * pauses, and waiting for it in SQLite's busy handler held up every request (list p95 ~190 ms while
 * categories were written at 100,000 posts).
 */
export async function writeWhenFree<T>(db: Db, fn: () => T, { signal, pollMs = 2 }: { signal?: AbortSignal; pollMs?: number } = {}): Promise<T> {
  for (const until = performance.now() + POLL_FOR_MS; performance.now() < until && !signal?.aborted; await sleep(pollMs)) {
    await waitForWriters(db, signal)
    const done = transactionIfFree(db, fn)
    if (done) return done.value
  }
  await waitForWriters(db, signal)
  return transaction(db, fn)
}
