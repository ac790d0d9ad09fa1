import type { Logger } from '../app/logger.ts'
import { postsWithUncheckedLanguage, setCheckedLanguages, type Db } from '../store/index.ts'
import { loadLanguageDetector, type LanguageDetector } from './detect.ts'

export interface LanguageUpgrade {
  /** Resolves when no unchecked post is left (or the upgrade was stopped). */
  readonly done: Promise<void>
  stop(): void
}

export interface LanguageUpgradeOptions {
  db: Db
  log?: Pick<Logger, 'warn' | 'info'>
  /** Posts detected and written per slice (default 200, ~8 ms of detection). */
  batch?: number
  /** Pause between slices, so requests run in between (default 5 ms). */
  pauseMs?: number
  /** Wait after a failed slice (another writer holding the lock) or while a write is open (default 1 s). */
  retryMs?: number
}

/**
 * Detects the language of posts stored before languages were kept (migration 0009), a small slice at
 * a time after start: the library is usable meanwhile, and a restart carries on where it stopped
 * (the work list is the rows still unchecked). Loads the detector only when there is work.
 */
export function startLanguageUpgrade({ db, log, batch = 200, pauseMs = 5, retryMs = 1000 }: LanguageUpgradeOptions): LanguageUpgrade {
  let stopped = false
  let timer: NodeJS.Timeout | null = null
  let detect: LanguageDetector | null = null
  let failing = false
  let checked = 0
  let finish!: () => void
  const done = new Promise<void>((resolve) => { finish = resolve })
  const end = () => {
    stopped = true
    if (timer) clearTimeout(timer)
    timer = null
    finish()
  }

  const schedule = (ms: number) => {
    if (stopped) return
    timer = setTimeout(slice, ms)
    timer.unref()
  }

  function slice(): void {
    timer = null
    if (stopped || !db.$client.open) return end()
    // An import's transaction is open on this connection: writing now would join it.
    if (db.$client.inTransaction) return schedule(retryMs)
    try {
      const rows = postsWithUncheckedLanguage(db, batch)
      if (rows.length === 0) {
        if (checked > 0) log?.info(`language: detected the language of ${checked} older posts`)
        return end()
      }
      if (!detect) {
        loadLanguageDetector().then((d) => { detect = d; schedule(0) }, (e: unknown) => {
          log?.warn('language: could not load the language detector; older posts keep no language', e)
          end()
        })
        return
      }
      const found = rows.map((r) => ({ id: r.id, lang: detect!(r.text) }))
      setCheckedLanguages(db, found)
      checked += found.length
      failing = false
      schedule(pauseMs)
    } catch (e) {
      if (!failing) log?.warn('language: could not store detected languages; retrying', e)
      failing = true
      schedule(retryMs)
    }
  }

  schedule(0)
  return { done, stop: end }
}
