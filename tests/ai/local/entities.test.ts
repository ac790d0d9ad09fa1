import { describe, expect, it } from 'vitest'
import { extractEntities, parseRepoUrl } from '../../../src-main/ai/local/index.ts'
import { makePost } from './make-post.ts'
import { FIXTURES, hasFixtures, readFixturePosts, readFlatExcerpt } from './fixture-posts.ts'
import { describeIf } from '../../support/skip.ts'
import { NEEDS_FIXTURES } from '../../support/fixtures.ts'

const post = makePost

describe('extractEntities on made-up posts', () => {
  it('finds tools, products and companies through aliases and exact case', () => {
    const e = extractEntities(post('Rewrote our backend from Node.js to Go, backed by postgres on k8s. GPT-4o and Claude helped; Anthropic ships fast.'))
    expect(e.tools).toEqual(expect.arrayContaining(['Node.js', 'Go', 'PostgreSQL', 'Kubernetes']))
    expect(e.products).toEqual(expect.arrayContaining(['GPT', 'Claude']))
    expect(e.companies).toContain('Anthropic')
  })

  it('does not take the verb "go" or a sentence-initial "Go" for the language', () => {
    expect(extractEntities(post('Go wide, then go deep: we go to the beach today.')).tools).not.toContain('Go')
    expect(extractEntities(post('Taylor Swift released a new album')).tools).not.toContain('Swift')
  })

  it('reads hashtags, mentions, urls, domains and repos from expanded links', () => {
    const e = extractEntities(
      post('Try this #rustlang crate by @ferris 🦀 https://t.co/abc and https://t.co/def #水星の魔女', {
        urls: [
          { url: 'https://t.co/abc', expandedUrl: 'https://github.com/tokio-rs/axum/tree/main/examples', displayUrl: null },
          { url: 'https://t.co/def', expandedUrl: 'https://crates.io/crates/serde', displayUrl: null },
        ],
      }),
    )
    expect(e.hashtags).toEqual(['rustlang', '水星の魔女'])
    expect(e.mentions).toEqual(['ferris'])
    expect(e.domains).toEqual(['github.com', 'crates.io'])
    expect(e.repos).toEqual([
      { host: 'github', owner: 'tokio-rs', name: 'axum', url: 'https://github.com/tokio-rs/axum' },
      { host: 'crates', owner: '', name: 'serde', url: 'https://crates.io/crates/serde' },
    ])
    expect(e.kind).toBe('link')
    expect(e.urls.some((u) => u.includes('t.co'))).toBe(false)
  })

  it('tells the post kind', () => {
    expect(extractEntities(post('@bob agreed')).kind).toBe('text')
    expect(extractEntities(post('@bob agreed', { inReplyToPostId: '9' })).kind).toBe('reply')
    expect(extractEntities(post('and the second part', { inReplyToPostId: '9' })).kind).toBe('thread')
    expect(extractEntities(post('How caches work 🧵')).kind).toBe('thread')
    expect(extractEntities(post('look', { media: [{ type: 'photo', url: 'u', thumbnailUrl: 'u', videoUrl: null, altText: null, width: 1, height: 1, durationMs: null }] })).kind).toBe('media')
    const { quoted: _q, source: _s, rawJson: _r, ...inner } = post('inner')
    expect(extractEntities(post('so true', { quoted: inner })).kind).toBe('quote')
  })
})

describe('parseRepoUrl', () => {
  it.each([
    ['https://github.com/stas00/ml-engineering', { host: 'github', owner: 'stas00', name: 'ml-engineering' }],
    ['https://github.com/alrocar/locked_screen/pull/5/files', { host: 'github', owner: 'alrocar', name: 'locked_screen' }],
    ['https://gitlab.com/gitlab-org/cli/-/issues/1', { host: 'gitlab', owner: 'gitlab-org', name: 'cli' }],
    ['https://www.npmjs.com/package/@hono/node-server', { host: 'npm', owner: '@hono', name: 'node-server' }],
    ['https://pypi.org/project/tinybird-cli/', { host: 'pypi', owner: '', name: 'tinybird-cli' }],
  ])('%s', (url, expected) => {
    expect(parseRepoUrl(url)).toMatchObject(expected)
  })
  it('ignores profiles and site pages', () => {
    expect(parseRepoUrl('https://github.com/matteason')).toBeNull()
    expect(parseRepoUrl('https://github.com/features/copilot')).toBeNull()
    expect(parseRepoUrl('https://example.com/a/b')).toBeNull()
  })
})

describeIf(hasFixtures, NEEDS_FIXTURES)('extractEntities on real posts (../shared/fixtures)', () => {
  if (!hasFixtures) console.warn(`skipping: fixtures not found at ${FIXTURES}`)
  const posts = hasFixtures ? readFixturePosts() : []
  const byId = (id: string) => {
    const p = posts.find((x) => x.postId === id)
    if (!p) throw new Error(`fixture post ${id} missing`)
    return extractEntities(p)
  }

  it('finds the hashtags, mentions and domains of known posts', () => {
    expect(byId('1682072224013099008')).toMatchObject({ hashtags: ['Fortnite'], mentions: ['FortniteStatus'], domains: ['fn.gg'] })
    expect(byId('1564644124858486785').hashtags).toEqual(['ChirpDevChallenge', 'Chirp'])
    expect(byId('2074882755905585583').domains).toEqual(['docs.x.com'])
    expect(byId('1553047818222321664').mentions).toEqual(expect.arrayContaining(['charmcli', 'jessicagarson', 'twitterdev']))
  })

  it('names AI models, tools and companies', () => {
    const grok = byId('2074968589820739994')
    expect(grok.products).toEqual(expect.arrayContaining(['Grok', 'GPT', 'Claude Opus']))
    expect(grok.tools).toContain('Claude Code')
    expect(byId('2074955486441492823').companies).toEqual(expect.arrayContaining(['Tesla', 'SpaceX', 'Neuralink', 'Boring Company']))
    expect(byId('2074974895750951259')).toMatchObject({ products: ['Model S'], companies: ['Tesla'] })
  })

  it('finds people and places with compromise where names appear', () => {
    expect(byId('2074952565641695738').companies).toContain('Waymo')
    expect(byId('1547039584202067969').places).toContain('San Francisco')
  })

  it('tells threads, quotes and replies apart', () => {
    expect(byId('1547588038032732160').kind).toBe('thread')
    expect(byId('2074963269429661921').kind).toBe('quote')
    expect(byId('1697284191950348589').kind).toBe('reply')
  })

  it('finds repositories behind t.co links', () => {
    const derived = readFixturePosts([`${FIXTURES}/exports/derived/graphql_bookmarks_envelope_newschema.json`])
    const chat = derived.find((p) => p.postId === '2082640276389249363')!
    expect(extractEntities(chat).repos).toEqual([{ host: 'github', owner: 'xdevplatform', name: 'chat-xdk', url: 'https://github.com/xdevplatform/chat-xdk' }])
    const flat = readFlatExcerpt()
    const ml = flat.find((p) => p.postId === '2107133370220302708')!
    expect(extractEntities(ml).repos[0]).toMatchObject({ owner: 'stas00', name: 'ml-engineering' })
    const karpathy = extractEntities(flat.find((p) => p.postId === '2106775535787323649')!)
    expect(karpathy.people).toContain('Andrej Karpathy')
    expect(karpathy.tools).toContain('Python')
  })
})
