/**
 * A deterministic synthetic library: realistic-looking posts (authors, text, links, hashtags,
 * mentions, media, long "note" posts, quotes, dates, snowflake ids) from a seeded PRNG, and a writer
 * for X's GraphQL Bookmarks envelope (2025+ user schema). Reused by importer, store and search benches.
 */
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import type { NormalizedPost, PostMedia, PostUrl } from '../src-shared/schemas/posts.ts'

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const FIRST = ['Ana', 'Ben', 'Chloe', 'Dev', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kemi', 'Liam', 'Maya', 'Nico', 'Olga', 'Priya', 'Quinn', 'Rosa', 'Sam', 'Tariq', 'Uma', 'Viktor', 'Wen', 'Yara', 'Zoe']
const LAST = ['Park', 'Silva', 'Okafor', 'Müller', 'Rossi', 'Nguyen', 'Kowalski', 'Haddad', 'Tanaka', 'García', 'Larsen', 'Singh', 'Dubois', 'Cohen', 'Ivanova']
const TOPICS: Record<string, string[]> = {
  ai: ['LLM', 'agents', 'evals', 'fine-tuning', 'embeddings', 'RAG', 'inference', 'tokenizer', 'context window', 'benchmarks'],
  web: ['React', 'TypeScript', 'CSS grid', 'bundlers', 'Vite', 'web components', 'accessibility', 'SSR', 'edge functions', 'HTTP caching'],
  data: ['SQLite', 'Postgres', 'DuckDB', 'query plans', 'indexes', 'ETL', 'Parquet', 'streaming', 'materialized views', 'CDC'],
  design: ['typography', 'color systems', 'Figma', 'motion', 'icons', 'layout', 'design tokens', 'prototyping', 'user research', 'onboarding'],
  science: ['CRISPR', 'exoplanets', 'fusion', 'climate models', 'protein folding', 'telescopes', 'batteries', 'vaccines', 'quantum', 'neurons'],
  cooking: ['sourdough', 'paella', 'ramen', 'fermentation', 'knife skills', 'cast iron', 'espresso', 'tortillas', 'curry', 'pickles'],
}
const OPENERS = ['Just shipped', 'Wrote up how', 'Hot take:', 'TIL', 'Thread on', 'A short guide to', 'Why I stopped', 'Underrated:', 'Notes from', 'Finally understood']
const MIDDLES = ['it is faster than you think', 'the docs skip the hard part', 'three mistakes I keep making', 'what nobody tells you', 'a tiny trick that saves hours', 'how we cut costs in half', 'the mental model that clicked', 'benchmarks inside']
const CLOSERS = ['Worth a read.', 'Bookmark this.', 'Details below 👇', 'Curious what you think.', 'Feedback welcome!', '🔥', 'More soon.', '']
const DOMAINS = ['github.com', 'arxiv.org', 'blog.example.dev', 'youtube.com', 'substack.com', 'nytimes.com', 'docs.python.org', 'medium.com', 'news.ycombinator.com']
const LANGS = ['en', 'en', 'en', 'en', 'es', 'de', 'fr', 'ja', 'pt']

const TWITTER_EPOCH = 1288834974657n
const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

export interface GeneratedAuthor { handle: string; name: string; userId: string }

/** Endless posts, one at a time (a 100k library never has to sit in memory). */
export function* iteratePosts(n: number, seed = 42): Generator<NormalizedPost> {
  const rnd = mulberry32(seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1))
  const token = (len: number) => Array.from({ length: len }, () => B62[Math.floor(rnd() * 62)]).join('')
  const authors: GeneratedAuthor[] = Array.from({ length: Math.max(50, Math.ceil(n / 40)) }, (_, i) => {
    const first = pick(FIRST), last = pick(LAST)
    const handle = `${first}${last.replace(/[^A-Za-z]/g, '')}${i}`.slice(0, 15)
    return { handle, name: `${first} ${last}`, userId: String(10_000_000 + i * 7919) }
  })
  const start = Date.UTC(2019, 0, 1)
  const span = Date.UTC(2026, 0, 1) - start
  for (let i = 0; i < n; i++) {
    const a = pick(authors)
    const ms = start + Math.floor(rnd() * span)
    const postId = (((BigInt(ms) - TWITTER_EPOCH) << 22n) | BigInt(int(0, 4_194_303))).toString()
    const topic = pick(Object.keys(TOPICS))
    const terms = TOPICS[topic]
    const urls: PostUrl[] = []
    const parts = [`${pick(OPENERS)} ${pick(terms)}: ${pick(MIDDLES)}.`]
    const long = rnd() < 0.1
    const sentences = long ? int(8, 14) : int(0, 2)
    for (let s = 0; s < sentences; s++) parts.push(`The ${pick(terms)} part matters more than ${pick(terms)}, ${pick(MIDDLES)}.`)
    if (rnd() < 0.35) {
      const expandedUrl = `https://${pick(DOMAINS)}/${topic}/${token(8).toLowerCase()}`
      const url = `https://t.co/${token(10)}`
      urls.push({ url, expandedUrl, displayUrl: expandedUrl.replace(/^https:\/\//, '').slice(0, 25) + '…' })
      parts.push(url)
    }
    if (rnd() < 0.3) parts.push(`#${pick(terms).replace(/[^A-Za-z0-9]/g, '')}`)
    if (rnd() < 0.2) parts.push(`cc @${pick(authors).handle}`)
    parts.push(pick(CLOSERS))
    const media: PostMedia[] = []
    const mr = rnd()
    const mediaCount = mr < 0.3 ? int(1, 4) : mr < 0.4 ? 1 : 0
    for (let m = 0; m < mediaCount; m++) {
      const type = mr < 0.3 ? 'photo' : rnd() < 0.7 ? 'video' : 'animated_gif'
      const key = token(15)
      const base = type === 'photo' ? `https://pbs.twimg.com/media/${key}.jpg` : type === 'video'
        ? `https://pbs.twimg.com/amplify_video_thumb/${postId.slice(0, 19)}/img/${key}.jpg` : `https://pbs.twimg.com/tweet_video_thumb/${key}.jpg`
      const w = pick([1200, 1080, 1920, 720]), h = pick([675, 1080, 1350, 1280])
      media.push({
        type, url: `${base}?name=orig`, thumbnailUrl: `${base}?name=small`,
        videoUrl: type === 'photo' ? null : type === 'video' ? `https://video.twimg.com/amplify_video/${key}/vid/avc1/${w}x${h}/${token(16)}.mp4?tag=14` : `https://video.twimg.com/tweet_video/${key}.mp4`,
        altText: rnd() < 0.25 ? `A picture about ${pick(terms)}` : null,
        width: w, height: h, durationMs: type === 'video' ? int(3000, 180000) : null,
      })
    }
    const likes = Math.floor(Math.pow(rnd(), 3) * 50000)
    yield {
      postId, text: parts.filter(Boolean).join(long ? '\n\n' : ' '),
      authorHandle: a.handle, authorName: a.name, postCreatedAt: new Date(ms).toISOString(), urls, media,
      engagement: { likes, reposts: Math.floor(likes / int(5, 20)), replies: Math.floor(likes / int(10, 50)), quotes: Math.floor(likes / int(30, 200)), bookmarks: Math.floor(likes / int(4, 30)), views: likes * int(20, 80) + int(0, 999) },
      lang: pick(LANGS), conversationId: postId, inReplyToPostId: null, quoted: null, source: 'bookmark', rawJson: '',
    }
  }
}

export const generatePosts = (n: number, seed = 42): NormalizedPost[] => [...iteratePosts(n, seed)]

const X_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const X_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
/** "Sat Nov 09 12:14:18 +0000 2024" */
export function xDate(iso: string): string {
  const d = new Date(iso)
  const p = (v: number) => String(v).padStart(2, '0')
  return `${X_DAYS[d.getUTCDay()]} ${X_MONTHS[d.getUTCMonth()]} ${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000 ${d.getUTCFullYear()}`
}

const userId = (handle: string) => String(10_000_000 + [...handle].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % 1_000_000_000)

/** One post as X's GraphQL tweet result (2025+ schema; long posts as note_tweet). */
export function graphqlTweetResult(p: NormalizedPost): Record<string, unknown> {
  const mediaEntities = p.media.map((m, i) => {
    const id = `${p.postId.slice(0, 15)}${i}`
    const tco = `https://t.co/m${p.postId.slice(-9)}`
    return {
      display_url: `pic.x.com/m${p.postId.slice(-9)}`, expanded_url: `https://x.com/${p.authorHandle}/status/${p.postId}/${m.type === 'photo' ? 'photo' : 'video'}/${i + 1}`,
      id_str: id, indices: [0, 23], media_key: `3_${id}`, media_url_https: m.url.replace(/\?name=orig$/, ''), type: m.type, url: tco,
      ...(m.altText ? { ext_alt_text: m.altText } : {}),
      original_info: { height: m.height, width: m.width },
      ...(m.videoUrl ? { video_info: { aspect_ratio: [16, 9], ...(m.durationMs ? { duration_millis: m.durationMs } : {}), variants: [
        { content_type: 'application/x-mpegURL', url: m.videoUrl.replace(/\.mp4.*$/, '.m3u8') },
        { bitrate: 256000, content_type: 'video/mp4', url: m.videoUrl.replace(/\d+x\d+/, '320x180') },
        { bitrate: 2176000, content_type: 'video/mp4', url: m.videoUrl },
      ] } } : {}),
    }
  })
  const long = p.text.length > 280
  const shown = long ? `${p.text.slice(0, 270)}…` : p.text
  const fullText = (mediaEntities.length ? `${shown} ${mediaEntities[0].url}` : shown).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  const entityUrls = p.urls.map((u) => ({ display_url: u.displayUrl, expanded_url: u.expandedUrl, url: u.url, indices: [0, 23] }))
  return {
    __typename: 'Tweet', rest_id: p.postId,
    core: { user_results: { result: { __typename: 'User', rest_id: userId(p.authorHandle), core: { name: p.authorName, screen_name: p.authorHandle }, is_blue_verified: false } } },
    views: { count: String(p.engagement.views ?? 0), state: 'EnabledWithCount' },
    ...(long ? { note_tweet: { is_expandable: true, note_tweet_results: { result: { id: `note-${p.postId}`, text: p.text, entity_set: { hashtags: [], symbols: [], urls: entityUrls, user_mentions: [] } } } } } : {}),
    legacy: {
      bookmark_count: p.engagement.bookmarks, bookmarked: true, created_at: xDate(p.postCreatedAt), conversation_id_str: p.conversationId ?? p.postId,
      ...(p.inReplyToPostId ? { in_reply_to_status_id_str: p.inReplyToPostId } : {}),
      entities: { hashtags: [], urls: entityUrls, user_mentions: [] },
      ...(mediaEntities.length ? { extended_entities: { media: mediaEntities } } : {}),
      favorite_count: p.engagement.likes, favorited: false, full_text: fullText, id_str: p.postId, is_quote_status: false, lang: p.lang,
      quote_count: p.engagement.quotes, reply_count: p.engagement.replies, retweet_count: p.engagement.reposts, retweeted: false, user_id_str: userId(p.authorHandle),
    },
  }
}

/** Writes posts as one Bookmarks response (`data.bookmark_timeline_v2…entries`), streamed to disk. */
export async function writeGraphqlBookmarks(path: string, posts: Iterable<NormalizedPost>): Promise<{ posts: number; bytes: number }> {
  const out = createWriteStream(path)
  let bytes = 0
  const write = async (s: string) => { bytes += Buffer.byteLength(s); if (!out.write(s)) await once(out, 'drain') }
  await write('{"data":{"bookmark_timeline_v2":{"timeline":{"instructions":[{"type":"TimelineAddEntries","entries":[')
  let count = 0
  for (const p of posts) {
    const entry = { entryId: `tweet-${p.postId}`, sortIndex: String(1900000000000000000n - BigInt(count)), content: { entryType: 'TimelineTimelineItem', __typename: 'TimelineTimelineItem', itemContent: { itemType: 'TimelineTweet', __typename: 'TimelineTweet', tweet_results: { result: graphqlTweetResult(p) }, tweetDisplayType: 'Tweet' } } }
    await write((count++ ? ',' : '') + JSON.stringify(entry))
  }
  await write(`,{"entryId":"cursor-bottom-0","sortIndex":"0","content":{"entryType":"TimelineTimelineCursor","__typename":"TimelineTimelineCursor","value":"HBbM","cursorType":"Bottom"}}]}]}}}}`)
  out.end()
  await once(out, 'finish')
  return { posts: count, bytes }
}
