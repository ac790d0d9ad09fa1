import { availableParallelism } from 'node:os'
import type { EngineConfig } from './local-engine.ts'
import { createModelThreadRunner, createWorkerRunner, type LocalRunner } from './local-runner.ts'

/** Below this many items a call goes to one worker: splitting costs more than it saves. */
const SPLIT_FROM = 32

/**
 * Runners behind one LocalRunner face, so a job uses every core. The first runs in the thread that
 * holds the process's sentence model (encoder-host.ts: one thread fewer, and no vectors to pass
 * between threads); the others are workers of their own. Per-post work is split across them in order;
 * configuration goes to all of them, and the related-post index, built once, is shared by all of them.
 * Stage 3 runs in the first alone, so the library's tags have one vocabulary.
 */
export function createWorkerPool(config: EngineConfig, size = Math.min(2, availableParallelism())): LocalRunner {
  const workers = [createModelThreadRunner(config), ...Array.from({ length: size - 1 }, () => createWorkerRunner(config, { background: true }))]
  if (workers.length === 1) return workers[0]
  const [main] = workers
  const split = async <T, R>(items: T[], run: (w: LocalRunner, part: T[], from: number) => Promise<R[]>): Promise<R[]> => {
    if (items.length < SPLIT_FROM) return run(main, items, 0)
    const per = Math.ceil(items.length / workers.length)
    const parts = await Promise.all(workers.map((w, i) => run(w, items.slice(i * per, (i + 1) * per), i * per)))
    return parts.flat()
  }
  return {
    offThread: true,
    entities: (posts) => split(posts, (w, part) => w.entities(part)),
    // The model reads ~200 posts/s on one core (its own thread), so the other core stays free for requests.
    semantic: (items) => main.semantic(items),
    categorize: (items) => split(items, (w, part) => w.categorize(part)),
    encode: (texts) => main.encode(texts),
    normalizeTags: (lists) => main.normalizeTags(lists),
    configure: async (c) => {
      await Promise.all(workers.map((w) => w.configure(c)))
    },
    // One worker builds the index into shared memory; the others open that same memory.
    relatedBuild: async (input) => {
      const shared = await main.relatedBuild(input)
      await Promise.all(workers.slice(1).map((w) => w.relatedOpen(shared)))
      return shared
    },
    relatedOpen: async (shared) => (await Promise.all(workers.map((w) => w.relatedOpen(shared))))[0],
    related: (ids, k) => split(ids, (w, part) => w.related(part, k)),
    relatedClose: async () => {
      await Promise.all(workers.map((w) => w.relatedClose()))
    },
    release: async () => {
      await Promise.all(workers.map((w) => w.release()))
    },
    close: async () => {
      await Promise.all(workers.map((w) => w.close()))
    },
  }
}
