import type { ACTIONS } from '../../../src-shared/schemas/bookmarks.ts'
import type { NormalizedPost } from '../../../src-shared/schemas/posts.ts'
import type { Entities } from './entities.ts'
import type { SentimentResult } from './sentiment.ts'
import { cleanText } from './text.ts'
import { dot } from './word-vectors.ts'

export type Action = (typeof ACTIONS)[number]

/**
 * Suggested actions (the `action` field of Knowledge), decided offline. Two kinds of evidence add up
 * for each action (docs/understanding.md#suggested-action):
 *
 * 1. Cues in the post (any language): an attached video or a video-site link (watch), a repository or
 *    package link or install words (try), a long post, a self-thread, an article or blog link, or any
 *    outside link (read_later), tutorial/guide/cheatsheet words, numbered lists, documentation sites
 *    (reference), humour cues and pictures (share), a short reply in someone's conversation (archive).
 * 2. Meaning, when the post's sentence vector is given: its cosine to a few sentences describing each
 *    action (ACTION_DESCRIPTIONS), counted only above what unrelated text scores, so a post in a
 *    language the English encoder does not read well is left to the cues.
 *
 * The highest total wins; ties go in the order reference, try, watch, read_later, share. archive
 * starts at ARCHIVE_BASE and wins only when nothing else reaches that: it means "kept for the
 * record, no follow-up suggested".
 */
type PostLike = Pick<NormalizedPost, 'text' | 'media' | 'urls'>

const REFERENCE_CUES = /\b(tutorial|guide|cheat ?sheet|docs|documentation|reference|roadmap|course|handbook|playbook|step[- ]by[- ]step|how to|how-to|explained|checklist|resources|template|bookmark this|save this|cookbook|primer|crash course|interview questions|best practices)\b/i
const LIST_CUE = /(^|\n)\s*(\d{1,2}[.)/]|[-•▪◦✅→👉]\s)/gu
const TRY_CUES = /\b(try (it|this|out)|install|npm i|pip install|brew install|cargo add|open[- ]source[ds]?|just (launched|released|shipped|dropped)|now available|introducing|(is|are|was|been) released|launching|public beta|beta access|free tier|sign up|get started|self[- ]host(ed)?|cli|plugin|extension|repo)\b/i
const WATCH_CUES = /\b(watch|livestream|live stream|video|talk|keynote|podcast|episode|webinar|stream|trailer|demo)\b/i
const READ_CUES = /\b(article|essay|paper|blog post|blog|newsletter|read (more|it|this)|long read|deep dive|report|study|research|whitepaper|write-?up|story)\b/i
const VIDEO_HOSTS = /(^|\.)(youtube\.com|youtu\.be|vimeo\.com|twitch\.tv|loom\.com|tiktok\.com)$/
const DOC_HOSTS = /(^docs\.|^developer\.|^devdocs\.|readthedocs\.io$|^developer\.mozilla\.org$|^learn\.microsoft\.com$|^roadmap\.sh$)/
const READ_HOSTS = /(^|\.)(medium\.com|substack\.com|arxiv\.org|nytimes\.com|theverge\.com|wired\.com|economist\.com|ft\.com|bloomberg\.com|paulgraham\.com|dev\.to|hashnode\.dev|ghost\.io|notion\.site)$|^blog\.|\/blog\//
const ARTICLE_LINK = /^https?:\/\/(x|twitter)\.com\/i\/article\//
const HUMOR = /(😂|🤣|😭|💀|\blol\b|\blmao\b|\blmfao\b|\bhaha+\b|\bmeme\b|\bjoke\b|\bfunny\b|\bhilarious\b)/i

/** A few sentences describing each action; the post's vector is compared with each (the best counts). */
export const ACTION_DESCRIPTIONS: Record<Action, readonly string[]> = {
  read_later: [
    'A long article, essay or blog post worth reading in full',
    'A thread explaining an idea in depth',
    'A research paper or report and its findings',
    'An analysis of the news and what it means',
  ],
  reference: [
    'A tutorial or guide on how to do something',
    'Documentation, a cheat sheet or a list of tips to come back to',
    'Useful data, a map or a chart with facts and numbers',
    'A curated list of resources, tools and links',
  ],
  try: [
    'A new open-source tool, library or app you can install and use',
    'A new release of a product, now available to try',
    'A code snippet or command that does something useful',
  ],
  watch: [
    'A video, talk or livestream to watch',
    'A podcast episode or recorded interview',
    'A conference keynote or webinar recording',
  ],
  share: [
    'A funny joke or meme',
    'A wholesome, heartwarming or inspiring moment',
    'Surprising news everyone should hear about',
    'A beautiful photo or artwork',
  ],
  archive: [
    'A short reply in a conversation',
    'Thanks, congratulations, agreed, me too',
    'A personal update about my day',
    'Small talk with friends',
  ],
}

export type ActionPrototypes = { model: string; vectors: Record<Action, Float32Array[]> }
type Encoder = { model: string; encode(texts: readonly string[]): Promise<Float32Array[]> }

const prototypes = new WeakMap<Encoder, Promise<ActionPrototypes>>()
/** The descriptions' vectors, encoded once per encoder (one call of ~22 sentences). */
export const actionPrototypes = (encoder: Encoder): Promise<ActionPrototypes> => {
  let p = prototypes.get(encoder)
  if (!p) {
    const names = Object.keys(ACTION_DESCRIPTIONS) as Action[]
    p = encoder.encode(names.flatMap((a) => ACTION_DESCRIPTIONS[a])).then((vs) => {
      const vectors = {} as Record<Action, Float32Array[]>
      let i = 0
      for (const a of names) vectors[a] = ACTION_DESCRIPTIONS[a].map(() => vs[i++])
      return { model: encoder.model, vectors }
    })
    prototypes.set(encoder, p)
  }
  return p
}

/** Below this cosine a description says nothing (unrelated texts score 0.1-0.25 with this encoder). */
const SIM_FLOOR = 0.25
/** Evidence per unit of cosine above the floor: a close match (0.5) is worth a strong cue (1.0). */
const SIM_WEIGHT = 4
/** What archive scores with no evidence at all; another action must beat it. */
export const ARCHIVE_BASE = 0.6

export type ActionDeps = { vector?: Float32Array | null; prototypes?: ActionPrototypes | null }

/** Each action's evidence; the decision is the highest (see classifyAction). Exported for the docs' bench. */
export const actionScores = (post: PostLike, entities: Entities, sentiment?: Pick<SentimentResult, 'label'> | null, deps: ActionDeps = {}): Record<Action, number> => {
  const text = post.text
  const s: Record<Action, number> = { reference: 0, try: 0, watch: 0, read_later: 0, share: 0, archive: ARCHIVE_BASE }
  const hosts = entities.domains
  const concepts = new Set(entities.concepts.map((c) => c.toLowerCase()))
  const clean = cleanText(text, { keepHandles: false })
  const chars = clean.length

  if (REFERENCE_CUES.test(text)) s.reference += 1
  if (['tutorial', 'guide', 'cheatsheet', 'documentation', 'roadmap', 'course', 'explainer'].some((c) => concepts.has(c))) s.reference += 0.6
  if ((text.match(LIST_CUE) ?? []).length >= 3) s.reference += 0.6
  if (hosts.some((h) => DOC_HOSTS.test(h))) s.reference += 1

  if (entities.repos.length > 0) s.try += 1.5
  if (TRY_CUES.test(text)) s.try += entities.tools.length + entities.products.length > 0 || entities.repos.length > 0 ? 1 : 0.6
  if (hosts.some((h) => /(^|\.)(producthunt\.com|chromewebstore\.google\.com|apps\.apple\.com|play\.google\.com|marketplace\.visualstudio\.com)$/.test(h))) s.try += 1

  const video = post.media.find((m) => m.type === 'video')
  if (video) s.watch += video.durationMs !== null && video.durationMs < 20_000 ? 0.7 : 1.2
  if (hosts.some((h) => VIDEO_HOSTS.test(h))) s.watch += 1.2
  if (WATCH_CUES.test(text)) s.watch += 0.5

  if (text.length > 600) s.read_later += 1.2
  if (entities.kind === 'thread') s.read_later += 0.8
  if (post.urls.some((u) => ARTICLE_LINK.test(u.expandedUrl))) s.read_later += 1.5
  if (hosts.some((h) => READ_HOSTS.test(h)) || post.urls.some((u) => READ_HOSTS.test(u.expandedUrl))) s.read_later += 1.2
  if (READ_CUES.test(text)) s.read_later += 0.5
  // A link out (not to X itself, a video site or a repository, which have their own rules) is something to read.
  if (post.urls.some((u) => outsideLink(u.expandedUrl))) s.read_later += 0.7

  if (HUMOR.test(text) || concepts.has('meme') || concepts.has('joke') || concepts.has('satire')) s.share += 1.2
  if (s.share > 0 && post.media.length > 0 && text.length < 200) s.share += 0.3
  if (s.share > 0 && sentiment?.label === 'positive') s.share += 0.2
  // A picture with a few words of its own, not part of someone else's conversation: the kind of post people pass on.
  if (post.media.some((m) => m.type !== 'video') && chars < 140 && entities.kind !== 'reply') s.share += 0.7

  // A short reply in someone else's conversation, with no link or picture: nothing to follow up.
  if (entities.kind === 'reply' && post.urls.length === 0 && post.media.length === 0 && chars < 140) s.archive += 0.5

  const v = deps.vector
  const protos = deps.prototypes
  // The encoder needs words to read: a bare link, picture or handle would match 'short reply' by its emptiness.
  if (v && v.length && protos && clean.split(/\s+/).filter((w) => /\p{L}{2}/u.test(w)).length >= 3) {
    for (const a of Object.keys(s) as Action[]) {
      let best = -1
      for (const d of protos.vectors[a]) best = Math.max(best, dot(v, d))
      s[a] += SIM_WEIGHT * Math.max(0, best - SIM_FLOOR)
    }
  }
  return s
}

const ORDER: Action[] = ['reference', 'try', 'watch', 'read_later', 'share', 'archive']

export const classifyAction = (post: PostLike, entities: Entities, sentiment?: Pick<SentimentResult, 'label'> | null, deps: ActionDeps = {}): Action => {
  const s = actionScores(post, entities, sentiment, deps)
  let best: Action = 'archive'
  let bestScore = -Infinity
  for (const a of ORDER) if (s[a] > bestScore) [best, bestScore] = [a, s[a]]
  return best
}

const OWN_HOSTS = /^(www\.|mobile\.)?(x|twitter)\.com$|^t\.co$/
const CODE_HOSTS = /(^|\.)(github\.com|gitlab\.com|codeberg\.org|bitbucket\.org|npmjs\.com|pypi\.org|crates\.io)$/
const outsideLink = (u: string): boolean => {
  let host: string
  try {
    host = new URL(u).hostname.toLowerCase()
  } catch {
    return false
  }
  return !OWN_HOSTS.test(host) && !VIDEO_HOSTS.test(host.replace(/^www\./, '')) && !CODE_HOSTS.test(host)
}
