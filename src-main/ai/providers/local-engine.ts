import type { PostMedia, PostUrl } from '../../../src-shared/schemas/posts.ts'
import {
  classifyAction, classifySentiment, createCategorizer, createTagVocabulary, embedText, extractEntities, loadGazetteer,
  readText, suggestTags, summarize, type Categorizer, type CategoryDef, type CategoryExample, type Entities, type SentimentResult, type TagVocabulary,
} from '../local/index.ts'
import { postText } from '../local/categorizer.ts'
import { decodeEntities } from '../local/text.ts'
import { buildRelatedIndex, openRelatedIndex, type RelatedIndex, type RelatedIndexInput, type SharedRelatedIndex } from './related-index.ts'

/**
 * The offline models behind the `local` provider, as message handlers: the same code runs in-process
 * (tests, small jobs) and in the worker thread (pipeline), where each handler is one message type.
 */
export const LOCAL_MODEL = 'sheaf-local-1'
/** Name under which local sentence vectors are stored in `embeddings`. */
export const LOCAL_EMBEDDING_MODEL = 'sheaf-wv100'

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
 * What stage 1 reads from a post: its entities, and its sentiment, which needs the same wink-nlp
 * parse (the most expensive step of both), so it is worked out here once and carried to stage 3.
 */
export interface PostReading { id: number; entities: Entities; sentiment: Pick<SentimentResult, 'label' | 'confidence'> }

export interface CategorizeInput { id: number; post: EnginePost; entities: Entities; tags: string[]; vector: Float32Array }

export interface EngineState {
  vocab: TagVocabulary
  categorizer: Categorizer | null
}

export interface EngineConfig {
  existingTags: string[]
  categories: CategoryDef[]
  examples: CategoryExample[]
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

function fallbackTags(post: EnginePost, e: Entities): string[] {
  if (e.domains.length) return [e.domains[0]]
  const m = post.media[0]?.type
  if (m) return [m === 'photo' ? 'image' : 'video']
  if (e.mentions.length) return ['conversation']
  return ['note']
}

export function createEngine(config: EngineConfig): EngineState & {
  entities(posts: EnginePost[]): PostReading[]
  /** `entities` and `sentiment` from stage 1 when there; worked out here otherwise. */
  semantic(items: Array<{ post: EnginePost; entities?: Entities | null; sentiment?: PostReading['sentiment'] | null }>): SemanticResult[]
  categorize(items: CategorizeInput[]): Array<{ id: number; categories: Array<{ categoryId: number; confidence: number }> }>
  normalizeTags(lists: string[][]): string[][]
  configure(c: Partial<EngineConfig>): void
  /** Builds the related-post index; the answer (shared memory) opens it in another engine. */
  relatedBuild(input: RelatedIndexInput): SharedRelatedIndex
  relatedOpen(shared: SharedRelatedIndex): number
  related(ids: number[], k?: number): number[][]
} {
  let related: RelatedIndex | null = null
  const state: EngineState = { vocab: createTagVocabulary(config.existingTags), categorizer: null }
  const configure = (c: Partial<EngineConfig>) => {
    if (c.existingTags) for (const t of c.existingTags) state.vocab.normalize(t)
    if (c.categories) state.categorizer = c.categories.length ? createCategorizer({ categories: c.categories, examples: c.examples ?? [] }) : null
  }
  configure(config)
  return {
    get vocab() { return state.vocab },
    get categorizer() { return state.categorizer },
    configure,
    entities: (posts) => posts.map((post) => {
      // extractEntities reads the decoded text, sentiment the text as saved: one parse when they are the same.
      const doc = readText(post.text)
      const decoded = decodeEntities(post.text)
      const entities = extractEntities(asPost(post), { doc: decoded === post.text ? doc : readText(decoded) })
      const { label, confidence } = classifySentiment(post.text, { doc })
      return { id: post.id, entities, sentiment: { label, confidence } }
    }),
    semantic: (items) => items.map(({ post, entities, sentiment: known }) => {
      const p = asPost(post)
      const doc = readText(post.text)
      const ents = entities ?? extractEntities(p, { doc })
      const sentiment = known ?? classifySentiment(post.text, { doc })
      const tags = suggestTags(p, ents, { vocab: state.vocab, doc })
      // A bare link, emoji or picture yields no keywords; it still gets a tag saying what it is.
      if (tags.length === 0) tags.push(...fallbackTags(post, ents).map((t) => state.vocab.normalize(t)))
      const summary = summarize(p, { ocrText: post.imageText })
      const action = classifyAction(p, ents, sentiment)
      const vector = embedText([postText(p), post.imageText ?? '', ...tags].join(' '))
      return { id: post.id, summary, tags, sentiment: sentiment.label, sentimentConfidence: sentiment.confidence, action, ossReport: ossReportOf(ents), vector }
    }),
    categorize: (items) => items.map((it) => ({
      id: it.id,
      categories: (state.categorizer?.classify(asPost(it.post), it.entities, it.tags, it.vector) ?? [])
        .map((c) => ({ categoryId: Number(c.categoryId), confidence: c.confidence })),
    })),
    relatedBuild: (input) => {
      related = buildRelatedIndex(input)
      return related.shared
    },
    relatedOpen: (shared) => {
      related = openRelatedIndex(shared)
      return shared.n
    },
    related: (ids, k = 5) => ids.map((id) => related?.query(id, k).map((m) => m.id) ?? []),
    normalizeTags: (lists) => lists.map((l) => [...new Set(l.map((t) => state.vocab.normalize(t)).filter(Boolean))]),
  }
}

export type Engine = ReturnType<typeof createEngine>
