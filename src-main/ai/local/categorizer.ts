import type { NormalizedPost } from '../../../src-shared/schemas/posts.ts'
import type { Entities } from './entities.ts'
import { loadGazetteer, type Gazetteer } from './gazetteer.ts'
import { cleanText, simpleWords, stem, STOPWORDS } from './text.ts'
import { cosine, embedText, embedWords, loadWordVectors, normalize, type WordVectors } from './word-vectors.ts'

export type CategoryDef = { id: number | string; name: string; slug: string; description: string }
export type CategoryExample = { text: string; categoryId: CategoryDef['id'] }
export type CategoryScore = { categoryId: CategoryDef['id']; confidence: number }

export type CategorizerOptions = {
  categories: CategoryDef[]
  /** A person's corrections: posts they put in a category. They pull that category's centroid. */
  examples?: CategoryExample[]
  vectors?: WordVectors
  gazetteer?: Gazetteer
}

export type Categorizer = {
  classify(post: Pick<NormalizedPost, 'text'> & Partial<Pick<NormalizedPost, 'quoted' | 'media'>>, entities: Entities, tags: string[], vector?: Float32Array): CategoryScore[]
}

const MAX_CATEGORIES = 3
/** A second or third category must reach this share of the best score, and this absolute score. */
const RELATIVE_CUTOFF = 0.75
const ABSOLUTE_CUTOFF = 0.35

const contentWords = (text: string): string[] => simpleWords(text).filter((w) => w.length > 2 && !STOPWORDS.has(w))

export const postText = (post: Pick<NormalizedPost, 'text'> & Partial<Pick<NormalizedPost, 'quoted' | 'media'>>): string =>
  cleanText([post.text, post.quoted?.text ?? '', ...(post.media ?? []).map((m) => m.altText ?? '')].join('\n'))

export const createCategorizer = (opts: CategorizerOptions): Categorizer => {
  const vectors = opts.vectors ?? loadWordVectors()
  const gazetteer = opts.gazetteer ?? loadGazetteer()
  const cats = opts.categories.map((c) => {
    const words = contentWords(`${c.name} ${c.name} ${c.description}`)
    const keywords = new Map<string, number>()
    for (const w of words) {
      const i = vectors.indexOf(w)
      keywords.set(stem(w), i >= 0 ? vectors.weight(i) : 1)
    }
    const described = embedWords(words, vectors)
    const examples = (opts.examples ?? []).filter((e) => e.categoryId === c.id).map((e) => embedText(e.text, vectors))
    const centroid = new Float32Array(vectors.dim)
    for (let d = 0; d < vectors.dim; d++) centroid[d] = described[d]
    if (examples.length > 0) {
      // Corrections count twice as much as the description once there are a few of them.
      const k = Math.min(2, examples.length / 2)
      for (const ex of examples) for (let d = 0; d < vectors.dim; d++) centroid[d] += (k * ex[d]) / examples.length
    }
    // Default slugs map from gazetteer topics; custom categories match topics by their own words.
    const topicCue = new Set<string>()
    for (const [topic, slug] of Object.entries(gazetteer.topicCategories)) {
      if (slug === c.slug || topic.split(' ').every((w) => keywords.has(stem(w)))) topicCue.add(topic)
    }
    return { def: c, keywords, centroid: normalize(centroid), examples, topicCue }
  })

  const classify: Categorizer['classify'] = (post, entities, tags, vector) => {
    if (cats.length === 0) return []
    const text = postText(post)
    const v = vector ?? embedText(text, vectors)
    const bag = new Set([...contentWords(text), ...tags.flatMap((t) => t.split(/\s+/)), ...entities.topics.flatMap((t) => t.split(/\s+/))].map(stem))
    const topicCounts = new Map<string, number>()
    for (const t of entities.topics) topicCounts.set(t, (topicCounts.get(t) ?? 0) + 1)
    const scored = cats.map((c) => {
      let overlap = 0
      for (const [k, w] of c.keywords) if (bag.has(k)) overlap += w
      const keywordScore = Math.min(1, overlap / 2)
      let cue = 0
      for (const t of c.topicCue) if (topicCounts.has(t)) cue += 1
      const cueScore = Math.min(1, cue / 2)
      let exampleScore = 0
      for (const ex of c.examples) exampleScore = Math.max(exampleScore, cosine(v, ex))
      const sim = Math.max(0, cosine(v, c.centroid))
      const score = 0.5 * sim + 0.3 * keywordScore + 0.35 * cueScore + (exampleScore > 0.6 ? 0.5 * exampleScore : 0)
      return { categoryId: c.def.id, score }
    })
    scored.sort((a, b) => b.score - a.score)
    const top = scored[0].score
    const chosen = scored.filter((s, i) => i === 0 || (i < MAX_CATEGORIES && s.score >= top * RELATIVE_CUTOFF && s.score >= ABSOLUTE_CUTOFF))
    return chosen.map((s) => ({ categoryId: s.categoryId, confidence: Math.round(Math.min(1, Math.max(0.05, s.score)) * 1000) / 1000 }))
  }
  return { classify }
}
