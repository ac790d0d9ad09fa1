/**
 * Throughput of the offline toolkit, single-threaded: entities + sentiment + tags + summary + action
 * + embedding + categories per post (OCR excluded), over generated posts and over the real posts in
 * ../shared/fixtures. Prints JSON: posts/s (wall and CPU time), ms per post per stage (wall), peak RSS.
 *   node bench/local-pipeline.ts [N=1000]   (embedding is the sentence encoder, one post at a time)
 */
import { existsSync } from 'node:fs'
import type { NormalizedPost } from '../src-shared/schemas/posts.ts'
import { DEFAULT_CATEGORIES } from '../src-shared/categories.ts'
import {
  classifyAction, classifySentiment, createCategorizer, createTagVocabulary, extractEntities, loadSentenceEncoder, readText, suggestTags, summarize,
} from '../src-main/ai/local/index.ts'
import { postText } from '../src-main/ai/local/categorizer.ts'
import { generatePosts } from './generate-library.ts'
import { GRAPHQL_DIR, readFixturePosts, readFlatExcerpt } from '../tests/ai/local/fixture-posts.ts'

const STAGES = ['nlp', 'entities', 'sentiment', 'tags', 'summary', 'action', 'embedding', 'categories'] as const

const encoder = await loadSentenceEncoder()

const run = async (posts: NormalizedPost[]) => {
  const categorizer = await createCategorizer({ categories: DEFAULT_CATEGORIES.map((c, i) => ({ ...c, id: i + 1 })), encoder })
  const vocab = createTagVocabulary()
  const ms = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<(typeof STAGES)[number], number>
  let t = 0
  const lap = (s: (typeof STAGES)[number]) => {
    const now = performance.now()
    ms[s] += now - t
    t = now
  }
  const start = performance.now()
  const cpu0 = process.cpuUsage()
  for (const p of posts) {
    t = performance.now()
    const doc = readText(p.text)
    lap('nlp')
    const entities = extractEntities(p, { doc })
    lap('entities')
    const sentiment = classifySentiment(p.text, { doc })
    lap('sentiment')
    const tags = suggestTags(p, entities, { vocab })
    lap('tags')
    summarize(p)
    lap('summary')
    classifyAction(p, entities, sentiment)
    lap('action')
    const [vector] = await encoder.encode([postText(p)])
    lap('embedding')
    categorizer.classify(p, entities, tags, vector)
    lap('categories')
  }
  const total = performance.now() - start
  const cpu = process.cpuUsage(cpu0)
  return {
    posts: posts.length,
    postsPerSecond: Math.round(posts.length / (total / 1000)),
    // On a busy machine wall time overstates the cost; CPU time (user + system) does not.
    postsPerCpuSecond: Math.round(posts.length / ((cpu.user + cpu.system) / 1e6)),
    msPerPost: Object.fromEntries(STAGES.map((s) => [s, +(ms[s] / posts.length).toFixed(4)])),
    distinctTags: vocab.tags().length,
  }
}

const n = Number(process.argv[2] ?? 1000)
const loadStart = performance.now()
// Load every table once (wink model, compromise, gazetteer, vectors, sentiment model) before timing.
for (const p of generatePosts(20, 7)) {
  extractEntities(p)
  classifySentiment(p.text)
  await encoder.encode([p.text])
}
const warmupMs = Math.round(performance.now() - loadStart)
const generated = await run(generatePosts(n, 42))
let real: Awaited<ReturnType<typeof run>> | { skipped: string }
if (existsSync(GRAPHQL_DIR)) {
  const posts = [...readFixturePosts(), ...readFlatExcerpt()]
  // The real set is small; repeat it so the timing is stable.
  real = { ...(await run(Array.from({ length: Math.ceil(500 / posts.length) }, () => posts).flat())), posts: posts.length }
} else {
  real = { skipped: `fixtures absent: ${GRAPHQL_DIR}` }
}
console.log(
  JSON.stringify(
    { bench: 'local-pipeline', node: process.version, warmupMs, generated, real, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) },
    null,
    2,
  ),
)
