/**
 * The encoder stage (stage 3, semantic_tagging: sentence vectors, tags, sentiment, action, summary) on
 * generated library posts, in-process on one thread. Wall time on a shared machine says little, so
 * the CPU time per post is the figure, and the 100,000-post time is projected from it for the
 * pipeline's two workers (they share nothing but the database writes, which are on another thread).
 *   node bench/encoder-stage.ts [N=2000]
 */
import { cpus, loadavg } from 'node:os'
import { createEngine, type EnginePost } from '../src-main/ai/providers/local-engine.ts'
import { generatePosts } from './generate-library.ts'

const N = Number(process.argv[2] ?? 2000)
const WORKERS = 2
const BATCH = 100 // what each worker gets of the stage's batch of 200

const posts: EnginePost[] = generatePosts(N + 100).slice(100).map((p, i) => ({
  id: i + 1, text: p.text, authorHandle: p.authorHandle, urls: p.urls, media: p.media, inReplyToPostId: p.inReplyToPostId,
  quoted: p.quoted ? { text: p.quoted.text, authorHandle: p.quoted.authorHandle } : null, lang: p.lang, imageText: null,
}))
const engine = createEngine({ existingTags: [], categories: [], examples: [] })
const items = engine.entities(posts).map((r, i) => ({ post: posts[i], entities: r.entities }))
await engine.semantic(items.slice(0, 16)) // loads the model

const cpu0 = process.cpuUsage()
const t0 = performance.now()
for (let i = 0; i < items.length; i += BATCH) await engine.semantic(items.slice(i, i + BATCH))
const wallMs = performance.now() - t0
const cpu = process.cpuUsage(cpu0)
const cpuMsPerPost = (cpu.user + cpu.system) / 1000 / N

const chars = posts.map((p) => p.text.length).sort((a, b) => a - b)
process.stdout.write(JSON.stringify({
  bench: 'encoder-stage',
  posts: N,
  postChars: { mean: Math.round(chars.reduce((a, b) => a + b, 0) / N), p50: chars[N >> 1], p90: chars[Math.floor(N * 0.9)] },
  cpuMsPerPost: Math.round(cpuMsPerPost * 10) / 10,
  wallPostsPerSecondOneThread: Math.round(N / (wallMs / 1000)),
  projected100kMinutesOnTwoWorkers: Math.round((100_000 * cpuMsPerPost) / WORKERS / 60_000 * 10) / 10,
  machine: { cores: cpus().length, loadAverage1m: Math.round(loadavg()[0] * 10) / 10 },
}, null, 2) + '\n')
