import type { PostMedia, PostUrl } from '../../../src-shared/schemas/posts.ts'
import {
  actionPrototypes, classifyAction, classifySentiment, createCategorizer, createTagMerger, createTagVocabulary, ENCODER_MODEL, encodeCategories, extractEntities, gistSentences, loadGazetteer,
  encodeTexts, loadSentenceEncoder, normalize, readText, suggestTags, summarize, type Categorizer, type CategoryDef, type CategoryExample, type CategoryVectors, type Entities, type TagVocabulary,
} from '../local/index.ts'
import { decodeEntities } from '../local/text.ts'
import { buildClusteredIndex, openClusteredIndex, type ClusteredIndex, type ClusteredIndexInput, type SharedClusteredIndex } from '../../vectors/index.ts'

/**
 * The offline models behind the `local` provider, as message handlers: the same code runs in-process
 * (tests, small jobs) and in the worker thread (pipeline), where each handler is one message type.
 */
export const LOCAL_MODEL = 'sheaf-local-1'
/** Name under which local sentence vectors (the sentence encoder's) are stored in `embeddings`. */
export const LOCAL_EMBEDDING_MODEL = ENCODER_MODEL

export interface EnginePost {
  id: number
  text: string
  authorHandle: string
  urls: PostUrl[]
  media: PostMedia[]
  inReplyToPostId: string | null
  quoted: { text: string; authorHandle: string } | null
  /** X's language code for the post (`en`, `es`, `und`…), when the export gave one. */
  lang?: string | null
  /** OCR text and visual tags of the post's images, from vision_analysis. */
  imageText: string | null
}

export interface OssReport { host: string; owner: string; name: string; url: string; language: string | null; topics: string[] }

export interface SemanticResult {
  id: number
  summary: string
  tags: string[]
  sentiment: string
  sentimentConfidence: number
  action: string
  ossReport: OssReport | null
  vector: Float32Array
}

/**
 * What stage 1 reads from a post: its entities. Sentiment is decided in stage 3, where the post's
 * sentence vector is (the model reads it).
 */
export interface PostReading { id: number; entities: Entities }

export interface CategorizeInput { id: number; post: EnginePost; entities: Entities; tags: string[]; vector: Float32Array }

export interface EngineState {
  vocab: TagVocabulary
  categorizer: Categorizer | null
}

export interface EngineConfig {
  existingTags: string[]
  categories: CategoryDef[]
  examples: CategoryExample[]
  /** The categories' sentence vectors (encodeCategories), so this engine need not load the encoder. */
  categoryVectors?: CategoryVectors[]
}

const asPost = (p: EnginePost) => ({
  ...p,
  quoted: p.quoted ? { ...p.quoted, text: p.quoted.text } : null,
}) as unknown as Parameters<typeof extractEntities>[0]

let languages: Set<string> | null = null
const languageNames = () =>
  (languages ??= new Set(loadGazetteer().entries.filter((e) => e.type === 'language').map((e) => e.name.toLowerCase())))

/** Offline OSS report: from the first repository link, with language and topics named in the text. */
export function ossReportOf(entities: Entities): OssReport | null {
  const repo = entities.repos[0]
  if (!repo) return null
  const language = entities.tools.find((t) => languageNames().has(t.toLowerCase())) ?? null
  return { host: repo.host, owner: repo.owner, name: repo.name, url: repo.url, language, topics: entities.topics.slice(0, 8) }
}


/** What the sentence encoder reads beside a post's words: what it quotes, and what its images say. */
const besideText = (post: EnginePost): string =>
  [post.quoted?.text ?? '', ...post.media.map((m) => m.altText ?? ''), (post.imageText ?? '').slice(0, 300)].filter(Boolean).join('\n')

/** What the sentence encoder reads of a post: its words, what it quotes, and what its images say. */
export const encoderText = (post: EnginePost): string => [post.text, besideText(post)].filter(Boolean).join('\n')

/**
 * The texts whose vectors make a post's vector: the post whole, or, for a long post whose sentences
 * are encoded for its gist anyway, those sentences and what is beside them (their mean reads further
 * into the post than the encoder's cut, and the post is not encoded twice).
 */
const vectorTexts = (post: EnginePost, sentences: string[]): string[] =>
  sentences.length ? [...sentences, besideText(post)].filter(Boolean) : [encoderText(post)]

const meanVector = (vs: Float32Array[]): Float32Array => {
  if (vs.length === 1) return vs[0]
  const out = new Float32Array(vs[0].length)
  for (const v of vs) for (let d = 0; d < out.length; d++) out[d] += v[d]
  return normalize(out)
}

export function createEngine(config: EngineConfig): EngineState & {
  entities(posts: EnginePost[]): PostReading[]
  /** `entities` from stage 1 when there; worked out here otherwise. */
  semantic(items: Array<{ post: EnginePost; entities?: Entities | null }>): Promise<SemanticResult[]>
  categorize(items: CategorizeInput[]): Promise<Array<{ id: number; categories: Array<{ categoryId: number; confidence: number }> }>>
  /** Sentence vectors of any texts (queries, category descriptions), unit length. */
  encode(texts: string[]): Promise<Float32Array[]>
  normalizeTags(lists: string[][]): string[][]
  configure(c: Partial<EngineConfig>): Promise<void>
  /** Builds the related-post index; the answer (shared memory) opens it in another engine. */
  relatedBuild(input: ClusteredIndexInput): SharedClusteredIndex
  relatedOpen(shared: SharedClusteredIndex): number
  related(ids: number[], k?: number): number[][]
  /** Lets the related-post index go (its memory, or the rows search lent it). */
  relatedClose(): void
} {
  let related: ClusteredIndex | null = null
  const state: EngineState = { vocab: createTagVocabulary(config.existingTags), categorizer: null }
  /** Categories are read by meaning, so building them loads the encoder: only when first needed. */
  let categories = { defs: config.categories, examples: config.examples, vectors: config.categoryVectors }
  let categorizer: Promise<Categorizer | null> | null = null
  const configure = async (c: Partial<EngineConfig>) => {
    if (c.existingTags) merger.know(c.existingTags)
    if (c.categories) {
      categories = { defs: c.categories, examples: c.examples ?? [], vectors: c.categoryVectors }
      categorizer = null
      state.categorizer = await currentCategorizer()
    }
  }
  const build = async (): Promise<Categorizer | null> => {
    const { defs, examples, vectors } = categories
    if (defs.length === 0) return null
    if (vectors) return createCategorizer({ categories: defs, examples, vectors })
    const encoder = await loadSentenceEncoder()
    return createCategorizer({ categories: defs, ...(await encodeCategories(defs, examples, (t) => encoder.encode(t))) })
  }
  const currentCategorizer = () => (categorizer ??= build())
  const encode = encodeTexts
  const merger = createTagMerger(state.vocab, encode)
  return {
    get vocab() { return state.vocab },
    get categorizer() { return state.categorizer },
    configure,
    entities: (posts) => posts.map((post) => ({ id: post.id, entities: extractEntities(asPost(post), { doc: readText(decodeEntities(post.text)) }) })),
    encode,
    semantic: async (items) => {
      const known = items.map(({ post, entities }) => entities ?? extractEntities(asPost(post), { doc: readText(decodeEntities(post.text)) }))
      // One encoder call for every post: its text, or the sentences of a long post whose gist is chosen by meaning.
      const sentences = items.map(({ post }, i) => gistSentences(asPost(post), { thread: known[i].kind === 'thread' }))
      const texts = items.map(({ post }, i) => vectorTexts(post, sentences[i]))
      const all = await encode(texts.flat())
      let next = 0
      const parts = texts.map((t) => all.slice(next, (next += t.length)))
      const vectors = parts.map(meanVector)
      const sentenceVectors = sentences.map((s, i) => parts[i].slice(0, s.length))
      const prototypes = await actionPrototypes(await loadSentenceEncoder())
      const out: SemanticResult[] = []
      for (const [i, { post }] of items.entries()) {
        const p = asPost(post)
        const doc = readText(post.text)
        const ents = known[i]
        const sentiment = classifySentiment(post.text, { doc, vector: vectors[i] })
        // Near-synonyms of tags already in the library ("devs", "developers") read as those.
        const tags = await merger.resolve(suggestTags(p, ents, { vocab: state.vocab, doc }))
        const summary = summarize(p, { ocrText: post.imageText, thread: ents.kind === 'thread', sentenceVectors: sentenceVectors[i] })
        const action = classifyAction(p, ents, sentiment, { vector: vectors[i], prototypes })
        out.push({ id: post.id, summary, tags, sentiment: sentiment.label, sentimentConfidence: sentiment.confidence, action, ossReport: ossReportOf(ents), vector: vectors[i] })
      }
      return out
    },
    categorize: async (items) => {
      const c = await currentCategorizer()
      return items.map((it) => ({
        id: it.id,
        categories: (c?.classify(asPost(it.post), it.entities, it.tags, it.vector) ?? []).map((x) => ({ categoryId: Number(x.categoryId), confidence: x.confidence })),
      }))
    },
    relatedBuild: (input) => {
      related = buildClusteredIndex(input)
      return related.shared
    },
    relatedOpen: (shared) => {
      related = openClusteredIndex(shared)
      return shared.n
    },
    related: (ids, k = 5) => ids.map((id) => related?.query(id, k).map((m) => m.id) ?? []),
    relatedClose: () => {
      related = null
    },
    normalizeTags: (lists) => lists.map((l) => [...new Set(l.map((t) => state.vocab.normalize(t)).filter(Boolean))]),
  }
}

export type Engine = ReturnType<typeof createEngine>
