import type { AiProvider } from '../ai/index.ts'

/**
 * A model that reorders the best fused candidates and says in a few words why each fits. Any AI
 * provider can implement it; search treats it as optional and never trusts its output blindly.
 */
export interface RerankCandidate {
  id: number
  text: string
  authorHandle: string
  /** Summary, tags and image text when the pipeline has them. */
  extra: string
}

export interface RerankedItem {
  id: number
  reason: string
  /** Optional 0-1 judgement; when present it becomes the result's relevance. */
  score?: number
}

export interface Reranker {
  readonly name: string
  rerank(query: string, candidates: RerankCandidate[], signal?: AbortSignal): Promise<RerankedItem[]>
}

/** A provider's rerank call in search's shape; null for the local provider (it has no judging model). */
export function providerReranker(p: AiProvider): Reranker | null {
  if (p.name === 'local' || !p.rerank) return null
  const rerank = p.rerank.bind(p)
  return {
    name: `${p.name}:${p.model}`,
    rerank: async (query, candidates, signal) => (await rerank(query, candidates, signal)).items,
  }
}

export type RerankOutcome =
  | { state: 'applied'; order: Array<{ id: number; reason: string; score: number | null }> }
  | { state: 'failed'; error: string }

/**
 * Runs the reranker with a deadline and keeps only ids that were candidates (each once, reason
 * non-empty); candidates the model left out follow in their fused order. Any failure leaves the
 * fused order standing.
 */
export async function runRerank(reranker: Reranker, query: string, candidates: RerankCandidate[], timeoutMs: number): Promise<RerankOutcome> {
  const ctl = new AbortController()
  let timer: NodeJS.Timeout | undefined
  try {
    const items = await Promise.race([
      reranker.rerank(query, candidates, ctl.signal),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
      }),
    ])
    if (!Array.isArray(items)) throw new Error('the reranker did not return a list')
    const allowed = new Set(candidates.map((c) => c.id))
    const seen = new Set<number>()
    const order: Array<{ id: number; reason: string; score: number | null }> = []
    for (const it of items) {
      const id = Number(it?.id)
      if (!allowed.has(id) || seen.has(id)) continue
      seen.add(id)
      const reason = typeof it.reason === 'string' ? it.reason.trim().slice(0, 300) : ''
      const score = typeof it.score === 'number' && Number.isFinite(it.score) ? Math.min(1, Math.max(0, it.score)) : null
      order.push({ id, reason, score })
    }
    if (order.length === 0) throw new Error('the reranker returned none of the candidates')
    for (const c of candidates) if (!seen.has(c.id)) order.push({ id: c.id, reason: '', score: null })
    return { state: 'applied', order }
  } catch (e) {
    ctl.abort()
    return { state: 'failed', error: e instanceof Error ? e.message : String(e) }
  } finally {
    clearTimeout(timer)
  }
}

/** The model's 0-1 judgement weighs 0.7, the offline evidence 0.3: a model's "exact answer" with no word matched stays below a confirmed match. */
export const RERANK_MODEL_WEIGHT = 0.7
export const blendRelevance = (model: number, offline: number): number =>
  Math.min(1, Math.max(0, RERANK_MODEL_WEIGHT * model + (1 - RERANK_MODEL_WEIGHT) * offline))

const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s[0].toLowerCase() + s.slice(1) : s)

/** Candidates in the model's order, relevance blended and reason "Model: … · offline evidence". */
export function applyOrder<T extends { id: number; relevance: number; reason: string }>(
  cands: T[], order: Array<{ id: number; reason: string; score: number | null }>,
): T[] {
  const byId = new Map(cands.map((c) => [c.id, c]))
  return order.map((o) => {
    const c = byId.get(o.id)!
    return {
      ...c,
      relevance: o.score === null ? c.relevance : blendRelevance(o.score, c.relevance),
      reason: o.reason ? `Model: ${o.reason} · ${lowerFirst(c.reason)}` : c.reason,
    }
  })
}
