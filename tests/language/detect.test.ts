import { describe, expect, it } from 'vitest'
import { detectableText, loadLanguageDetector, needsDetection, normalizeLangCode, postLanguage } from '../../src-main/language/index.ts'
import { hasSharedFixtures, NEEDS_FIXTURES } from '../support/fixtures.ts'
import { archivePosts, letterCount } from './archive-posts.ts'
import { describeIf } from '../support/skip.ts'

describe('language codes', () => {
  it("normalises X's codes to ISO 639-1 or null", () => {
    const cases: Array<[string | null, string | null]> = [
      ['en', 'en'], ['ES', 'es'], ['en-gb', 'en'], ['zh-cn', 'zh'], ['pt_BR', 'pt'], ['in', 'id'], ['iw', 'he'], ['ji', 'yi'],
      ['fil', 'tl'], ['und', null], ['qme', null], ['zxx', null], ['qht', null], ['art', null], ['xx', null], ['', null], [null, null], ['deu', null],
    ]
    for (const [code, want] of cases) expect(normalizeLangCode(code), String(code)).toBe(want)
  })

  it('asks the detector only when X gave no usable code and did not say "no language"', () => {
    expect(needsDetection('es')).toBe(false)
    expect(needsDetection('zxx')).toBe(false)
    expect(needsDetection('qme')).toBe(false)
    expect(needsDetection('und')).toBe(true)
    expect(needsDetection(null)).toBe(true)
  })

  it('reads the words only: links, mentions and the # of hashtags are stripped', () => {
    expect(detectableText('@alice mira https://t.co/abc esto #SQLite &amp; más')).toBe('mira esto SQLite más')
  })
})

describeIf(hasSharedFixtures, NEEDS_FIXTURES)('language detection on real posts', () => {
  const posts = hasSharedFixtures ? archivePosts() : []

  it("agrees with X on the archive's longer Spanish and English posts", async () => {
    const detect = await loadLanguageDetector()
    for (const lang of ['es', 'en']) {
      const sample = posts.filter((p) => p.lang === lang && letterCount(p.text) >= 40)
      expect(sample.length, lang).toBeGreaterThan(lang === 'es' ? 300 : 100)
      const same = sample.filter((p) => detect(p.text) === lang).length
      // X's own labels are not perfect either (it calls some Spanish posts English): 95% is the bar
      expect(same / sample.length, lang).toBeGreaterThan(0.95)
    }
  })

  it('answers null for emoji, links, mentions and a word or two rather than guess', async () => {
    const detect = await loadLanguageDetector()
    for (const t of ['🔥🔥🔥', '😂', 'https://t.co/abcdef', '@alrocar @someone', '#100DaysOfCode', 'Totalmente', 'GM 👋', '']) expect(detect(t), t).toBeNull()
    // the archive's posts X marked as media-only or without language: the detector stays silent on nearly all
    const none = posts.filter((p) => ['qme', 'zxx'].includes(p.lang))
    expect(none.length).toBeGreaterThan(100)
    expect(none.filter((p) => detect(p.text) !== null).length).toBeLessThanOrEqual(2)
  })

  it("prefers X's own code; X's 'no language' stays null; otherwise the detector decides", async () => {
    const detect = await loadLanguageDetector()
    const spanish = posts.find((p) => p.lang === 'es' && letterCount(p.text) >= 80)!
    expect(postLanguage('es', spanish.text, detect)).toBe('es')
    expect(postLanguage('pt', spanish.text, detect)).toBe('pt')
    expect(postLanguage('zxx', spanish.text, detect)).toBeNull()
    expect(postLanguage('und', spanish.text, detect)).toBe('es')
    expect(postLanguage(null, spanish.text, detect)).toBe('es')
    expect(postLanguage(null, spanish.text, null)).toBeNull()
  })
})
