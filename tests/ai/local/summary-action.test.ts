import { describe, expect, it } from 'vitest'
import { classifyAction, classifySentiment, extractEntities, MAX_SUMMARY, summarize } from '../../../src-main/ai/local/index.ts'
import { hasFixtures, readFixturePosts, readFlatExcerpt } from './fixture-posts.ts'
import { link, makePost, media } from './make-post.ts'
import { describeIf } from '../../support/skip.ts'

describe('summarize', () => {
  it('picks the informative sentence and drops links and reply handles', () => {
    const s = summarize(makePost('@alice @bob lol. PostgreSQL 17 adds incremental backups and faster vacuum for large tables. https://t.co/abc'))
    expect(s).toBe('PostgreSQL 17 adds incremental backups and faster vacuum for large tables.')
  })

  it('stays within 200 characters', () => {
    const long = 'Distributed systems engineering requires careful thought about consistency, availability, partition tolerance, latency budgets, retries, idempotency keys, backpressure, observability, and the failure modes of every dependency involved in serving a request'
    const s = summarize(makePost(long))
    expect(s.length).toBeLessThanOrEqual(MAX_SUMMARY)
    expect(s.endsWith('…')).toBe(true)
  })

  it('describes media-only posts with alt text or OCR text', () => {
    expect(summarize(makePost('https://t.co/x', { authorHandle: 'pics', media: [media('photo', { altText: 'A red fox in the snow' })] }))).toBe('Photo by @pics: A red fox in the snow')
    expect(summarize(makePost('', { authorHandle: 'dev', media: [media('photo')] }), { ocrText: 'SELECT * FROM users' })).toBe('Photo by @dev: SELECT * FROM users')
    expect(summarize(makePost('', { authorHandle: 'dev', media: [media('video')] }))).toBe('Video by @dev')
  })
})

describe('classifyAction', () => {
  const action = (text: string, extra = {}) => {
    const p = makePost(text, extra)
    return classifyAction(p, extractEntities(p), classifySentiment(p.text))
  }
  it('follows the documented rules', () => {
    expect(action('The ultimate Git cheatsheet: every command you need, step by step')).toBe('reference')
    expect(action('Check out this CLI for Postgres migrations', { urls: [link('https://github.com/acme/pgmig')] })).toBe('try')
    expect(action('Great talk on compilers', { urls: [link('https://www.youtube.com/watch?v=abc')] })).toBe('watch')
    expect(action('New essay on why software estimates fail', { urls: [link('https://someone.substack.com/p/estimates')] })).toBe('read_later')
    expect(action('when the build passes on the first try 😂😂', { media: [media('photo')] })).toBe('share')
    expect(action('Nice weather today.')).toBe('archive')
  })
})

describeIf(hasFixtures, "needs ../shared/fixtures (present beside the repository in CI, absent in a user's clone)")('summary and action on real posts', () => {
  const posts = hasFixtures ? [...readFixturePosts(), ...readFlatExcerpt()] : []
  const get = (id: string) => posts.find((p) => p.postId === id)!
  it('summarises every post in one clean line of at most 200 characters', () => {
    for (const p of posts) {
      const s = summarize(p)
      expect(s.length).toBeGreaterThan(0)
      expect(s.length).toBeLessThanOrEqual(MAX_SUMMARY)
      expect(s).not.toMatch(/https?:\/\/t\.co/)
      expect(s).not.toMatch(/\n/)
    }
    expect(summarize(get('1682072224013099008'))).toBe('Your one-stop shop for everything live status for #Fortnite!')
  })
  it('suggests sensible actions', () => {
    const act = (id: string) => {
      const p = get(id)
      return classifyAction(p, extractEntities(p))
    }
    expect(act('2107133370220302708')).toBe('try') // github.com/stas00/ml-engineering
    expect(act('1649309063690297346')).toBe('share') // "That's a funny way to spell..."
    expect(act('2107404748169400635')).toBe('read_later') // long note post
  })
})
