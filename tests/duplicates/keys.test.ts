import { describe, expect, it } from 'vitest'
import { duplicateKeys, isLatinText, keysOfStored, normalizeLink, normalizeText, textKey } from '../../src-main/duplicates/index.ts'

describe('normalizeLink', () => {
  it('drops the scheme, www., host case, tracking parameters, the fragment and the trailing slash', () => {
    const a = normalizeLink('https://www.Example.COM/Blog/Post-1/?utm_source=twitter&utm_medium=social&fbclid=abc#top')
    const b = normalizeLink('http://example.com/Blog/Post-1?ref=hn&gclid=x')
    expect(a).toBe('example.com/Blog/Post-1')
    expect(b).toBe(a)
  })

  it('keeps parameters that choose the page, sorted', () => {
    expect(normalizeLink('https://youtube.com/watch?v=abc&si=share123&t=42')).toBe('youtube.com/watch?t=42&v=abc')
    expect(normalizeLink('https://shop.example/item?b=2&a=1')).toBe(normalizeLink('https://shop.example/item?a=1&b=2'))
    expect(normalizeLink('https://shop.example/item?id=1')).not.toBe(normalizeLink('https://shop.example/item?id=2'))
  })

  it('says nothing for t.co, front pages, other schemes and garbage', () => {
    expect(normalizeLink('https://t.co/AbC123')).toBeNull()
    expect(normalizeLink('https://www.example.com/')).toBeNull()
    expect(normalizeLink('https://example.com/?utm_source=x')).toBeNull()
    expect(normalizeLink('mailto:a@example.com')).toBeNull()
    expect(normalizeLink('not a link')).toBeNull()
  })

  it('links to the post itself are no key; links to other posts are x.com/status/ID whatever the host and handle', () => {
    expect(normalizeLink('https://x.com/alice/status/123/photo/1', '123')).toBeNull()
    expect(normalizeLink('https://twitter.com/alice/status/123?s=20&t=abc', '999')).toBe('x.com/status/123')
    expect(normalizeLink('https://mobile.twitter.com/i/web/status/123', '999')).toBe('x.com/status/123')
    expect(normalizeLink('https://x.com/alice?s=21')).toBe('x.com/alice')
  })
})

describe('normalizeText and textKey', () => {
  it('strips RT @handle:, leading mentions, links, case, punctuation and emoji', () => {
    const original = 'Shipping the new parser today — it is twice as fast! 🚀 https://t.co/xyz'
    expect(normalizeText(original)).toBe('shipping the new parser today it is twice as fast')
    expect(normalizeText('RT @alice: Shipping the new parser today — it is twice as fast! 🚀')).toBe(normalizeText(original))
    expect(normalizeText('@bob @carol shipping the new parser today, it is twice as fast...')).toBe(normalizeText(original))
    expect(normalizeText("It's   DONE &amp; dusted")).toBe('its done dusted')
  })

  it('is a key only with at least five words, and is the first twelve (a retweet is cut at 140 characters)', () => {
    expect(textKey('So true!')).toBeNull()
    expect(textKey('this is so true 🔥')).toBeNull()
    expect(textKey('one two three four five')).toBe('one two three four five')
    const long = 'a b c d e f g h i j k l m n o p q r s t'
    expect(textKey(long)).toBe('a b c d e f g h i j k l')
    expect(textKey('RT @someone: a b c d e f g h i j k l m n…')).toBe(textKey(long))
  })

  it('text written without spaces (Japanese, Chinese…) counts characters: at least 15, the first 40', () => {
    const ja = '【情報初解禁✨】『機動戦士ガンダム #水星の魔女』より、「#ガンダム・キャリバーン」の #ガンプラ がHGシリーズにて発売!'
    expect(textKey(ja)).toBe(textKey(`RT @gundam_info: ${ja.slice(0, 60)}…`))
    expect(textKey(ja)).toHaveLength(40)
    expect(textKey('おはようございます')).toBeNull()
  })
})

describe('duplicateKeys', () => {
  it('one key per link, quote and text, without repeats, the quoted post\'s own link folded into the quote', () => {
    const keys = duplicateKeys({
      postId: '10',
      text: 'Read this great write-up about parsers and grammars',
      urls: [
        { url: 'https://t.co/a', expandedUrl: 'https://blog.example.com/parsers?utm_campaign=z' },
        { url: 'https://t.co/b', expandedUrl: 'https://blog.example.com/parsers/' },
        { url: 'https://t.co/c', expandedUrl: 'https://twitter.com/bob/status/77' },
        { url: 'https://t.co/d', expandedUrl: 'https://x.com/me/status/10/photo/1' },
      ],
      quotedPostId: '77',
    })
    expect(keys).toEqual([
      { kind: 'link', key: 'blog.example.com/parsers' },
      { kind: 'quote', key: '77' },
      { kind: 'text', key: 'read this great write up about parsers and grammars' },
    ])
  })

  it('reads stored JSON columns, and survives broken ones', () => {
    expect(keysOfStored({ postId: '1', text: 'hi', urls: '[{"url":"https://t.co/x","expandedUrl":"https://a.example/x"}]', quoted: '{"postId":"5"}' }))
      .toEqual([{ kind: 'link', key: 'a.example/x' }, { kind: 'quote', key: '5' }])
    expect(keysOfStored({ postId: '1', text: 'hi', urls: 'not json', quoted: '{' })).toEqual([])
  })
})

describe('isLatinText (near-identical meaning is only trusted for text the English-centred encoder reads)', () => {
  it('tells Latin-script text from other scripts', () => {
    expect(isLatinText('The X Chat API is now available, build experiences right in chat')).toBe(true)
    expect(isLatinText('【情報初解禁✨】『機動戦士ガンダム #水星の魔女』より、ガンプラがHGシリーズにて発売')).toBe(false)
    expect(isLatinText('ok')).toBe(false)
  })
})
