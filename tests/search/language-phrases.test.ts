import { describe, expect, it } from 'vitest'
import { parseQuery } from '../../src-main/search/query-parser.ts'

const NOW = Date.UTC(2026, 10, 25)
const parse = (q: string) => parseQuery(q, NOW)

describe('language phrases in a query', () => {
  it('reads English, native and lang: forms as one language filter', () => {
    const cases: Array<[string, string]> = [
      ['posts in German', 'de'], ['in german', 'de'], ['German posts', 'de'], ['German-language tweets', 'de'],
      ['written in French', 'fr'], ['Japanese tweets', 'ja'], ['in Spanish', 'es'],
      ['auf Deutsch', 'de'], ['auf Englisch', 'en'], ['en español', 'es'], ['en espanol', 'es'], ['en inglés', 'en'],
      ['en français', 'fr'], ['en anglais', 'en'], ['em português', 'pt'], ['in italiano', 'it'], ['in het Nederlands', 'nl'],
      ['lang:de', 'de'], ['language:es', 'es'], ['lang:german', 'de'], ['LANG:JA', 'ja'],
    ]
    for (const [q, lang] of cases) {
      const p = parse(q)
      expect(p.lang, q).toBe(lang)
      expect(p.terms, q).toEqual([])
      expect(p.parts.filter((x) => x.kind === 'language'), q).toHaveLength(1)
    }
  })

  it('keeps the other words and filters around the phrase', () => {
    expect(parse('written in French about wine').terms).toEqual(['wine'])
    const p = parse('rust tutorials in German from:alice')
    expect(p).toMatchObject({ lang: 'de', author: 'alice', terms: ['rust', 'tutorials'] })
    const chip = p.parts.find((x) => x.kind === 'language')!
    expect(chip.label).toBe('in German')
    expect(p.raw.slice(chip.start, chip.end)).toBe('in German')
  })

  it('leaves ordinary uses of a language word as words', () => {
    for (const q of ['tapas in Spanish restaurants', 'french fries', 'in Latin america', 'german engineering', 'learning german']) {
      const p = parse(q)
      expect(p.lang, q).toBeNull()
      expect(p.parts.some((x) => x.kind === 'language'), q).toBe(false)
    }
    expect(parse('german engineering').terms).toEqual(['german', 'engineering'])
  })

  it('an unknown lang: value is taken out and reported, not searched', () => {
    const p = parse('lang:xx sqlite')
    expect(p.lang).toBeNull()
    expect(p.unknownLang).toBe('xx')
    expect(p.terms).toEqual(['sqlite'])
  })
})
