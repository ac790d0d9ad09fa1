import { escapeRegExp } from '../../../src-shared/regex.ts'
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
 * Enough letters of its own for a language to be told: X names a language for "Synth60" or "c viene"
 * too, and such guesses are wrong more often than not (the detector's own floor, docs/language.md, is 10).
 */
const LANGUAGE_TAG_LETTERS = 20
/** A character of a script written without spaces says about as much as two letters of one with them. */
const hasWords = (text: string): boolean => {
  const t = cleanText(text, { keepHandles: false })
  return (t.match(/\p{L}/gu)?.length ?? 0) + (t.match(/[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\p{sc=Thai}]/gu)?.length ?? 0) >= LANGUAGE_TAG_LETTERS
}

const UPPER = /^\p{Lu}/u

/** The post writes these words capitalised, one after another ("Saudi Arabia", not "saudi arabia" or "Por aquí"). */
const writtenCapitalised = (text: string, words: string[]): boolean =>
  new RegExp(`(?<![\\p{L}\\p{N}])${words.map(escapeRegExp).join('\\s+')}(?![\\p{L}\\p{N}])`, 'giu').exec(text)?.[0].split(/\s+/).every((w) => UPPER.test(w)) ?? false

/**
 * Names of two or three words, kept whole ("Media Query Mario", "Saudi Arabia"): runs of proper nouns
 * in the post's reading, written capitalised. Their words are not offered again as keywords on their own.
 */
const properNames = (doc: TextDoc): string[] => {
  const out: string[] = []
  let run: string[] = []
  const flush = () => {
    if (run.length >= 2 && run.length <= 3 && writtenCapitalised(doc.text, run)) out.push(run.join(' '))
    run = []
  }
  for (const t of doc.tokens) {
    if (t.pos === 'PROPN' && t.type === 'word' && t.normal.length > 1 && !STOPWORDS.has(t.normal)) run.push(t.normal)
    else flush()
  }
  flush()
  return [...new Set(out)]
}

/**
 * The same for a post in another language, whose words the English reading cannot tag: runs of two or
 * three capitalised words, leaving out a sentence's first word (capitalised for its place, not as a
 * name: "El miércoles") and a leading word of two letters ("En Arc").
 */
const capitalisedRuns = (text: string): string[] => {
  const out: string[] = []
  for (const sentence of cleanText(text, { keepHandles: false }).split(/[.!?:;¿¡…\n"“”«»()[\]|=>·•-]+/)) {
    const words = sentence.trim().split(/\s+/).slice(1)
    let run: string[] = []
    const flush = () => {
      // A leading word of two letters is an article or preposition more often than a name ("En Arc", "La cuenta").
      if (run.length > 0 && [...run[0]].length <= 2) run = run.slice(1)
      if (run.length >= 2 && run.length <= 3) out.push(run.join(' ').toLowerCase())
      run = []
    }
    for (const w of words) {
      if (/^\p{Lu}[\p{Ll}\p{M}]+$/u.test(w)) run.push(w)
      else flush()
    }
    flush()
  }
  return [...new Set(out)]
}

/** CSS declarations and inline code are not what a post is about ("justify-content: auto;" gave #auto #content). */
const withoutCode = (text: string): string => text.replace(/`[^`\n]*`/g, ' ').replace(/[\w-]+\s*:\s*[^;\n{}]*;/g, ' ').replace(/\b[a-z]+(?:-[a-z]+)+\b/g, (w) => (/^(?:[a-z]+-)+[a-z]+$/.test(w) && /[;{}:]/.test(text) ? ' ' : w))

/** Nouns that name no subject: a post is not "about" its guys, problem or yesterday. */
const FILLER = new Set((
  'guy guys folks friend friends problem problems issue issues info information detail details user users other others thanks ' +
  'hour hours minute minutes second seconds yesterday tomorrow tonight morning evening date side list fact facts period change changes ' +
  'access answer answers question questions purpose context everyone everybody anybody nobody stuff kind sort bit lots reason reasons ' +
  'idea ideas case cases end way ways place life world home click check update updates news word words piece number numbers type types ' +
  'version versions example examples step steps result results level levels area areas matter job jobs team teams moment moments ' +
  'chance hey hello wow lol omg'
).split(' '))

/** A gazetteer concept the post only uses as a verb ("continue to learn") is no subject either. */
const usedOnlyAsVerb = (doc: TextDoc | undefined, concept: string): boolean => {
  if (!doc || concept.includes(' ')) return false
  const key = stem(concept.toLowerCase())
  const uses = doc.tokens.filter((t) => t.type === 'word' && stem(t.normal) === key)
  return uses.length > 0 && uses.every((t) => t.pos === 'VERB' || t.pos === 'AUX')
}

/** Broad gazetteer topics that say little as tags on their own. */
const WEAK_TOPICS = new Set(['tools', 'business', 'lifestyle', 'news', 'learning'])

/**
 * Keywords: content words that are rare in general English (high SIF weight), repeated ones first,
 * e.g. "garbage", "collectors" in a post about garbage collectors.
 */
const keywords = (text: string, vectors: WordVectors, n: number, skip: Set<string>): string[] => {
  const counts = new Map<string, { word: string; score: number }>()
  for (const w of simpleWords(withoutCode(cleanText(text, { keepHandles: false })).replace(/#[\p{L}\p{N}_]+/gu, ' '))) {
    if (w.length < 4 || STOPWORDS.has(w) || FILLER.has(w) || /\d/.test(w) || skip.has(w)) continue
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
  const english = readsAsEnglish(post.lang)
  // In another language a name is written capitalised; "la imagen" is not Google's Imagen.
  const named = [...entities.tools, ...entities.products, ...entities.companies].filter((n) => english || writtenCapitalised(post.text, n.split(/\s+/)) || /[A-Z].*[A-Z]|\d/.test(n))
  for (const name of named.slice(0, 4)) push(name)
  for (const r of entities.repos.slice(0, 1)) push(r.name)
  for (const h of entities.hashtags.slice(0, 3)) if (h.length >= 2 && !/^\d+$/.test(h)) push(h)
  const strong = entities.topics.filter((t) => !WEAK_TOPICS.has(t))
  for (const t of strong.slice(0, 2)) push(t)
  for (const c of entities.concepts.filter((c) => !usedOnlyAsVerb(deps.doc, c)).slice(0, 2)) push(c)
  const names = english ? (deps.doc ? properNames(deps.doc) : []) : capitalisedRuns(post.text)
  for (const n of names.slice(0, 2)) push(n)
  // A post with no named thing, hashtag or topic gets its rarest noun; past that one, a post's nouns were
  // mostly filler on the judged real posts ("techniques", "outcomes", "copy": bench/real-posts.ts).
  if (out.length === 0 && english) {
    const text = [post.text, post.quoted?.text ?? '', ...(post.media ?? []).map((m) => m.altText ?? '')].join('\n')
    const skip = deps.doc ? notNouns(deps.doc) : new Set<string>()
    for (const w of names.flatMap((n) => n.split(' '))) skip.add(w)
    for (const k of keywords(text, deps.vectors ?? loadWordVectors(), 1, skip)) push(k)
  }
  const language = languageTag(post.lang)
  if (language && hasWords(post.text)) push(language)
  for (const t of entities.topics) {
    if (out.length >= min) break
    push(t)
  }
  for (const p of [...entities.places, ...entities.organisations, ...entities.people]) {
    if (out.length >= min) break
    if (english || writtenCapitalised(post.text, p.split(/\s+/))) push(p)
  }
  return withoutParts(out)
}

/** A tag whose words are all in another of the post's tags adds nothing: "data" beside "data engineering". */
const withoutParts = (tags: string[]): string[] =>
  tags.filter((t) => !tags.some((u) => u !== t && u.split(' ').length > t.split(' ').length && t.split(' ').every((w) => u.split(' ').includes(w))))
