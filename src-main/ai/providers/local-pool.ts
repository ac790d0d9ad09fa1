import { availableParallelism } from 'node:os'
import type { EngineConfig } from './local-engine.ts'
import { createWorkerRunner, type LocalRunner } from './local-runner.ts'

/** Below this many items a call goes to one worker: splitting costs more than it saves. */
const SPLIT_FROM = 32

/**
 * Several worker runners behind one LocalRunner face, so a job uses every core. Per-post work is
 * split across the workers in order; configuration goes to all of them, and the related-post index,
 * built once, is shared by all of them.
 * The first worker's tag vocabulary is the canonical one: tags the others suggest are passed through
 * it, so near-duplicate tags still merge into one name.
 */
export function createWorkerPool(config: EngineConfig, size = Math.min(2, availableParallelism())): LocalRunner {
  if (size <= 1) return createWorkerRunner(config, { background: true })
  const workers = Array.from({ length: size }, () => createWorkerRunner(config, { background: true }))
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
    semantic: async (items) => {
      const out = await split(items, async (w, part) => {
        const r = await w.semantic(part)
        if (w === main || r.length === 0) return r
        const tags = await main.normalizeTags(r.map((x) => x.tags))
        return r.map((x, i) => ({ ...x, tags: tags[i].length ? tags[i] : x.tags }))
      })
      return out
    },
    categorize: (items) => split(items, (w, part) => w.categorize(part)),
    encode: (texts) => split(texts, (w, part) => w.encode(part)),
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
    release: async () => {
      await Promise.all(workers.map((w) => w.release()))
    },
    close: async () => {
      await Promise.all(workers.map((w) => w.close()))
    },
  }
}
