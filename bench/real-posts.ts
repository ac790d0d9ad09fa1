/**
 * The offline understanding on the real posts of ../shared/fixtures/exports (the X archive, the GraphQL
 * captures, the derived files, the flat excerpt), through the pipeline's own engine with the default
 * categories: per post its language, categories (with confidence), tags, action and summary, and the
 * precision of first categories and of tags on the hand-judged sample (bench/real-posts-judged.ts).
 *   node bench/real-posts.ts            # scores on the judged sample
 *   node bench/real-posts.ts --posts    # also every post, one JSON line each (to stdout; texts are not stored)
 *   node bench/real-posts.ts --sample   # the sample with texts, for judging by hand
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { NormalizedPost } from '../src-shared/schemas/posts.ts'
import { DEFAULT_CATEGORIES } from '../src-shared/categories.ts'
import { createEngine } from '../src-main/ai/providers/local-engine.ts'
import { parseExport } from '../src-main/importers/index.ts'
import { loadLanguageDetector, needsDetection, postLanguage } from '../src-main/language/index.ts'
import { FIXTURES } from '../tests/ai/local/fixture-posts.ts'
import { toEngine } from './local-understanding.ts'
import { JUDGED } from './real-posts-judged.ts'

const EXPORTS = join(FIXTURES, 'exports')

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]))

/** Every post of every export file, once (the derived files repeat the captures' posts), with its language. */
export async function readRealPosts(): Promise<Array<NormalizedPost & { file: string }>> {
  const seen = new Map<string, NormalizedPost & { file: string }>()
  for (const file of files(EXPORTS).filter((f) => /tweets\.js$|\.json$|\.csv$/.test(f)).sort()) {
    for await (const it of (await parseExport(readFileSync(file))).items) {
      if (it.kind === 'post' && !seen.has(it.post.postId)) seen.set(it.post.postId, { ...it.post, file: file.slice(EXPORTS.length + 1) })
    }
  }
  const detect = await loadLanguageDetector()
  return [...seen.values()].map((p) => ({ ...p, lang: postLanguage(p.lang, p.text, needsDetection(p.lang) ? detect : null) }))
}

/** A fixed pick, stratified by language: per language the posts whose id hashes lowest. */
export const SAMPLE_PER_LANGUAGE: Record<string, number> = { es: 50, en: 45, ja: 10, other: 10, none: 5 }
const rank = (id: string) => createHash('sha256').update(`real-posts:${id}`).digest('hex')
export function judgedSample<T extends { postId: string; lang: string | null; text: string }>(posts: T[]): T[] {
  const stratum = (p: T) => (!p.lang ? 'none' : p.lang in SAMPLE_PER_LANGUAGE ? p.lang : 'other')
  const withText = posts.filter((p) => p.text.replace(/https?:\/\/\S+|@\w+/g, '').trim().length > 0)
  return Object.entries(SAMPLE_PER_LANGUAGE).flatMap(([lang, n]) =>
    withText.filter((p) => stratum(p) === lang).sort((a, b) => rank(a.postId).localeCompare(rank(b.postId))).slice(0, n))
}

export async function analyse(posts: NormalizedPost[]) {
  const engine = createEngine({ existingTags: [], categories: DEFAULT_CATEGORIES.map((c, i) => ({ id: i + 1, ...c })), examples: [] })
  const items = posts.map((p, i) => toEngine(p, i + 1))
  const out = []
  for (let i = 0; i < items.length; i += 200) {
    const part = items.slice(i, i + 200)
    const read = engine.entities(part)
    const sem = await engine.semantic(part.map((post, j) => ({ post, entities: read[j].entities })))
    const cats = await engine.categorize(part.map((post, j) => ({ id: post.id, post, entities: read[j].entities, tags: sem[j].tags, vector: sem[j].vector })))
    out.push(...sem.map((s, j) => ({
      ...s,
      categories: cats[j].categories.map((c) => ({ name: DEFAULT_CATEGORIES[c.categoryId - 1].name, confidence: c.confidence })),
    })))
  }
  return out
}

type Result = Awaited<ReturnType<typeof analyse>>[number]

export function score(posts: NormalizedPost[], results: Result[]) {
  const byId = new Map(posts.map((p, i) => [p.postId, results[i]]))
  const cat = { judged: 0, right: 0 }
  const tag = { judged: 0, good: 0, unjudged: [] as string[] }
  const perLang: Record<string, { posts: number; catRight: number; tags: number; goodTags: number }> = {}
  const bands = [0, 0.4, 0.6, 0.8].map((lo, i, a) => ({ lo, hi: a[i + 1] ?? 1.01, n: 0, right: 0, sum: 0 }))
  for (const j of JUDGED) {
    const r = byId.get(j.id)
    if (!r) continue
    const l = (perLang[j.lang] ??= { posts: 0, catRight: 0, tags: 0, goodTags: 0 })
    const first = r.categories[0]
    const right = j.categories.includes(first?.name ?? '')
    cat.judged++
    l.posts++
    if (right) {
      cat.right++
      l.catRight++
    }
    for (const c of r.categories) {
      const b = bands.find((x) => c.confidence >= x.lo && c.confidence < x.hi)!
      b.n++
      b.sum += c.confidence
      if (j.categories.includes(c.name)) b.right++
    }
    for (const t of r.tags) {
      const good = j.good.includes(t)
      if (!good && !j.bad.includes(t)) {
        tag.unjudged.push(`${j.id}:${t}`)
        continue
      }
      tag.judged++
      l.tags++
      if (good) {
        tag.good++
        l.goodTags++
      }
    }
  }
  const round = (x: number) => Math.round(x * 1000) / 1000
  const assigned = bands.reduce((a, b) => a + b.n, 0)
  return {
    judgedPosts: cat.judged,
    firstCategoryPrecision: round(cat.right / cat.judged),
    tagPrecision: round(tag.good / tag.judged),
    tagsJudged: tag.judged,
    unjudgedTags: tag.unjudged,
    perLanguage: Object.fromEntries(Object.entries(perLang).map(([k, v]) => [k, { posts: v.posts, firstCategory: round(v.catRight / v.posts), tags: v.tags, tagPrecision: round(v.goodTags / v.tags) }])),
    calibration: {
      expectedCalibrationError: round(bands.reduce((a, b) => a + (b.n ? (b.n / assigned) * Math.abs(b.right / b.n - b.sum / b.n) : 0), 0)),
      bands: bands.map((b) => ({ confidence: `${b.lo.toFixed(1)}-${Math.min(1, b.hi).toFixed(1)}`, assignments: b.n, precision: b.n ? round(b.right / b.n) : null })),
    },
  }
}

const count = (xs: string[]) => Object.fromEntries([...new Set(xs)].sort().map((x) => [x, xs.filter((y) => y === x).length]))

if (import.meta.main) {
  if (!existsSync(EXPORTS)) {
    console.log(JSON.stringify({ skipped: `fixtures absent: ${EXPORTS}` }))
  } else {
    const all = await readRealPosts()
    const wantAll = process.argv.includes('--posts')
    const posts = wantAll ? all : judgedSample(all)
    const results = await analyse(posts)
    const line = (p: (typeof all)[number], r: Result) => ({
      id: p.postId, file: p.file, lang: p.lang, categories: r.categories.map((c) => `${c.name} ${c.confidence}`), tags: r.tags, action: r.action, summary: r.summary,
      ...(process.argv.includes('--sample') ? { text: p.text.slice(0, 300), quoted: p.quoted?.text?.slice(0, 120) } : {}),
    })
    if (wantAll || process.argv.includes('--sample')) for (const [i, p] of posts.entries()) console.log(JSON.stringify(line(p, results[i])))
    const sampled = wantAll ? judgedSample(all) : posts
    const sampledResults = sampled.map((p) => results[posts.indexOf(p)])
    console.log(JSON.stringify({
      bench: 'real-posts', posts: posts.length, languages: count(posts.map((p) => p.lang ?? 'none')),
      firstCategories: count(results.map((r) => r.categories[0]?.name ?? 'none')),
      ...score(sampled, sampledResults),
    }, null, 2))
  }
}
