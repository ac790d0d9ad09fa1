import type { NormalizedPost } from '../../../src-shared/schemas/posts.ts'
import type { Entities } from './entities.ts'
import { loadGazetteer, type Gazetteer } from './gazetteer.ts'
import type { SentenceEncoder } from './sentence-encoder.ts'
import { cleanText, simpleWords, stem, STOPWORDS } from './text.ts'
import { dot, normalize } from './word-vectors.ts'

export type CategoryDef = { id: number | string; name: string; slug: string; description: string }
/** A post a person put in a category: its sentence vector, or its text when it has none yet. */
export type CategoryExample = { categoryId: CategoryDef['id']; vector?: Float32Array; text?: string }
export type CategoryScore = { categoryId: CategoryDef['id']; confidence: number }

/** A category's sentence vectors: its phrasings (name and description) and the things it lists. */
export type CategoryVectors = { described: Float32Array[]; items: Float32Array[] }

export type CategorizerOptions = {
  categories: CategoryDef[]
  /** Per category, in order (see encodeCategories). */
  vectors: CategoryVectors[]
  /** A person's choices, each with its vector. */
  examples?: CategoryExample[]
  gazetteer?: Gazetteer
}

export type Categorizer = {
  classify(post: Pick<NormalizedPost, 'text'> & Partial<Pick<NormalizedPost, 'quoted' | 'media' | 'lang'>>, entities: Entities, tags: string[], vector: Float32Array): CategoryScore[]
}

const MAX_CATEGORIES = 3
/**
 * Scores are cosines to each category's prototype (plus small word cues). Confidence is a softmax
 * over them at this temperature: cosines of one post to different topics differ by a few hundredths,
 * so the temperature is small. A second or third category must come within SECOND_MARGIN of the first.
 */
const TEMPERATURE = 0.04
const SECOND_MARGIN = 0.045
const ABSOLUTE_FLOOR = 0.12
/**
 * The encoder reads English; in another language its reading is rough, so the words and known topics a
 * post names (hashtags, products, "illustration") count this many times more. On the judged real posts
 * (bench/real-posts.ts) 2, 3 and 5 all helped the Japanese and Spanish posts; 3 the most.
 */
const OTHER_LANGUAGE_CUES = 3
/** Weight of a category's examples against its description in the prototype, at full strength. */
const EXAMPLE_WEIGHT = 2
/** A post this close to one example of a category counts as that category's kind of post. */
const NEIGHBOUR_COSINE = 0.5

const contentWords = (text: string): string[] => simpleWords(text).filter((w) => w.length > 2 && !STOPWORDS.has(w))

export const postText = (post: Pick<NormalizedPost, 'text'> & Partial<Pick<NormalizedPost, 'quoted' | 'media'>>): string =>
  cleanText([post.text, post.quoted?.text ?? '', ...(post.media ?? []).map((m) => m.altText ?? '')].join('\n'))

/** Ways of saying what a category holds; their mean vector is the category's description. */
export const categoryPhrasings = (c: Pick<CategoryDef, 'name' | 'description'>): string[] => {
  const parts = [c.name, `A post about ${c.name.replace(/&/g, 'and')}.`]
  if (c.description.trim()) parts.push(c.description, `${c.name}: ${c.description}`)
  return parts
}

/** The things a category lists ("Movies, cinema, television series…"): a post close to any one belongs. */
export const categoryItems = (c: Pick<CategoryDef, 'name' | 'description'>): string[] =>
  [...new Set([...c.name.split(/[,&/]/), ...c.description.replace(/[.!]\s*$/, '').split(/[,;:.()]|\s+(?:and|or|such as|like|e\.g\.)\s+/)]
    .map((s) => s.trim()).filter((s) => s.length > 1))]

const mean = (vs: Float32Array[], dim: number) => {
  const m = new Float32Array(dim)
  for (const v of vs) for (let i = 0; i < dim; i++) m[i] += v[i] / vs.length
  return m
}

/**
 * Encodes what the categorizer compares posts with: each category's phrasings and listed things, and
 * the text of examples that have no stored vector yet. Done once per job, wherever the encoder is.
 */
export async function encodeCategories(categories: CategoryDef[], examples: CategoryExample[], encode: SentenceEncoder['encode']): Promise<{ vectors: CategoryVectors[]; examples: CategoryExample[] }> {
  const phrasings = categories.map(categoryPhrasings)
  const listed = categories.map(categoryItems)
  const untexted = examples.filter((e) => !e.vector && e.text)
  const all = await encode([...phrasings.flat(), ...listed.flat(), ...untexted.map((e) => e.text!)])
  let at = 0
  const take = (n: number) => all.slice(at, (at += n))
  const described = phrasings.map((p) => take(p.length))
  const items = listed.map((l) => take(l.length))
  const texted = new Map(untexted.map((e) => [e, take(1)[0]]))
  return {
    vectors: categories.map((_, i) => ({ described: described[i], items: items[i] })),
    examples: examples.flatMap((e) => (e.vector ? [e] : texted.has(e) ? [{ categoryId: e.categoryId, vector: texted.get(e)! }] : [])),
  }
}

/**
 * The listed things the encoder reads as this category's, not clearly as another's. A name it cannot
 * place ("Llama", "Claude", "Grok") sits near unrelated posts as much as near its own kind: two thirds
 * of the Spanish posts were nearest to "Llama" and went to AI & Machine Learning (bench/real-posts.ts).
 * Closer to another category's description by more than ITEM_MARGIN drops it; within it ("cars" for
 * Tools & Products, a hair nearer Design) it stays.
 */
const ITEM_MARGIN = 0.05
const distinctItems = (items: Float32Array[], own: number, descriptions: Float32Array[]): Float32Array[] =>
  items.filter((it) => descriptions.every((d, i) => i === own || dot(it, d) - ITEM_MARGIN <= dot(it, descriptions[own])))

/**
 * Categories by meaning: each category's prototype is the mean sentence vector of its name and
 * description (zero-shot), moved toward the posts people put in it. A post's closeness to a category
 * is half its cosine to that prototype and half its cosine to the nearest thing the category lists;
 * it goes to the nearest categories. Words of the name and description, and gazetteer topics mapped to
 * the category, add a small cue (they help where the sentence model is weak: new product names).
 */
export function createCategorizer(opts: CategorizerOptions): Categorizer {
  const gazetteer = opts.gazetteer ?? loadGazetteer()
  const examples = opts.examples ?? []
  const descriptions = opts.vectors.map(({ described }) => normalize(mean(described, described[0]?.length ?? 0)))
  const cats = opts.categories.map((c, ci) => {
    const desc = descriptions[ci]
    const dim = desc.length
    const items = distinctItems(opts.vectors[ci].items, ci, descriptions)
    const mine = examples.filter((e) => e.categoryId === c.id && e.vector).map((e) => e.vector!)
    const proto = new Float32Array(desc)
    if (mine.length) {
      // A few examples nudge the description; many outweigh it.
      const w = EXAMPLE_WEIGHT * Math.min(1, mine.length / 5)
      const m = normalize(mean(mine, dim))
      for (let i = 0; i < proto.length; i++) proto[i] += w * m[i]
    }
    const keywords = new Set(contentWords(`${c.name} ${c.description}`).map(stem))
    const topicCue = new Set<string>()
    for (const [topic, slug] of Object.entries(gazetteer.topicCategories)) {
      if (slug === c.slug || topic.split(' ').every((w) => keywords.has(stem(w)))) topicCue.add(topic)
    }
    return { def: c, proto: normalize(proto), items, examples: mine, keywords, topicCue }
  })

  const classify: Categorizer['classify'] = (post, entities, tags, vector) => {
    if (cats.length === 0) return []
    const bag = new Set([...contentWords(postText(post)), ...tags.flatMap((t) => t.split(/\s+/))].map(stem))
    const cueWeight = post.lang && !/^en\b/i.test(post.lang) ? OTHER_LANGUAGE_CUES : 1
    const topics = new Set(entities.topics)
    const scored = cats.map((c) => {
      let words = 0
      for (const k of c.keywords) if (bag.has(k)) words++
      let cue = 0
      for (const t of c.topicCue) if (topics.has(t)) cue++
      let neighbour = 0
      for (const ex of c.examples) neighbour = Math.max(neighbour, dot(vector, ex))
      let item = 0
      for (const it of c.items) item = Math.max(item, dot(vector, it))
      const meaning = c.items.length ? (dot(vector, c.proto) + item) / 2 : dot(vector, c.proto)
      const score = meaning + cueWeight * (0.015 * Math.min(words, 3) + 0.02 * Math.min(cue, 2)) + Math.max(0, neighbour - NEIGHBOUR_COSINE)
      return { categoryId: c.def.id, score }
    })
    scored.sort((a, b) => b.score - a.score)
    const top = scored[0].score
    const z = scored.map((s) => Math.exp((s.score - top) / TEMPERATURE))
    const sum = z.reduce((a, b) => a + b, 0)
    return scored
      .map((s, i) => ({ ...s, p: z[i] / sum }))
      .filter((s, i) => i === 0 || (i < MAX_CATEGORIES && s.score >= top - SECOND_MARGIN && s.score >= ABSOLUTE_FLOOR))
      .map((s) => ({ categoryId: s.categoryId, confidence: Math.round(Math.max(0.01, s.p) * 1000) / 1000 }))
  }
  return { classify }
}
