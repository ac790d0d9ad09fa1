import { describe, expect, it } from 'vitest'
import { firstWordHolding, lexicalEvidence, someWordHolding, type TermMatcher } from '../../src-main/search/evidence.ts'
import type { SearchDocument } from '../../src-main/store/index.ts'

const doc = (fields: Partial<SearchDocument>): SearchDocument => ({
  id: 1, text: '', author: 'ann Ann', urls: null, tags: null, ocr: null, summary: null, categories: null, entitiesJson: null, ...fields,
})
const term = (t: string, corrected: string | null = null): TermMatcher => ({ term: t, corrected })
const why = (d: SearchDocument, ...terms: TermMatcher[]) => lexicalEvidence(d, terms, [])

describe('the evidence of a post for the query words', () => {
  it('finds a word by its stem either way round, as the post spells it', () => {
    expect(why(doc({ text: 'Three short Stories.' }), term('story')).reasonParts).toEqual(['mentions “Stories”'])
    expect(why(doc({ text: 'A Story of rye' }), term('stories')).reasonParts).toEqual(['mentions “Story”'])
    expect(why(doc({ text: 'Feeding the starter' }), term('feed')).reasonParts).toEqual(['mentions “Feeding”'])
  })

  it('finds a prefix, a corrected stem and a word only in the summary or image text', () => {
    expect(why(doc({ text: 'Sourdough bread' }), term('sour*')).reasonParts).toEqual(['mentions “Sourdough”'])
    expect(why(doc({ text: 'Two Databases compared' }), term('databse', 'databas')).reasonParts).toEqual(['mentions “Databases” (for “databse”)'])
    expect(why(doc({ text: 'no', summary: 'About Leipzig' }), term('leipzig')).reasonParts).toEqual(['mentions “Leipzig”'])
    expect(why(doc({ text: 'no', ocr: 'DRONE photos' }), term('drones')).reasonParts).toEqual(['mentions “DRONE”'])
  })

  it('tells tags, categories and entities from the text, and counts what matched', () => {
    const d = doc({ text: 'Nothing here', tags: 'Databases|Rust', categories: 'Dev Tools', entitiesJson: '{"places":["Leipzig"]}' })
    const e = why(d, term('rust'), term('tools'), term('leipzig'), term('kayak'))
    expect(e.reasonParts).toEqual(['mentions “Leipzig”', 'tagged “Rust”', 'in the category “Dev Tools”'])
    expect(e.matchedTerms).toEqual(['rust', 'tools', 'leipzig'])
    expect(e.coverage).toBe(0.75)
  })

  it('matches words outside the Latin script, upper case included', () => {
    expect(why(doc({ text: 'Η ΟΔΟΣ προς', summary: 'Straße' }), term('οδος'), term('straße')).reasonParts).toEqual(['mentions “ΟΔΟΣ” and “Straße”'])
  })

  it('finds nothing in a post without the word, nor in a word that only holds it', () => {
    expect(why(doc({ text: 'storage and history', urls: 'https://example.com/story-time' }), term('story')).matchedTerms).toEqual(['story'])
    expect(why(doc({ text: 'storage and history' }), term('story')).matchedTerms).toEqual([])
    expect(why(doc({ text: 'Rustic bread' }), term('rust')).matchedTerms).toEqual(['rust'])
    expect(why(doc({ text: 'Trusty bread' }), term('rust')).matchedTerms).toEqual([])
  })
})

describe('the words around a needle (someWordHolding)', () => {
  const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’+#]*/gu
  /** What it stands for: every word of the text, split whole. */
  const bySplit = (s: string, needle: string, pass: (w: string) => boolean) => (s.match(WORD) ?? []).some((w) => w.includes(needle) && pass(w))
  const texts = [
    'storage and history', "l'été c++ #rust ’quoted’ rust's", 'a-rust_rust rust', '++rust', "'rust", 'x#rust', 'rust#', '#',
    'ΟΔΟΣ οδος', 'straße strasse', '𝐀rust 𝐀 rust', 'emoji 😀rust😀 rust2 2rust', 'rüst rust', 'no match here', '', "it's its",
  ]
  const needles = ['rust', 'rus', 'st', 's', 'οδο', 'ß', "'s", '#r', 'c+', '😀', 'rust2', '2r', 'x']
  const passes: Array<[string, (w: string) => boolean]> = [
    ['any', () => true], ['exact', (w) => w === 'rust'], ['prefix', (w) => w.startsWith('ru')], ['long', (w) => w.length > 4],
  ]

  it('finds the same words as splitting the whole text would, in any script and around any punctuation', () => {
    for (const s of texts) for (const n of needles) for (const [name, pass] of passes) {
      expect([s, n, name, someWordHolding(s, n, pass)]).toEqual([s, n, name, bySplit(s, n, pass)])
    }
  })

  it('finds the first such word as the text writes it, from the lower-cased text', () => {
    const cased = ["L'Été C++ #Rust ’Quoted’ RUST's", 'Storage and HISTORY story', 'ΟΔΟΣ Οδος οδος', 'Rüst RUST rust', 'x#Rust Rust#', 'Trust RUSTY rust']
    for (const s of cased) for (const n of needles) for (const [name, pass] of passes) {
      const lower = s.toLowerCase()
      expect(lower.length).toBe(s.length)
      const first = (s.match(WORD) ?? []).find((w) => w.toLowerCase().includes(n) && pass(w)) ?? null
      expect([s, n, name, firstWordHolding(lower, n, pass, s)]).toEqual([s, n, name, first])
    }
  })

  it('passes the whole word around the needle to the test', () => {
    const seen: string[] = []
    someWordHolding("x l'été c++rust", 'ét', (w) => (seen.push(w), false))
    someWordHolding('a ++rust#x b', 'st', (w) => (seen.push(w), false))
    expect(seen).toEqual(["l'été", 'rust#x'])
  })
})
