import type { SearchDocument } from '../store/index.ts'
import { COSINE_FLOOR, coverageOf, lexicalEvidence, postReader, relevanceOf, sentence } from './evidence.ts'
import { RRF_K, type Fused } from './candidates.ts'
import { languageName } from './language-phrases.ts'
import type { Understanding } from './query-understanding.ts'

export type Explained = { id: number; doc: SearchDocument; relevance: number; reason: string; rrf: number }

/**
 * The best `keep` fused candidates by their relevance (0-1, from the evidence each shows; RRF settles ties),
 * each with a sentence saying why it matched; a query of filters only keeps its order. Every candidate's
 * relevance is needed to order them, but only those kept are explained (most of the evidence's cost).
 */
export function explainResults(pool: readonly Fused[], docs: ReadonlyMap<number, SearchDocument>, q: Understanding, keep = Infinity): Explained[] {
  const p = q.parsed
  const ranked = pool.filter((r) => docs.has(r.id)).map((r) => {
    const doc = docs.get(r.id)!
    const reader = postReader(doc)
    const hint = p.mediaHints.find((h) => (h === 'image' && doc.hasImage) || (h === 'video' && doc.hasVideo))
    const relevance = q.hasText
      ? relevanceOf({ bm25: r.bm25, cosine: r.cosine, coverage: coverageOf(doc, q.matchers, p.phrases, reader) }, q.matchers.length + p.phrases.length, q.meaningWeight)
      : 1
    return { r, doc, reader, hint, relevance, rrf: r.rrf + (hint ? 0.5 / RRF_K : 0) }
  })
  if (q.hasText) ranked.sort((a, b) => b.relevance - a.relevance || b.rrf - a.rrf)
  const filterParts = filterReasons(q)
  return ranked.slice(0, keep).map(({ r, doc, reader, hint, relevance, rrf }) => {
    const parts = [...lexicalEvidence(doc, q.matchers, p.phrases, reader).reasonParts]
    if (r.cosine !== null && r.cosine >= COSINE_FLOOR) parts.push('similar in meaning to your search')
    if (hint) parts.push(`has ${hint === 'image' ? 'an image' : 'a video'}, as your words suggest`)
    parts.push(...filterParts)
    return { id: r.id, doc, relevance, reason: sentence(parts), rrf }
  })
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
