import type { Knowledge } from '../../../src-shared/schemas/bookmarks.ts'
import type { NormalizedPost } from '../../../src-shared/schemas/posts.ts'
import { classifyAction } from './action.ts'
import { postText, type Categorizer, type CategoryScore } from './categorizer.ts'
import { extractEntities, type Entities } from './entities.ts'
import { readText } from './nlp.ts'
import { classifySentiment, type SentimentResult } from './sentiment.ts'
import { summarize } from './summarize.ts'
import { createTagVocabulary, type TagVocabulary } from './tag-vocabulary.ts'
import { suggestTags } from './tags.ts'
import { embedText } from './word-vectors.ts'

export type LocalAnalysisDeps = {
  /** The library's tag vocabulary, so tags stay canonical across posts (a fresh one otherwise). */
  vocab?: TagVocabulary
  /** When given, categories are assigned too. */
  categorizer?: Categorizer
  /** OCR text of the post's first image, if the vision stage ran. */
  ocrText?: string | null
  now?: () => Date
}

export type LocalAnalysis = {
  /** Knowledge without relatedIds: those need the whole library (see relatedByVectors). */
  knowledge: Omit<Knowledge, 'relatedIds'>
  entities: Entities
  sentiment: SentimentResult
  categories: CategoryScore[]
  /** Unit-length meaning vector of the post (100-d), for related posts and search. */
  vector: Float32Array
}

type PostLike = Pick<NormalizedPost, 'text' | 'authorHandle' | 'urls' | 'media' | 'inReplyToPostId'> &
  Partial<Pick<NormalizedPost, 'quoted' | 'rawJson'>>

export const analyzePostLocal = (post: PostLike, deps: LocalAnalysisDeps = {}): LocalAnalysis => {
  const doc = readText(post.text)
  const entities = extractEntities(post, { doc })
  const sentiment = classifySentiment(post.text, { doc })
  const tags = suggestTags(post, entities, { vocab: deps.vocab ?? createTagVocabulary(), doc })
  const summary = summarize(post, { ocrText: deps.ocrText })
  const action = classifyAction(post, entities, sentiment)
  const vector = embedText([postText(post), ...tags].join(' '))
  const categories = deps.categorizer ? deps.categorizer.classify(post, entities, tags, vector) : []
  const confidence = categories.length > 0 ? (sentiment.confidence + categories[0].confidence) / 2 : sentiment.confidence
  return {
    knowledge: {
      summary,
      action,
      tags,
      sentiment: sentiment.label,
      confidence: Math.round(confidence * 1000) / 1000,
      analyzedAt: (deps.now?.() ?? new Date()).toISOString(),
      ossReport: null,
    },
    entities,
    sentiment,
    categories,
    vector,
  }
}
