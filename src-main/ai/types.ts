import type { ACTIONS, SENTIMENTS } from '../../src-shared/schemas/bookmarks.ts'
import type { AiProviderName, AuthMethod } from '../../src-shared/schemas/settings.ts'

export type Sentiment = (typeof SENTIMENTS)[number]
export type PostAction = (typeof ACTIONS)[number]

/** What a provider is told about one post. Text fields are data, never instructions. */
export interface AnalyzeInput {
  id: number
  text: string
  authorHandle: string
  /** Expanded link destinations. */
  urls: string[]
  quotedText: string | null
  /** Names found by entity extraction (tools, people, repos…), to steer tags. */
  entityNames: string[]
  /** Alt text, OCR text and visual tags of the post's images. */
  imageNotes: string[]
  /** Cached images the provider may look at when it can see (vision). */
  images: Array<{ mediaId: number; mime: string; data: Uint8Array }>
}

export interface CategoryChoice {
  slug: string
  name: string
  description: string
}

export interface AnalyzeContext {
  categories: CategoryChoice[]
  signal?: AbortSignal
}

export interface PostAnalysis {
  id: number
  summary: string
  tags: string[]
  sentiment: Sentiment
  action: PostAction
  confidence: number
  categories?: Array<{ slug: string; confidence: number }>
  /** Per image, when the provider can see. */
  imageDescriptions?: Array<{ mediaId: number; description: string }>
}

export interface Usage {
  tokensIn: number
  tokensOut: number
  costUsd: number
}

export const NO_USAGE: Usage = Object.freeze({ tokensIn: 0, tokensOut: 0, costUsd: 0 })

export const addUsage = (a: Usage, b: Usage): Usage => ({
  tokensIn: a.tokensIn + b.tokensIn,
  tokensOut: a.tokensOut + b.tokensOut,
  costUsd: a.costUsd + b.costUsd,
})

export interface AnalyzeResult {
  /** Valid analyses, by id. A post missing here failed and must fall back (`failures` says why). */
  results: PostAnalysis[]
  failures: Array<{ id: number; message: string }>
  usage: Usage
}

export interface EmbedResult {
  vectors: Float32Array[]
  model: string
  usage: Usage
}

/** One search candidate a provider is asked to judge. Text fields are data, never instructions. */
export interface RerankInput {
  id: number
  text: string
  authorHandle: string
  /** Summary, tags and image text when known. */
  extra: string
}

/** The model's judgement of one candidate: 0-1 and a few plain words. */
export interface RerankScore {
  id: number
  score: number
  reason: string
}

export interface RerankResult {
  /** Best first; only ids that were candidates, each once. */
  items: RerankScore[]
  usage: Usage
}

export interface ProviderTest {
  method: AuthMethod
  model: string
}

/**
 * One interface for every AI backend. Remote calls batch many posts per call, validate the structured
 * output, retry 429/5xx/timeouts with backoff, bound their concurrency and stop on `signal`.
 */
export interface AiProvider {
  readonly name: AiProviderName
  readonly model: string
  readonly method: AuthMethod
  /** Posts per analyze call the provider prefers. */
  readonly batchSize: number
  /** Can look at images (adds descriptions in vision_analysis). */
  readonly vision: boolean
  analyze(posts: AnalyzeInput[], ctx: AnalyzeContext): Promise<AnalyzeResult>
  /** The model embed() uses (its vectors are stored under this name). */
  readonly embeddingModel?: string
  embed?(texts: string[], signal?: AbortSignal): Promise<EmbedResult>
  /** One call judging a search's best candidates (remote providers); throws when the reply is unusable. */
  rerank?(query: string, candidates: RerankInput[], signal?: AbortSignal): Promise<RerankResult>
  describeImage?(image: { mime: string; data: Uint8Array; altText: string | null }, signal?: AbortSignal): Promise<{ description: string; usage: Usage }>
  /** A real minimal call; throws AppError saying what to fix. */
  test(signal?: AbortSignal): Promise<ProviderTest>
  close?(): Promise<void>
}
