import type { SearchMedia } from '../../src-shared/schemas/search.ts'
import { searchMediaKinds, type Db, type SearchDocument } from '../store/index.ts'
import { COSINE_FLOOR, lexicalEvidence, relevanceOf, sentence } from './evidence.ts'
import { RRF_K, type Fused } from './candidates.ts'
import { languageName } from './language-phrases.ts'
import type { Understanding } from './query-understanding.ts'
import { descending } from './word-memory.ts'

export type Explained = { id: number; doc: SearchDocument; relevance: number; reason: string; rrf: number }

/** The kinds of media each post of the pool has (read when the query's words ask for a kind: mediaOfPool). */
export type PoolMedia = ReadonlyMap<number, ReadonlySet<SearchMedia>>
const NO_MEDIA: PoolMedia = new Map()

/** The pool's media kinds when the query's words hint at one ("… screenshot"), else none read. */
export function mediaOfPool(db: Db, ids: readonly number[], q: Understanding): PoolMedia {
  if (q.parsed.mediaHints.length === 0) return NO_MEDIA
  const out = new Map<number, Set<SearchMedia>>()
  for (const { id, kind } of searchMediaKinds(db, ids)) {
    const kinds = out.get(id) ?? new Set<SearchMedia>()
    out.set(id, kinds.add(kind))
  }
  return out
}

/**
 * Each fused candidate with its relevance (0-1, from the evidence it shows) and a sentence saying why
 * it matched, in the order of that relevance (RRF settles ties); a query of filters only keeps its order.
 */
export function explainResults(pool: readonly Fused[], docs: ReadonlyMap<number, SearchDocument>, q: Understanding, media: PoolMedia = NO_MEDIA): Explained[] {
  const p = q.parsed
  const filterParts = filterReasons(q)
  const scored = pool.filter((r) => docs.has(r.id)).map((r) => {
    const doc = docs.get(r.id)!
    const lex = lexicalEvidence(doc, q.matchers, p.phrases)
    const parts = [...lex.reasonParts]
    if (r.cosine !== null && r.cosine >= COSINE_FLOOR) parts.push('similar in meaning to your search')
    const hint = p.mediaHints.find((h) => media.get(r.id)?.has(h))
    if (hint) parts.push(`has ${hint === 'image' ? 'an image' : 'a video'}, as your words suggest`)
    parts.push(...filterParts)
    const relevance = q.hasText
      ? relevanceOf({ bm25: r.bm25, cosine: r.cosine, ...lex }, q.matchers.length + p.phrases.length, q.meaningWeight)
      : 1
    return { id: r.id, doc, relevance, reason: sentence(parts), rrf: r.rrf + (hint ? 0.5 / RRF_K : 0) }
  })
  if (q.hasText) scored.sort((a, b) => descending(a.relevance, b.relevance) || descending(a.rrf, b.rrf))
  return scored
}

/** The filters the query asked for, as the reasons say them ("by @ann", "posted last month"). */
function filterReasons({ parsed: p, category: cat }: Understanding): string[] {
  const out: string[] = []
  if (p.author) out.push(`by @${p.author}`)
  if (cat) out.push(`in ${cat.name}`)
  for (const h of p.has) out.push(h === 'image' ? 'has an image' : h === 'video' ? 'has a video' : 'has a link')
  if (p.lang) out.push(`in ${languageName(p.lang)}`)
  if (p.dates) out.push(`posted ${p.dates.label}`)
  for (const x of p.excluded) out.push(`without "${x}"`)
  return out
}
