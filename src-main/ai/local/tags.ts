import type { NormalizedPost } from '../../../src-shared/schemas/posts.ts'
import type { Entities } from './entities.ts'
import type { TextDoc } from './nlp.ts'
import { createTagVocabulary, type TagVocabulary } from './tag-vocabulary.ts'
import { cleanText, simpleWords, stem, STOPWORDS } from './text.ts'
import { loadWordVectors, type WordVectors } from './word-vectors.ts'

export type TagDeps = {
  vocab?: TagVocabulary
  vectors?: WordVectors
  min?: number
  max?: number
  /** The post text's wink reading: keywords are then nouns ("books", not "discovering" or "amazing"). */
  doc?: TextDoc
}

const NOUNS = new Set(['NOUN', 'PROPN'])

/** Words the post uses only as something other than a noun (verbs, adjectives, adverbs…). */
const notNouns = (doc: TextDoc): Set<string> => {
  const nouns = new Set(doc.tokens.filter((t) => NOUNS.has(t.pos)).map((t) => t.normal))
  return new Set(doc.tokens.filter((t) => t.type === 'word' && !nouns.has(t.normal)).map((t) => t.normal))
}

type PostLike = Pick<NormalizedPost, 'text'> & Partial<Pick<NormalizedPost, 'quoted' | 'media' | 'lang'>>

/** X's codes for posts without a language of their own (undetermined; media, hashtags or mentions only; no text). */
const NO_LANGUAGE = new Set(['und', 'qme', 'qht', 'qam', 'qct', 'qst', 'zxx', 'art'])

/** The keyword resources are English: a post X marks as another language gets no keywords from its words ("este", "para"). */
const readsAsEnglish = (lang: string | null | undefined): boolean => !lang || /^en\b/i.test(lang) || NO_LANGUAGE.has(lang)

/** The English name of a post's language ("German"), for posts whose words the keyword resources cannot read. */
const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' })
const languageTag = (lang: string | null | undefined): string | null => {
  if (!lang || readsAsEnglish(lang) || !/^[a-z]{2}$/i.test(lang)) return null
  return languageNames.of(lang.toLowerCase()) ?? null
}

/**
 * Names of two or three words, kept whole ("Media Query Mario", "Saudi Arabia"): runs of proper nouns
 * in the post's reading. Their words are not offered again as keywords on their own.
 */
const properNames = (doc: TextDoc): string[] => {
  const out: string[] = []
  let run: string[] = []
  const flush = () => {
    if (run.length >= 2 && run.length <= 3) out.push(run.join(' '))
    run = []
  }
  for (const t of doc.tokens) {
    if (t.pos === 'PROPN' && t.type === 'word' && t.normal.length > 1 && !STOPWORDS.has(t.normal)) run.push(t.normal)
    else flush()
  }
  flush()
  return [...new Set(out)]
}

/** CSS declarations and inline code are not what a post is about ("justify-content: auto;" gave #auto #content). */
const withoutCode = (text: string): string => text.replace(/`[^`\n]*`/g, ' ').replace(/[\w-]+\s*:\s*[^;\n{}]*;/g, ' ').replace(/\b[a-z]+(?:-[a-z]+)+\b/g, (w) => (/^(?:[a-z]+-)+[a-z]+$/.test(w) && /[;{}:]/.test(text) ? ' ' : w))

/** Broad gazetteer topics that say little as tags on their own. */
const WEAK_TOPICS = new Set(['tools', 'business', 'lifestyle', 'news', 'learning'])

/**
 * Keywords: content words that are rare in general English (high SIF weight), repeated ones first,
 * e.g. "garbage", "collectors" in a post about garbage collectors.
 */
const keywords = (text: string, vectors: WordVectors, n: number, skip: Set<string>): string[] => {
  const counts = new Map<string, { word: string; score: number }>()
  for (const w of simpleWords(withoutCode(cleanText(text, { keepHandles: false })).replace(/#[\p{L}\p{N}_]+/gu, ' '))) {
    if (w.length < 4 || STOPWORDS.has(w) || /\d/.test(w) || skip.has(w)) continue
    const i = vectors.indexOf(w)
    // Unknown words are often typos or handles; very common ones carry no topic.
    if (i < 0) continue
    const weight = vectors.weight(i)
    if (weight < 0.8) continue
    const key = stem(w)
    const cur = counts.get(key)
    if (cur) cur.score += weight
    else counts.set(key, { word: w, score: weight })
  }
  return [...counts.values()]
    .sort((a, b) => b.score - a.score)
    .slice(0, n)
    .map((c) => c.word)
}

/**
 * 3-5 tags: named tools/products/companies, hashtags, topics, concepts, whole names, then keywords;
 * a post in another language is also tagged with its language.
 */
export const suggestTags = (post: PostLike, entities: Entities, deps: TagDeps = {}): string[] => {
  const vocab = deps.vocab ?? createTagVocabulary()
  const min = deps.min ?? 3
  const max = deps.max ?? 5
  const out: string[] = []
  const push = (raw: string) => {
    if (out.length >= max || !raw || raw.length > 32) return
    const t = vocab.normalize(raw)
    if (t && !out.includes(t)) out.push(t)
  }
  for (const name of [...entities.tools, ...entities.products, ...entities.companies].slice(0, 4)) push(name)
  for (const r of entities.repos.slice(0, 1)) push(r.name)
  for (const h of entities.hashtags.slice(0, 3)) if (h.length >= 2 && !/^\d+$/.test(h)) push(h)
  const strong = entities.topics.filter((t) => !WEAK_TOPICS.has(t))
  for (const t of strong.slice(0, 2)) push(t)
  for (const c of entities.concepts.slice(0, 2)) push(c)
  const names = deps.doc ? properNames(deps.doc) : []
  for (const n of names.slice(0, 2)) push(n)
  if (out.length < min + 1 && readsAsEnglish(post.lang)) {
    const text = [post.text, post.quoted?.text ?? '', ...(post.media ?? []).map((m) => m.altText ?? '')].join('\n')
    const inNames = new Set(names.flatMap((n) => n.split(' ')))
    const skip = deps.doc ? notNouns(deps.doc) : new Set<string>()
    for (const w of inNames) skip.add(w)
    for (const k of keywords(text, deps.vectors ?? loadWordVectors(), max, skip)) {
      if (out.length >= max) break
      push(k)
    }
  }
  const language = languageTag(post.lang)
  if (language) push(language)
  for (const t of entities.topics) {
    if (out.length >= min) break
    push(t)
  }
  for (const p of [...entities.places, ...entities.organisations, ...entities.people]) {
    if (out.length >= min) break
    push(p)
  }
  return out
}
