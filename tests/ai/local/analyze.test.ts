import { describe, expect, it } from 'vitest'
import { analyzePostLocal, createCategorizer, createTagVocabulary, relatedByVectors } from '../../../src-main/ai/local/index.ts'
import { DEFAULT_CATEGORIES } from '../../../src-shared/categories.ts'
import { zKnowledge } from '../../../src-shared/schemas/bookmarks.ts'
import { hasFixtures, readFixturePosts, readFlatExcerpt } from './fixture-posts.ts'
import { makePost } from './make-post.ts'
import { describeIf } from '../../support/skip.ts'

const categories = DEFAULT_CATEGORIES.map((c, i) => ({ ...c, id: i + 1 }))

describe('analyzePostLocal', () => {
  it('produces a valid Knowledge record (with relatedIds added by the caller)', () => {
    const now = () => new Date('2026-05-01T12:00:00.000Z')
    const a = analyzePostLocal(
      makePost('Just released: a tiny open-source Rust CLI that compresses logs 10x. Install with cargo and try it out! https://t.co/x', {
        urls: [{ url: 'https://t.co/x', expandedUrl: 'https://github.com/acme/logsquash', displayUrl: null }],
      }),
      { categorizer: createCategorizer({ categories }), now },
    )
    const k = zKnowledge.parse({ ...a.knowledge, relatedIds: [] })
    expect(k.analyzedAt).toBe('2026-05-01T12:00:00.000Z')
    expect(k.action).toBe('try')
    expect(['positive', 'neutral']).toContain(k.sentiment)
    expect(k.tags).toEqual(expect.arrayContaining(['rust', 'logsquash']))
    expect(k.summary.length).toBeLessThanOrEqual(200)
    expect(a.entities.repos[0]).toMatchObject({ owner: 'acme', name: 'logsquash' })
    expect(a.categories[0].categoryId).toBe(categories.find((c) => c.slug === 'programming')!.id)
    expect(a.vector).toHaveLength(100)
  })
})

describe('relatedByVectors', () => {
  it('finds posts alike in meaning and in what they name', () => {
    const texts = [
      'PostgreSQL query planner tips: indexes, vacuum and explain analyze',
      'How I tuned Postgres indexes and read EXPLAIN output to speed up queries',
      'Sourdough bread recipe with a long cold fermentation',
      'Baking bread at home: starter, flour, hydration and fermentation',
    ]
    const items = texts.map((t, i) => {
      const a = analyzePostLocal(makePost(t))
      return { id: i + 1, vector: a.vector, entities: [...a.knowledge.tags, ...a.entities.tools] }
    })
    const related = relatedByVectors(items, 1, 0.3)
    expect(related.get(1)![0].id).toBe(2)
    expect(related.get(2)![0].id).toBe(1)
    expect(related.get(3)![0].id).toBe(4)
    expect(related.get(4)![0].id).toBe(3)
  })
  it('handles an empty library', () => {
    expect(relatedByVectors([], 5).size).toBe(0)
  })
})

describeIf(hasFixtures, "needs ../shared/fixtures (present beside the repository in CI, absent in a user's clone)")('analyzePostLocal on every real post', () => {
  it('gives each a valid record, and the library a compact tag vocabulary', () => {
    const posts = [...readFixturePosts(), ...readFlatExcerpt()]
    const vocab = createTagVocabulary()
    const categorizer = createCategorizer({ categories })
    const counts = new Map<string, number>()
    for (const p of posts) {
      const a = analyzePostLocal(p, { vocab, categorizer })
      zKnowledge.parse({ ...a.knowledge, relatedIds: [] })
      expect(a.categories.length).toBeGreaterThanOrEqual(1)
      expect(a.categories.length).toBeLessThanOrEqual(3)
      for (const t of a.knowledge.tags) counts.set(t, (counts.get(t) ?? 0) + 1)
    }
    // Canonical forms only: no case or plural variants of the same tag.
    const tags = [...counts.keys()]
    expect(tags.filter((t) => t !== t.toLowerCase())).toEqual([])
    expect(counts.get('tesla')).toBeGreaterThan(10)
    expect(tags).not.toContain('teslas')
  })
})
