import { startNicedWorker } from '../background/index.ts'
import {
  databaseFile, FILTER_WALK, hasSearchFilter, inTransaction, openWordTokenizer, searchBacklog, searchIndexStamp, type Db, type PostTest, type SearchFilter,
} from '../store/index.ts'
import type { Candidate } from './candidates.ts'
import { openWordIndex, type WordArrays, type WordIndex, type WordPhrase } from './word-memory.ts'

/**
 * Keeps the in-memory word index (word-memory.ts) for the word index as it is now, or none: a search
 * that finds the word index changed since the copy was read (its stamp moved) answers from FTS5, and
 * the copy is read again on a thread of its own once the writes have gone quiet (the stamp held still
 * for QUIET_MS with nothing queued for the index). After writesEnded() the stamp is looked at every
 * ENDED_MS instead, until a copy is read: the word queue's catch-up that follows a job moves it for a
 * few seconds more, and every search answers from FTS5 until the copy is back (a merge does not move
 * it: searchIndexStamp). Never per request, and never a stale answer.
 */
export interface WordSearch {
  /** searchIndexStamp of the word index it was read from (and is, while current() gives it). */
  readonly stamp: string
  /** searchVocabulary: every term with the number of posts holding it, in FTS5's order. */
  vocabulary(): Array<{ term: string; doc: number }>
  /** How many posts a one-word expression (`"word"`, `"word"*`) matches, counted no further than `upTo`; null for any other. */
  count(expr: string, upTo: number): number | null
  /**
   * searchLexical(expressions OR-ed, filter, limit, cap, passing) from memory; null unless each expression and
   * each minus word is one word, and the filter is only minus words, or `passing` (its posts in memory), or
   * quoted one-word phrases besides minus words.
   */
  lexical(exprs: readonly string[], limit: number, cap: number, filter?: SearchFilter, passing?: PostTest | null): Candidate[] | null
  /** searchMatchingAmong(expressions OR-ed, ids) from memory; null unless each expression is one word. */
  among(exprs: readonly string[], ids: readonly number[]): number[] | null
}

export interface WordMemory {
  /** The copy, when it was read from the word index as it is now; null otherwise (and a new one is due). */
  current(): WordSearch | null
  /** The writes are over (a pipeline job ended): a copy is read once the word index has stood still for a second. */
  writesEnded(): void
  /** Copies read and adopted so far, and the bytes the current one holds. */
  readonly built: number
  readonly bytes: number
  /** Resolves once a build under way has ended (its thread and connection with it). */
  close(): Promise<void>
}

export type FromWordThread = { arrays: WordArrays } | { failed: string }

const QUIET_MS = 5000
const ENDED_MS = 1000
/** Failed builds after which the library keeps to FTS5 until it is opened again. */
const MAX_FAILURES = 3
/** Expressions whose tokens are remembered (they do not depend on the copy). */
const KEEP_EXPRS = 4096

/**
 * Its garbage is a row at a time (4.3 million token rows at 100,000 posts): a 2 MB young generation kept
 * the process's peak during a build at +64-71 MB against +117-121 MB with V8's default, and what stayed
 * once the thread had ended at +25-34 MB against +39 MB (the arrays' 9.4 MB included; the rest is freed
 * memory glibc keeps: a thread that only reads FTS5's instance table leaves +14 MB), for the same CPU.
 */
const LIMITS = { maxYoungGenerationSizeMb: 2 }

/**
 * Reads the word index into arrays on a worker thread (word-memory-worker.ts). `stop` asks the read to
 * end and resolves once the thread has closed its connection and exited (terminating it would leave
 * the connection open).
 */
export function buildOnThread(file: string): { arrays: Promise<WordArrays>; stop(): Promise<void> } {
  const stop = new SharedArrayBuffer(4)
  const worker = startNicedWorker(new URL('./word-memory-worker.ts', import.meta.url), { workerData: { file, stop }, resourceLimits: LIMITS })
  worker.unref()
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
  const arrays = new Promise<WordArrays>((resolve, reject) => {
    worker.once('message', (m: FromWordThread) => ('arrays' in m ? resolve(m.arrays) : reject(new Error(m.failed))))
    worker.once('error', reject)
    worker.once('exit', () => reject(new Error('the word index thread exited')))
  })
  return {
    arrays,
    stop() {
      Atomics.store(new Int32Array(stop), 0, 1)
      return exited
    },
  }
}

type Spec = { token: string; prefix: boolean }
const EXPR = /^"((?:[^"]|"")*)"(\*?)$/

export function createWordMemory({ db, log, quietMs = QUIET_MS, endedMs = ENDED_MS }: {
  db: Db; log?: { warn(msg: string, e?: unknown): void; info?(msg: string): void }; quietMs?: number; endedMs?: number
}): WordMemory {
  const file = databaseFile(db)
  let index: WordIndex | null = null
  let search: WordSearch | null = null
  let building = false
  /** The build under way: closing ends it, so no connection to the library outlives the app's. */
  let thread: ReturnType<typeof buildOnThread> | null = null
  let closed = false
  let failures = 0
  let built = 0
  let timer: NodeJS.Timeout | null = null
  let seen: string | null = null
  /** Set by writesEnded() until a copy is read: look every endedMs rather than quietMs. */
  let ending = false

  let tokenizer: ReturnType<typeof openWordTokenizer> | null = null
  const specs = new Map<string, Spec | null>()
  const specOf = (expr: string): Spec | null => {
    let spec = specs.get(expr)
    if (spec !== undefined) return spec
    const m = EXPR.exec(expr)
    const tokens = m ? (tokenizer ??= openWordTokenizer(db)).tokens(m[1].replace(/""/g, '"')) : []
    spec = tokens.length === 1 ? { token: tokens[0], prefix: m![2] === '*' } : null
    if (specs.size >= KEEP_EXPRS) specs.clear()
    specs.set(expr, spec)
    return spec
  }

  const searchOf = (ix: WordIndex): WordSearch => {
    /** Each expression's phrase, or null when one is not a single word. */
    const phrases = (exprs: readonly string[]): WordPhrase[] | null => {
      const all = exprs.map(specOf)
      return all.some((s) => s === null) ? null : all.map((s) => ix.phrase(s!.token, s!.prefix))
    }
    return {
      stamp: ix.stamp,
      vocabulary: () => ix.vocabulary(),
      count(expr, upTo) {
        const spec = specOf(expr)
        return spec ? Math.min(ix.phrase(spec.token, spec.prefix).docs, upTo) : null
      },
      lexical(exprs, limit, cap, filter = {}, passing = null) {
        const words = phrases(exprs)
        const not = phrases(filter.mustNotMatch ?? [])
        if (!words || !not) return null
        // As searchLexical: minus words are NOT in the expression, anything else filters a walk of FILTER_WALK x cap matches.
        const rest = { ...filter, mustNotMatch: [] }
        if (!hasSearchFilter(rest)) return ix.best(words, limit, cap, { not })
        const walk = FILTER_WALK * cap
        if (passing) return ix.best(words, limit, cap, { not, passing, walk })
        const must = hasSearchFilter({ ...rest, mustMatch: [] }) ? null : phrases(rest.mustMatch ?? [])
        return must && ix.best(words, limit, cap, { not, must, walk })
      },
      among(exprs, ids) {
        const words = phrases(exprs)
        return words && ix.among(words, ids)
      },
    }
  }

  const build = () => {
    building = true
    ending = false
    const t0 = performance.now()
    thread = buildOnThread(file!)
    thread.arrays.then((arrays) => {
      building = false
      thread = null
      if (closed) return
      if (arrays.stamp !== searchIndexStamp(db)) return due()
      index = openWordIndex(arrays)
      search = searchOf(index)
      built++
      log?.info?.(`search: the word index read into memory (${(index.bytes / 1e6).toFixed(1)} MB, ${Math.round(performance.now() - t0)} ms)`)
    }, (e: unknown) => {
      building = false
      thread = null
      failures++
      if (closed) return
      log?.warn('search: could not read the word index into memory; searching it in SQLite', e)
      due()
    })
  }

  /** Builds once the stamp held still for `ms` and nothing waits for the word index; else looks again. */
  const look = () => {
    timer = null
    if (closed) return
    const stamp = searchIndexStamp(db)
    if (stamp === seen && searchBacklog(db, 1).words === 0 && !inTransaction(db)) build()
    else {
      seen = stamp
      wait(ending ? endedMs : quietMs)
    }
  }
  const wait = (ms: number) => {
    timer = setTimeout(look, ms)
    timer.unref()
  }
  const due = (ms = ending ? endedMs : quietMs) => {
    if (!file || closed || building || timer || failures >= MAX_FAILURES) return
    seen = searchIndexStamp(db)
    wait(ms)
  }

  return {
    current() {
      if (closed) return null
      if (index && index.stamp === searchIndexStamp(db)) return search
      index = null
      search = null
      due()
      return null
    },
    writesEnded() {
      if (index && index.stamp === searchIndexStamp(db)) return
      ending = true
      if (timer) clearTimeout(timer)
      timer = null
      due()
    },
    get built() {
      return built
    },
    get bytes() {
      return index?.bytes ?? 0
    },
    async close() {
      closed = true
      if (timer) clearTimeout(timer)
      tokenizer?.close()
      index = null
      search = null
      await thread?.stop()
    },
  }
}
