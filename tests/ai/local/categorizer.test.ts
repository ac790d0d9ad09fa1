import { describe, expect, it } from 'vitest'
import { createCategorizer, createTagVocabulary, extractEntities, suggestTags } from '../../../src-main/ai/local/index.ts'
import { CATEGORY_COLORS, DEFAULT_CATEGORIES } from '../../../src-shared/categories.ts'
import type { NormalizedPost } from '../../../src-shared/schemas/posts.ts'
import { hasFixtures, readFixturePosts, readFlatExcerpt } from './fixture-posts.ts'
import { makePost } from './make-post.ts'
import { describeIf } from '../../support/skip.ts'

const categories = DEFAULT_CATEGORIES.map((c, i) => ({ ...c, id: i + 1 }))
const slugOf = (id: number | string) => categories.find((c) => c.id === id)!.slug

const classifyWith = (categorizer: ReturnType<typeof createCategorizer>, p: NormalizedPost) => {
  const e = extractEntities(p)
  return categorizer.classify(p, e, suggestTags(p, e, { vocab: createTagVocabulary() })).map((c) => ({ ...c, slug: slugOf(c.categoryId) }))
}

describe('default categories', () => {
  it('are ten, with unique slugs, #rrggbb colours and descriptions', () => {
    expect(DEFAULT_CATEGORIES).toHaveLength(10)
    expect(new Set(DEFAULT_CATEGORIES.map((c) => c.slug)).size).toBe(10)
    for (const c of DEFAULT_CATEGORIES) {
      expect(c.color).toMatch(/^#[0-9a-f]{6}$/)
      expect(c.description.length).toBeGreaterThan(40)
    }
    expect(CATEGORY_COLORS.length).toBeGreaterThanOrEqual(10)
  })
})

describe('createCategorizer', () => {
  const categorizer = createCategorizer({ categories })
  const top = (text: string) => classifyWith(categorizer, makePost(text))[0].slug
  const all = (text: string) => classifyWith(categorizer, makePost(text)).map((c) => c.slug)

  it('puts clearly topical posts where a person would', () => {
    expect(top('Fine-tuning Llama 3 with LoRA on a single GPU: the training loss and eval results')).toBe('ai-machine-learning')
    expect(top('Rust borrow checker errors: lifetimes, references and ownership in your code')).toBe('programming')
    // an explainer is both
    expect(all('Rust borrow checker errors explained: lifetimes, references and ownership')).toEqual(expect.arrayContaining(['programming', 'learning-tutorials']))
    expect(top('The Senate passed the bill after a long debate; the president is expected to sign it')).toBe('news-politics')
    expect(top('NASA telescope images show a distant galaxy forming stars, astronomers say')).toBe('science')
    expect(top('We raised our seed round! Lessons on fundraising, investors and startup revenue')).toBe('business-startups')
    expect(top('My morning routine: workout at the gym, then coffee and a healthy breakfast')).toBe('personal-lifestyle')
    expect(top('Beautiful typography and colour palette in this new logo and brand identity')).toBe('design')
  })

  it('returns one to three categories, best first, with confidences in [0, 1]', () => {
    for (const text of ['ok', 'Claude Code and Cursor for refactoring a TypeScript codebase', '😂😂😂 this meme']) {
      const r = classifyWith(categorizer, makePost(text))
      expect(r.length).toBeGreaterThanOrEqual(1)
      expect(r.length).toBeLessThanOrEqual(3)
      for (let i = 1; i < r.length; i++) expect(r[i].confidence).toBeLessThanOrEqual(r[i - 1].confidence)
      for (const c of r) expect(c.confidence).toBeGreaterThan(0)
    }
  })

  it('learns from a person’s corrections', () => {
    const custom = [
      { id: 'garden', name: 'Garden', slug: 'garden', description: 'Plants, flowers, vegetables and growing things outdoors.' },
      { id: 'cars', name: 'Cars', slug: 'cars', description: 'Cars, driving and vehicles.' },
    ]
    const text = 'Tomatoes and basil doing great this week, harvest soon'
    const before = createCategorizer({ categories: custom }).classify(makePost(text), extractEntities(makePost(text)), [])
    expect(before[0].categoryId).toBe('garden')
    const examples = [
      { text: 'Harvested tomatoes today from the backyard', categoryId: 'cars' },
      { text: 'Basil and tomatoes are the best pair in summer', categoryId: 'cars' },
    ]
    const after = createCategorizer({ categories: custom, examples }).classify(makePost(text), extractEntities(makePost(text)), [])
    expect(after[0].categoryId).toBe('cars')
  })

  it('returns nothing when there are no categories', () => {
    expect(createCategorizer({ categories: [] }).classify(makePost('hello'), extractEntities(makePost('hello')), [])).toEqual([])
  })
})

describeIf(hasFixtures, "needs ../shared/fixtures (present beside the repository in CI, absent in a user's clone)")('categories of real posts', () => {
  const posts = hasFixtures ? [...readFixturePosts(), ...readFlatExcerpt()] : []
  const categorizer = createCategorizer({ categories })
  const slugs = (id: string) => classifyWith(categorizer, posts.find((p) => p.postId === id)!).map((c) => c.slug)

  it('places clearly topical posts sensibly', () => {
    expect(slugs('2074968589820739994')).toContain('ai-machine-learning') // Grok 4.5 benchmark results
    expect(slugs('2074974895750951259')[0]).toBe('tools-products') // Tesla Model S vs McLaren
    expect(slugs('1547588055514488833')[0]).toBe('business-startups') // S&P 500 stock market
    expect(slugs('2074953952550863143')).toContain('news-politics') // SEC settlement, judge
    expect(slugs('1649309063690297346')[0]).toBe('humor-memes') // "a funny way to spell"
    expect(slugs('2107412650833621170')[0]).toBe('programming') // How garbage collectors work
  })
})
