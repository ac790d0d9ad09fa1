/**
 * What the offline analysis says about the real posts in ../shared/fixtures (the X archive's tweets.js,
 * the GraphQL captures, the flat excerpt), through the pipeline's own code path (createEngine().semantic,
 * sentence encoder included): the distribution of suggested actions and sentiments, and how many
 * summaries are empty, repeat their post, or are cut. Prints JSON.
 *   node bench/local-understanding.ts
 */
import { existsSync } from 'node:fs'
import type { NormalizedPost } from '../src-shared/schemas/posts.ts'
import { createEngine, type EnginePost } from '../src-main/ai/providers/local-engine.ts'
import { cleanText } from '../src-main/ai/local/text.ts'
import { extractEntities, gistSentences } from '../src-main/ai/local/index.ts'
import { ARCHIVE_TWEETS, GRAPHQL_DIR, readArchivePosts, readFixturePosts, readFlatExcerpt } from '../tests/ai/local/fixture-posts.ts'

export const toEngine = (p: NormalizedPost, id: number): EnginePost => ({
  id,
  text: p.text,
  lang: p.lang,
  authorHandle: p.authorHandle,
  urls: p.urls,
  media: p.media,
  inReplyToPostId: p.inReplyToPostId,
  quoted: p.quoted ? { text: p.quoted.text ?? '', authorHandle: p.quoted.authorHandle ?? '' } : null,
  imageText: null,
})

const norm = (s: string) => cleanText(s).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()

/** A summary "repeats" its post when it is the post's whole text or its opening, and "is cut" when it ends in … or a dangling dash. */
export const summaryFaults = (post: string, summary: string) => {
  const p = norm(post)
  const s = norm(summary.replace(/…$/, ''))
  return {
    empty: summary === '',
    repeats: s.length > 0 && (p === s || (p.startsWith(s) && s.length >= 0.6 * p.length)),
    cut: /…$|\s[-–—]$/.test(summary),
  }
}

const count = (xs: string[]) => Object.fromEntries([...new Set(xs)].sort().map((x) => [x, xs.filter((y) => y === x).length]))

const measure = async (name: string, posts: NormalizedPost[]) => {
  const engine = createEngine({ existingTags: [], categories: [], examples: [] })
  const items = posts.map((p, i) => ({ post: toEngine(p, i + 1) }))
  await engine.semantic(items.slice(0, 2)) // load the encoder, the models and the action descriptions first
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  const out = []
  for (let i = 0; i < items.length; i += 200) out.push(...(await engine.semantic(items.slice(i, i + 200))))
  const seconds = (performance.now() - t0) / 1000
  const cpu = process.cpuUsage(cpu0)
  // What the gist costs the encoder stage: sentences encoded beside the posts themselves.
  const gist = posts.map((p) => gistSentences(p, { thread: extractEntities(p).kind === 'thread' }).length)
  const faults = out.map((r, i) => summaryFaults(posts[i].text, r.summary))
  const short = posts.map((p) => cleanText(p.text).length <= 200)
  return {
    set: name,
    posts: posts.length,
    action: count(out.map((r) => r.action)),
    sentiment: count(out.map((r) => r.sentiment)),
    summary: {
      empty: faults.filter((f) => f.empty).length,
      emptyOfShortPosts: faults.filter((f, i) => f.empty && short[i]).length,
      shortPosts: short.filter(Boolean).length,
      repeatsPost: faults.filter((f) => f.repeats).length,
      cut: faults.filter((f) => f.cut).length,
    },
    gist: { posts: gist.filter((n) => n > 0).length, extraSentencesEncoded: gist.reduce((a, b) => a + b, 0) },
    // The encoder stage's rate on one thread; wall time is unreliable on a shared machine, CPU time is not.
    semanticPostsPerSecond: Math.round(posts.length / seconds),
    semanticPostsPerCpuSecond: Math.round(posts.length / ((cpu.user + cpu.system) / 1e6)),
  }
}

if (import.meta.main) {
  if (!existsSync(GRAPHQL_DIR) || !existsSync(ARCHIVE_TWEETS)) {
    console.log(JSON.stringify({ skipped: `fixtures absent: ${GRAPHQL_DIR}` }))
  } else {
    const sets = [
      await measure('archive tweets.js', await readArchivePosts()),
      await measure('graphql captures + flat excerpt', [...readFixturePosts(), ...readFlatExcerpt()]),
    ]
    console.log(JSON.stringify({ bench: 'local-understanding', sets }, null, 2))
  }
}
