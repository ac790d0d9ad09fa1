import type { ACTIONS } from '../../../src-shared/schemas/bookmarks.ts'
import type { NormalizedPost } from '../../../src-shared/schemas/posts.ts'
import type { Entities } from './entities.ts'
import type { SentimentResult } from './sentiment.ts'

export type Action = (typeof ACTIONS)[number]

/**
 * Suggested actions (the `action` field of Knowledge), decided offline from cues in the post:
 *
 * | action     | when                                                                                       |
 * |------------|--------------------------------------------------------------------------------------------|
 * | reference  | something to come back to and look things up in: tutorials, guides, docs, cheatsheets,     |
 * |            | roadmaps, courses, "how to", numbered lists of tips, links to documentation sites           |
 * | try        | something to install or use: a repository or package link, a named tool with "try",       |
 * |            | "install", "open source", "just launched/released", "now available", beta invites          |
 * | watch      | a video or stream: attached video, YouTube/Vimeo/Twitch/Loom links, "watch", "livestream",  |
 * |            | talks, podcasts and episodes                                                                |
 * | read_later | long reading: long posts (notes, > 600 characters), self-threads, articles, papers, blog   |
 * |            | posts, newsletters, essays                                                                  |
 * | share      | something to pass on: jokes, memes, funny or wholesome posts (humour cues, laughing emoji)  |
 * | archive    | everything else: kept for the record, no particular follow-up                              |
 *
 * Each rule adds to its action's score; the highest wins, ties go in the table's order. A cue needs
 * to reach 1.0 to count, so a single weak hint ("learn") leaves a post in archive.
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

export const classifyAction = (post: PostLike, entities: Entities, sentiment?: Pick<SentimentResult, 'label'>): Action => {
  const text = post.text
  const s: Record<Action, number> = { reference: 0, try: 0, watch: 0, read_later: 0, share: 0, archive: 0.5 }
  const hosts = entities.domains
  const concepts = new Set(entities.concepts.map((c) => c.toLowerCase()))

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

  if (HUMOR.test(text) || concepts.has('meme') || concepts.has('joke') || concepts.has('satire')) s.share += 1.2
  if (s.share > 0 && post.media.length > 0 && text.length < 200) s.share += 0.3
  if (s.share > 0 && sentiment?.label === 'positive') s.share += 0.2

  const order: Action[] = ['reference', 'try', 'watch', 'read_later', 'share']
  let best: Action = 'archive'
  let bestScore = 0.99
  for (const a of order) {
    if (s[a] > bestScore) [best, bestScore] = [a, s[a]]
  }
  return best
}
