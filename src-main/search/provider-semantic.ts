import type { AiProvider } from '../ai/index.ts'
import { countEmbeddings, searchPostCount, type Db } from '../store/index.ts'
import type { Embedder } from './embedder.ts'
import { createSemanticIndex, type SemanticIndex } from './semantic.ts'
import type { ScanThread } from '../vectors/index.ts'

/** A provider's embedding model in search's shape (OpenAI-compatible providers with an embedding model only). */
export function providerEmbedder(p: AiProvider): Embedder | null {
  if (p.name !== 'openai' || !p.embed || !p.embeddingModel) return null
  const embed = p.embed.bind(p)
  return { model: p.embeddingModel, local: false, embed: async (texts, signal) => (await embed(texts, signal)).vectors }
}

interface Entry { index: SemanticIndex; running: boolean; failedAt: number; stored?: number }

/** Share of the library a provider's vectors must cover before they replace the local ones. */
const COVERAGE = 0.9
const RETRY_AFTER_MS = 60_000

/**
 * Vector indexes of providers' embedding models, beside the local one. Search's queue belongs to the
 * local index, so these are filled by backfill (started here in the background when coverage is low,
 * then again when new posts lower it) and read-only otherwise: they read the vectors others write or
 * remove (semantic.ts), but an edited post keeps its older vector until something re-embeds it. Until a model covers COVERAGE of the library, search uses the local vectors.
 */
export function createProviderSemantic({ db, log, scans = null }: { db: Db; log?: { warn(msg: string, e?: unknown): void }; scans?: ScanThread | null }) {
  const byModel = new Map<string, Entry>()
  const ctl = new AbortController()

  const backfill = (e: Entry) => {
    if (e.running || ctl.signal.aborted || performance.now() - e.failedAt < RETRY_AFTER_MS) return
    e.running = true
    e.index.backfill({ signal: ctl.signal })
      .catch((err) => {
        e.failedAt = performance.now()
        if (!ctl.signal.aborted) log?.warn(`search: could not embed posts with ${e.index.model}; using the local vectors`, err)
      })
      .finally(() => { e.running = false })
  }

  /**
   * Whether its vectors cover the library: those read, once read; until then those stored (counted
   * once a load, when `reading`), so the searches of a server's first seconds answer with them, from
   * the vectors read so far (saying so), rather than needing the word vectors loaded beside them.
   */
  const covers = (e: Entry, reading: boolean): boolean => {
    if (!e.index.loading) e.stored = undefined
    const stored = () => (reading ? (e.stored ??= countEmbeddings(db, e.index.model)) : countEmbeddings(db, e.index.model))
    return (e.index.loading ? stored() : e.index.size) >= COVERAGE * searchPostCount(db)
  }

  const entry = (embedder: Embedder): Entry => {
    let e = byModel.get(embedder.model)
    if (!e) {
      e = { index: createSemanticIndex({ db, embedder, ownsQueue: false, scans }), running: false, failedAt: -Infinity }
      byModel.set(embedder.model, e)
    }
    return e
  }

  return {
    /** This embedder's index, however much of the library it covers. */
    indexOf: (embedder: Embedder): SemanticIndex => entry(embedder).index,
    /** Whether this embedder's vectors cover the library (read or, while they load, stored). */
    covers: (embedder: Embedder): boolean => covers(entry(embedder), false),
    /** The index to search with this embedder, or null while its vectors cover too little of the library. */
    ready(embedder: Embedder): SemanticIndex | null {
      const e = entry(embedder)
      e.index.preload()
      if (covers(e, true)) return e.index
      // The pipeline fills its own model's vectors; search waits for it rather than doing the work twice.
      if (embedder.filledBy !== 'pipeline') backfill(e)
      return null
    },
    close() {
      ctl.abort()
    },
  }
}
