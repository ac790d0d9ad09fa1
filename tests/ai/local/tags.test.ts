import { describe, expect, it } from 'vitest'
import { createTagVocabulary, editDistance, extractEntities, normalizeTag, readText, suggestTags } from '../../../src-main/ai/local/index.ts'
import { makePost } from './make-post.ts'
import { existsSync } from 'node:fs'
import { ARCHIVE_TWEETS, hasFixtures, readArchivePosts, readFixturePosts, readFlatExcerpt } from './fixture-posts.ts'
import { STOPWORDS } from '../../../src-main/ai/local/text.ts'
import { describeIf } from '../../support/skip.ts'
import { NEEDS_FIXTURES } from '../../support/fixtures.ts'

describe('tag vocabulary', () => {
  it('merges case, plurals, synonyms, gazetteer aliases and typos into one canonical tag', () => {
    const vocab = createTagVocabulary(['JavaScript', 'Machine Learning', 'databases'])
    const cases: Array<[string, string]> = [
      ['js', 'javascript'],
      ['#MachineLearning', 'machine learning'],
      ['ml', 'machine learning'],
      ['k8s', 'kubernetes'],
      ['Database', 'databases'],
      ['postgres', 'postgresql'],
      ['Golang', 'go'],
      ['LLMs', 'llm'],
      ['javascrpt', 'javascript'],
      ['machine-learning', 'machine learning'],
      ['iOS', 'ios'],
      ['#eBay', 'ebay'],
      ['#BuildInPublic', 'build in public'],
    ]
    for (const [raw, canonical] of cases) expect(normalizeTag(raw, vocab)).toBe(canonical)
    expect(vocab.tags()).toEqual(['javascript', 'machine learning', 'databases', 'kubernetes', 'postgresql', 'go', 'llm', 'ios', 'ebay', 'build in public'])
  })

  it('keeps names that differ by a letter or number apart', () => {
    const vocab = createTagVocabulary(['Model S'])
    expect(vocab.normalize('Model Y')).toBe('model y')
    expect(vocab.normalize('GPT-5')).not.toBe('model s')
    expect(vocab.lookup('brand new thing')).toBeNull()
  })

  it('computes edit distance', () => {
    expect(editDistance('kitten', 'sitten')).toBe(1)
    expect(editDistance('flaw', 'lawn')).toBe(2)
    expect(editDistance('kitten', 'sitting', 2)).toBe(3)
    expect(editDistance('abc', 'abc')).toBe(0)
  })
})

describe('suggestTags keywords', () => {
  it('are the nouns of a post, not its verbs or adjectives, once its reading is given', () => {
    const tags = (text: string) => {
      const p = makePost(text)
      return suggestTags(p, extractEntities(p), { vocab: createTagVocabulary(), doc: readText(text) })
    }
    expect(tags("What's stopping you from making 20 crore a year?")).toEqual(['crore'])
    expect(tags('Discovering books from first principles.')).toContain('book')
    expect(tags('Discovering books from first principles.')).not.toContain('discovering')
    expect(tags('amazing alpha here')).toEqual(['alpha'])
  })

  it('are one noun, for a post with nothing named: past the rarest, nouns are filler', () => {
    const tags = (text: string) => {
      const p = makePost(text)
      return suggestTags(p, extractEntities(p), { vocab: createTagVocabulary(), doc: readText(text) })
    }
    expect(tags('Discovering books from first principles.')).not.toContain('principles')
    const netflix = tags('another read on netflix infra this time on how are they scaling their containers')
    expect(netflix).toContain('netflix')
    expect(netflix).not.toContain('read')
  })

  it('are not taken from the words of a post in another language (the resources are English)', () => {
    const tags = (text: string, lang: string | null) => {
      const p = makePost(text, { lang })
      return suggestTags(p, extractEntities(p), { vocab: createTagVocabulary(), doc: readText(text) })
    }
    expect(tags('Y en otros municipios y centros también', 'en')).toEqual(expect.arrayContaining(['otros']))
    // its language stands in for the words: never English stop-word tags
    expect(tags('Y en otros municipios y centros también', 'es')).toEqual(['spanish'])
    expect(tags('Russische Spione in Berlin festgenommen', 'de')).toContain('german')
    // named things still count in any language
    expect(tags('El miércoles me llegó uno de estos en Android, obviamente sin leerlo', 'es')).toContain('android')
    expect(tags('Discovering books from first principles.', 'und')).toContain('book')
    expect(tags('Discovering books from first principles.', null)).toContain('book')
  })
})

describe('suggestTags names and code', () => {
  const tags = (text: string) => {
    const p = makePost(text)
    return suggestTags(p, extractEntities(p), { vocab: createTagVocabulary(), doc: readText(text) })
  }
  it('keeps names of several words whole (issue 12: #query #mario, #saudi #arabia)', () => {
    expect(tags('Media Query Mario is a fun way to learn CSS media queries')).toContain('media query mario')
    expect(tags('Media Query Mario is a fun way to learn CSS media queries')).not.toContain('mario')
    const saudi = tags('Saudi Arabia announced a new militia deal')
    expect(saudi).toContain('saudi arabia')
    expect(saudi).not.toContain('saudi')
    expect(saudi).not.toContain('arabia')
  })
  it('takes no keywords from CSS declarations (issue 12: #auto #content #items)', () => {
    const t = tags('Flexbox tip: .row { justify-content: space-between; align-items: auto; } and that is it')
    for (const w of ['auto', 'content', 'items', 'space']) expect(t).not.toContain(w)
  })
  it('gives at most five', () => {
    expect(tags('Kubernetes, Docker, Terraform, Ansible, Prometheus, Grafana and Helm in one homelab on Proxmox with Ubuntu').length).toBeLessThanOrEqual(5)
  })
})

describeIf(hasFixtures, NEEDS_FIXTURES)('suggestTags on real posts', () => {
  const posts = hasFixtures ? [...readFixturePosts(), ...readFlatExcerpt()] : []
  const tagsOf = (id: string) => {
    const p = posts.find((x) => x.postId === id)!
    return suggestTags(p, extractEntities(p), { vocab: createTagVocabulary(), doc: readText(p.text) })
  }
  it('tags posts with their named things and topics', () => {
    expect(tagsOf('2074968589820739994')).toEqual(expect.arrayContaining(['grok', 'gpt', 'ai']))
    expect(tagsOf('2074974895750951259')).toEqual(expect.arrayContaining(['tesla', 'model s', 'electric vehicles']))
    expect(tagsOf('1564644124858486785')).toContain('chirp dev challenge')
    // a word of a longer tag on the same post adds nothing
    expect(tagsOf('1564644124858486785')).not.toContain('chirp')
  })
  it('gives 1 to 5 tags to posts with something to say, 2 or more to nearly all', () => {
    const vocab = createTagVocabulary()
    // English posts: the resources are English; a Japanese post gets its hashtags only.
    const english = posts.filter((x) => (x.text.match(/[a-z]/gi) ?? []).length > 120)
    let two = 0
    for (const p of english) {
      const tags = suggestTags(p, extractEntities(p), { vocab, doc: readText(p.text) })
      expect(tags.length, p.text).toBeGreaterThanOrEqual(1)
      expect(tags.length).toBeLessThanOrEqual(5)
      expect(new Set(tags).size).toBe(tags.length)
      for (const t of tags) expect(tags.filter((u) => u !== t && u.split(' ').includes(t)), t).toEqual([])
      if (tags.length >= 2) two++
    }
    expect(two / english.length).toBeGreaterThanOrEqual(0.9)
  })
})

describe('suggestTags in another language', () => {
  const tags = (text: string, lang: string) => {
    const p = makePost(text, { lang })
    return suggestTags(p, extractEntities(p), { vocab: createTagVocabulary(), doc: readText(text) })
  }
  it('takes names written capitalised, never phrases the English reading took for names', () => {
    expect(tags('Detalle final: "que no tape el texto"  Por último, el crédito bien merecido a Iván Malagón.', 'es')).toEqual(expect.arrayContaining(['iván malagón', 'spanish']))
    expect(tags('Detalle final: "que no tape el texto"  Por último, el crédito bien merecido.', 'es')).toEqual(['spanish'])
    expect(tags('TIL  En Arc: Alt+Cmd+N te abre una ventana de búsqueda', 'es')).not.toContain('en arc')
    expect(tags('Russische Spione in Berlin festgenommen, sagt die Bundesanwaltschaft', 'de')).toEqual(expect.arrayContaining(['german']))
  })
  it('names the language only when the post has words enough to be in one (X guesses on "Synth60", "c viene")', () => {
    expect(tags('c viene', 'fr')).toEqual([])
    expect(tags('Synth60', 'da')).toEqual([])
    expect(tags('Paletas super básicas para empezar a pintar', 'es')).toContain('spanish')
    expect(tags('風景イラスト「夕風の音」', 'ja')).toContain('japanese')
  })
  it('does not read a common word of the language as a product ("la imagen" is not Google\'s Imagen)', () => {
    expect(tags('y la imagen se publicó esa misma tarde', 'es')).not.toContain('imagen')
  })
})

const CODE_WORDS = new Set(['auto', 'content', 'items', 'flex', 'none', 'block', 'inline', 'px', 'const', 'function', 'return', 'div', 'span'])

describeIf(hasFixtures && existsSync(ARCHIVE_TWEETS), NEEDS_FIXTURES)('tags of every real post in the fixtures (GraphQL captures, flat excerpt, X archive)', async () => {
  const posts = hasFixtures && existsSync(ARCHIVE_TWEETS) ? [...readFixturePosts(), ...readFlatExcerpt(), ...(await readArchivePosts())] : []
  const vocab = createTagVocabulary()
  const tagged = posts.map((p) => {
    const doc = readText(p.text)
    const e = extractEntities(p, { doc })
    return { p, e, tags: suggestTags(p, e, { vocab, doc }) }
  })
  it('reads over a thousand posts, most of them in Spanish', () => {
    expect(tagged.length).toBeGreaterThan(1300)
    expect(tagged.filter((t) => t.p.lang === 'es').length).toBeGreaterThan(600)
  })
  it('gives no stop word, filler noun, possessive or CSS/code keyword as a tag', () => {
    for (const { p, tags } of tagged) {
      for (const t of tags) {
        expect(STOPWORDS.has(t), `${t} <- ${p.text}`).toBe(false)
        expect(CODE_WORDS.has(t), `${t} <- ${p.text}`).toBe(false)
        expect(t, p.text).not.toMatch(/['’]s$/)
        expect(['guys', 'problem', 'friend', 'thanks', 'yesterday', 'details', 'users', 'others', 'info']).not.toContain(t)
      }
    }
  })
  it('tags a post in another language with names, hashtags, topics and its language, never a phrase of its own words as they are written', () => {
    const foreign = tagged.filter((t) => t.p.lang && !/^(en|und|qme|qht|qam|qct|qst|zxx|art)$/.test(t.p.lang))
    expect(foreign.length).toBeGreaterThan(700)
    for (const { p, e, tags } of foreign) {
      const lower = p.text.toLowerCase()
      const known = new Set([...e.tools, ...e.products, ...e.companies, ...e.topics, ...e.concepts].map((n) => vocab.normalize(n)))
      const hashtags = (p.text.match(/#[\p{L}\p{N}_]+/gu) ?? []).map((h) => h.slice(1).toLowerCase())
      for (const t of tags.filter((x) => x.includes(' '))) {
        // A phrase tag found in the text must be written there capitalised (a name) or be a hashtag.
        if (!lower.includes(t) || known.has(t) || hashtags.some((h) => h.replace(/_/g, ' ') === t)) continue
        const i = lower.indexOf(t)
        const written = p.text.slice(i, i + t.length)
        expect(written.split(/\s+/).every((w) => /^\p{Lu}/u.test(w)), `${t} <- ${p.text}`).toBe(true)
      }
    }
    expect(foreign.filter((t) => t.tags.includes('spanish')).length).toBeGreaterThan(600)
  })
})
