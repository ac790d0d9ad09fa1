import type { Logger } from '../app/logger.ts'
import { inTransaction, isOpen, postsWithUncheckedLanguage, setCheckedLanguages, type Db } from '../store/index.ts'
import { detectorWorker } from './language-detector-worker.ts'

export interface LanguageUpgrade {
  /** Looks for unchecked posts again (after an import that left some to it). */
  kick(): void
  /** Resolves once no unchecked post is left (at once when there is nothing to do), or on stop. */
  idle(): Promise<void>
  stop(): void
}

export interface LanguageUpgradeOptions {
  db: Db
  log?: Pick<Logger, 'warn' | 'info'>
  /** Posts detected and written per slice (default 500). */
  batch?: number
  /** Pause between slices (default 5 ms). */
  pauseMs?: number
  /** Wait after a failed write (another writer holding the lock) or while a write is open (default 1 s). */
  retryMs?: number
}

/**
 * Gives a language to the posts whose language was never decided: those stored before languages were
 * kept (migration 0009), and any an import could not detect (its language worker failed). Runs after
 * start and after each import, a slice at a time: posts are read and written here, the detection runs
 * on a worker thread (detectorWorker), stopped when nothing is left, so neither the detector's ~60 MB
 * nor its garbage stay in the server. The library is usable meanwhile, and a restart carries on where
 * it stopped (the work list is the rows still unchecked, see bookmarks_lang_unchecked_idx).
 */
export function startLanguageUpgrade({ db, log, batch = 500, pauseMs = 5, retryMs = 1000 }: LanguageUpgradeOptions): LanguageUpgrade {
  let stopped = false
  let running = false
  let timer: NodeJS.Timeout | null = null
  const detector = detectorWorker()
  let failing = false
  let checked = 0
  let idlers: (() => void)[] = []

  const settle = () => {
    running = false
    const list = idlers
    idlers = []
    for (const f of list) f()
  }
  const stopWorker = () => detector.close()
  const schedule = (fn: () => void, ms: number) => {
    if (stopped) return
    timer = setTimeout(() => {
      timer = null
      if (!stopped && isOpen(db)) fn()
      else settle()
    }, ms)
    timer.unref()
  }

  function write(found: { id: number; lang: string | null }[]): void {
    // An import's transaction is open on this connection: writing now would join it.
    if (inTransaction(db)) return schedule(() => write(found), retryMs)
    try {
      setCheckedLanguages(db, found)
      checked += found.length
      failing = false
      schedule(slice, pauseMs)
    } catch (e) {
      if (!failing) log?.warn('language: could not store detected languages; retrying', e)
      failing = true
      schedule(() => write(found), retryMs)
    }
  }

  function slice(): void {
    const rows = postsWithUncheckedLanguage(db, batch)
    if (rows.length === 0) {
      if (checked > 0) log?.info(`language: detected the language of ${checked} posts in the background`)
      checked = 0
      stopWorker()
      return settle()
    }
    detector.detect(rows.map((r) => r.text)).then((langs) => {
      if (stopped) return settle()
      write(rows.map((r, i) => ({ id: r.id, lang: langs[i] ?? null })))
    }, (e: unknown) => {
      if (!stopped) log?.warn('language: could not detect languages; posts keep none for now', e)
      stopWorker()
      settle()
    })
  }

  const kick = () => {
    if (stopped || running) return
    running = true
    schedule(slice, 0)
  }
  kick()
  return {
    kick,
    idle: () => (running ? new Promise<void>((resolve) => idlers.push(resolve)) : Promise.resolve()),
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      timer = null
      stopWorker()
      settle()
    },
  }
}
