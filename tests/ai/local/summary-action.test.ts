import { beforeAll, describe, expect, it } from 'vitest'
import {
  actionPrototypes, classifyAction, classifySentiment, extractEntities, gistSentences, loadSentenceEncoder, MAX_SUMMARY, ownWords, summarize, wantsGist,
  type ActionPrototypes, type SentenceEncoder,
} from '../../../src-main/ai/local/index.ts'
import type { NormalizedPost } from '../../../src-shared/schemas/posts.ts'
import { summaryFaults } from '../../../bench/local-understanding.ts'
import { hasFixtures, readArchivePosts, readFixturePosts, readFlatExcerpt } from './fixture-posts.ts'
import { link, makePost, media } from './make-post.ts'
import { describeIf } from '../../support/skip.ts'
import { NEEDS_FIXTURES } from '../../support/fixtures.ts'

let encoder: SentenceEncoder
let prototypes: ActionPrototypes
beforeAll(async () => {
  encoder = await loadSentenceEncoder()
  prototypes = await actionPrototypes(encoder)
})

/** The summary as the pipeline makes it: the sentences of a long post encoded, its gist chosen by meaning. */
const summaryOf = async (p: NormalizedPost, opts: { ocrText?: string } = {}) => {
  const thread = extractEntities(p).kind === 'thread'
  const sentences = gistSentences(p, { thread })
  return summarize(p, { ...opts, thread, sentenceVectors: sentences.length ? await encoder.encode(sentences) : null })
}

const LONG = [
  'Good morning everyone, the coffee here is terrible again.',
  'PostgreSQL 17 adds incremental backups, so a nightly backup of a large database copies only the pages that changed since the last one.',
  'Incremental backups in PostgreSQL 17 are combined with pg_combinebackup when you need to restore the database.',
  'The release also makes vacuum use far less memory on large tables, which keeps the database responsive.',
  'Logical replication in PostgreSQL 17 now survives a major version upgrade of the database without a resync.',
  'Upgrading is a dump and restore or pg_upgrade as before, and the release notes list every change to the database catalog.',
  'Anyway, I am off to lunch now, see you all later!',
].join(' ')

describe('summarize', () => {
  it('gives a short post no summary: its own words are all there is, and repeating them is noise', async () => {
    expect(await summaryOf(makePost('@alice @bob lol. PostgreSQL 17 adds incremental backups and faster vacuum for large tables. https://t.co/abc'))).toBe('')
    expect(await summaryOf(makePost('Nice weather today.'))).toBe('')
  })

  it('never keeps a dash or colon left where a link ended a sentence ("Flexbox isn\'t slow -")', async () => {
    const p = makePost([
      "Flexbox isn't slow, and the real reason large pages feel sluggish is somewhere else entirely - https://t.co/abc",
      'Browsers lay out flex containers quickly.',
      'Scripts, huge images and layout thrashing cost far more.',
      'Measure first.',
      'The performance panel of every browser shows where the time goes, frame by frame, so fix the biggest cost before touching the stylesheet at all.',
    ].join('\n\n'))
    const s = await summaryOf(p)
    expect(s.startsWith("Flexbox isn't slow")).toBe(true)
    expect(s).not.toMatch(/\s[-–—:]$/)
    expect(s).not.toMatch(/[-–—:]$/)
  })

  it('never says only who posted it ("Post by @andreruffert")', async () => {
    const bare = makePost('https://t.co/abc', { authorHandle: 'andreruffert', urls: [link('https://x.com/someone/status/123')] })
    expect(await summaryOf(bare)).toBe('')
    expect(await summaryOf(makePost('🔥🔥', { authorHandle: 'andreruffert' }))).toBe('')
  })

  it('says what a short post carries beyond its words: picture text, the quoted post, the link', async () => {
    expect(await summaryOf(makePost('https://t.co/x', { authorHandle: 'pics', media: [media('photo', { altText: 'A red fox in the snow' })] }))).toBe('Image: A red fox in the snow')
    expect(await summaryOf(makePost('', { authorHandle: 'dev', media: [media('photo')] }), { ocrText: 'SELECT * FROM users' })).toBe('Image: SELECT * FROM users')
    expect(await summaryOf(makePost('', { authorHandle: 'dev', media: [media('video')] }))).toBe('Video (1:00)')
    expect(await summaryOf(makePost('Worth a look https://t.co/x1', { urls: [link('https://github.com/acme/pgmig')] }))).toBe('Link to github.com/acme/pgmig')
    expect(await summaryOf(makePost('Good read https://t.co/x1', { urls: [link('https://morling.dev/blog/whats-in-a-good-error-message/')] }))).toBe('Link to morling.dev: whats in a good error message')
    // identifiers in a link's path say nothing: the path stops before them
    expect(await summaryOf(makePost('Mirad esto https://t.co/x1', { urls: [link('https://ray.so/sM7YXL0')] }))).toBe('Link to ray.so')
    expect(await summaryOf(makePost('El mapa https://t.co/x1', { urls: [link('https://team.example.com/u/ana/builder/5ce9a1b2-4307-9a6d')] }))).toBe('Link to team.example.com/u/ana/builder')
    expect(await summaryOf(makePost('Here https://t.co/x1', { urls: [link('https://felt.com/map/cemeteries-FA6XhFqoSQWwobdyFrkmZA')] }))).toBe('Link to felt.com: cemeteries')
    const quoting = makePost('This, exactly.', { quoted: { ...makePost('Estimates fail because the work is unknown until it is done.'), authorHandle: 'kent' } })
    expect(await summaryOf(quoting)).toBe('Quotes @kent: Estimates fail because the work is unknown until it is done.')
  })

  it('gives a long post its gist: the sentences central to its meaning, not its opening or its sign-off', async () => {
    const p = makePost(LONG)
    expect(wantsGist(p)).toBe(true)
    const s = await summaryOf(p)
    expect(s.length).toBeLessThanOrEqual(MAX_SUMMARY)
    expect(s).toMatch(/PostgreSQL 17/)
    expect(s).not.toMatch(/coffee|lunch/)
    // whole sentences of the post, never cut
    expect(s.endsWith('…')).toBe(false)
    for (const sentence of s.split(/(?<=\.)\s+/)) expect(LONG).toContain(sentence)
  })

  it('cuts a sentence longer than the budget at a word boundary', () => {
    const words = 'Distributed systems engineering requires careful thought about consistency, availability, partition tolerance, latency budgets, retries, idempotency keys, backpressure, observability, and the failure modes of every dependency involved in serving a request'
    const s = summarize(makePost(`${words}. ${words.replace('Distributed', 'Centralised')}.`))
    expect(s.length).toBeLessThanOrEqual(MAX_SUMMARY)
    expect(s.endsWith('…')).toBe(true)
    expect(words).toContain(s.slice(0, -1))
    expect(words[s.length - 1]).toMatch(/[\s,]/)
  })
})

describe('classifyAction', () => {
  const action = async (text: string, extra = {}, withVector = true) => {
    const p = makePost(text, extra)
    const [vector] = await encoder.encode([text])
    return classifyAction(p, extractEntities(p), classifySentiment(p.text), withVector ? { vector, prototypes } : {})
  }
  it('follows the documented cues', async () => {
    expect(await action('The ultimate Git cheatsheet: every command you need, step by step')).toBe('reference')
    expect(await action('Check out this CLI for Postgres migrations', { urls: [link('https://github.com/acme/pgmig')] })).toBe('try')
    expect(await action('Great talk on compilers', { urls: [link('https://www.youtube.com/watch?v=abc')] })).toBe('watch')
    expect(await action('New essay on why software estimates fail', { urls: [link('https://someone.substack.com/p/estimates')] })).toBe('read_later')
    expect(await action('when the build passes on the first try 😂😂', { media: [media('photo')] })).toBe('share')
    expect(await action('@friend thanks, see you tomorrow!', { inReplyToPostId: '99' })).toBe('archive')
  })

  it('reads meaning when the post has no cue words', async () => {
    // none of these has a link, a video or a cue word; the encoder's vector decides
    expect(await action('Here is how to set up SSH keys on a new laptop, in five steps you can keep for later')).toBe('reference')
    expect(await action('Our open-source library for parsing PDFs just hit version 2.0 and you can install it today')).toBe('try')
    expect(await action('Our open-source library for parsing PDFs just hit version 2.0 and you can install it today', {}, false)).not.toBe('share')
  })
})

describeIf(hasFixtures, NEEDS_FIXTURES)('summary and action on real posts', () => {
  let posts: NormalizedPost[] = []
  let archive: NormalizedPost[] = []
  beforeAll(async () => {
    posts = [...readFixturePosts(), ...readFlatExcerpt()]
    archive = await readArchivePosts()
  })
  const get = (id: string) => posts.find((p) => p.postId === id)!

  it('never repeats or cuts a post: short posts get a description or nothing, long ones a gist', async () => {
    let gists = 0
    for (const p of [...posts, ...archive]) {
      const s = await summaryOf(p)
      const f = summaryFaults(p.text, s)
      expect(f.repeats, `${p.postId}: ${s}`).toBe(false)
      expect(s, p.postId).not.toMatch(/\s[-–—:]$/)
      expect(s.length).toBeLessThanOrEqual(MAX_SUMMARY)
      expect(s).not.toMatch(/https?:\/\/t\.co/)
      expect(s).not.toMatch(/\n/)
      expect(s).not.toMatch(/^Post by @/)
      // "…" only where a long sentence of a long post, or of what a short post quotes or shows, had to be shortened
      if (f.cut && !/^(Quotes( @\w+)?|Image|Video): /.test(s)) expect(ownWords(p.text).length, `${p.postId}: ${s}`).toBeGreaterThan(200)
      if (wantsGist(p, { thread: extractEntities(p).kind === 'thread' })) gists++
    }
    expect(gists).toBeGreaterThan(10)
  })

  it('gives a long note post a gist from its own sentences, shorter than the post', async () => {
    const p = get('2107404748169400635')
    const s = await summaryOf(p)
    expect(s.length).toBeGreaterThan(40)
    expect(s.length).toBeLessThan(ownWords(p.text).length / 2)
    for (const part of s.replace(/…$/, '').split(/(?<=[.!?])\s+/)) expect(ownWords(p.text)).toContain(part.slice(0, 30))
  })

  it('suggests sensible actions, and no single action for most posts', async () => {
    const vectors = await encoder.encode(posts.map((p) => p.text))
    const act = (p: NormalizedPost, i: number) => classifyAction(p, extractEntities(p), null, { vector: vectors[i], prototypes })
    const actions = posts.map(act)
    const byId = (id: string) => actions[posts.findIndex((p) => p.postId === id)]
    expect(byId('2107133370220302708')).toBe('try') // github.com/stas00/ml-engineering
    expect(byId('1649309063690297346')).toBe('share') // "That's a funny way to spell..."
    expect(byId('2107404748169400635')).toBe('read_later') // long note post
    const archiveVectors = await encoder.encode(archive.map((p) => p.text))
    const archiveActions = archive.map((p, i) => classifyAction(p, extractEntities(p), null, { vector: archiveVectors[i], prototypes }))
    for (const set of [actions, archiveActions]) {
      const counts = new Map<string, number>()
      for (const a of set) counts.set(a, (counts.get(a) ?? 0) + 1)
      expect(counts.size).toBe(6)
      expect(Math.max(...counts.values()) / set.length).toBeLessThan(0.5)
    }
  }, 600_000)
})
