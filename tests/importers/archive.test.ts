import { readFileSync } from 'node:fs'
import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { zNormalizedPost } from '../../src-shared/schemas/posts.ts'
import { parseExport } from '../../src-main/importers/index.ts'
import { collect, fixture, HAVE_FIXTURES } from './support.ts'
import { describeIf } from '../support/skip.ts'
import { NEEDS_FIXTURES } from '../support/fixtures.ts'

const dir = (name: string) => fixture(`archive/alrocar_x/${name}`)
const noteTexts = () => {
  const s = readFileSync(dir('note-tweet.js'), 'utf8')
  return (JSON.parse(s.slice(s.indexOf('=') + 1)) as Array<{ noteTweet: { core: { text: string } } }>).map((n) => n.noteTweet.core.text)
}

describeIf(HAVE_FIXTURES, NEEDS_FIXTURES)('x-archive: the official data archive', () => {
  it('tweets.js alone: 1,223 own posts, numbers from strings, media, decoded entities', async () => {
    const r = await collect(await parseExport(readFileSync(dir('tweets.js')), { fileName: 'renamed.json' }))
    expect(r.format).toBe('x-archive')
    expect(r.posts).toHaveLength(1223)
    expect(r.errors).toEqual([])
    for (const p of r.posts.slice(0, 50)) zNormalizedPost.parse(p)
    const first = r.byId('1855222380982907193')
    expect(first).toMatchObject({ source: 'own_post', postCreatedAt: '2024-11-09T12:14:18.000Z', lang: 'es' })
    expect(first.text.startsWith('RT @notasintel: #DANA')).toBe(true)
    expect(first.engagement).toMatchObject({ likes: 0, reposts: 0 })
    // No manifest: the handle is read off the post's own media link, else unknown.
    const gif = r.byId('1854591356741861770')
    expect(gif.authorHandle).toBe('alrocar')
    expect(gif.text).toBe('@skgsergio Eso qué es?')
    expect(gif.inReplyToPostId).toBe('1854584712419065998')
    expect(gif.media[0]).toMatchObject({
      type: 'animated_gif', videoUrl: 'https://video.twimg.com/tweet_video/GbzVAMlXEAQnc5_.mp4', width: 498, height: 498,
    })
    const video = r.byId('1841071718988714381')
    expect(video.text).toBe('TIL')
    expect(video.media[0]).toMatchObject({
      type: 'video', durationMs: 17533,
      videoUrl: 'https://video.twimg.com/ext_tw_video/1841071622142255105/pu/vid/avc1/1842x1080/wZwdl2psWVDiB7ej.mp4?tag=14',
    })
    expect(r.byId('1838277097510297609').text).toContain('en Tinybird => https://t.co/wZmBXxnIBC')
    expect(r.byId('1760611342728208575').authorHandle).toBe('unknown')
  })

  it('the archive zip: owner from manifest.js, long posts from note-tweet.js matched by time and text', async () => {
    const zip = zipSync({
      'data/tweets.js': readFileSync(dir('tweets.js')),
      'data/note-tweet.js': readFileSync(dir('note-tweet.js')),
      'data/manifest.js': readFileSync(dir('manifest.js')),
      'data/tweets_media/ignored.jpg': new Uint8Array([1, 2, 3]),
    })
    const r = await collect(await parseExport(zip))
    expect(r.format).toBe('x-archive-zip')
    expect(r.posts).toHaveLength(1223)
    expect(r.posts.every((p) => p.authorHandle === 'alrocar' && p.authorName === 'alrocar 🥘')).toBe(true)
    const notes = noteTexts()
    expect(notes).toHaveLength(41)
    expect(notes.every((n) => r.posts.some((p) => p.text.endsWith(n)))).toBe(true)
    const long = r.byId('1712845356000485462')
    expect(long.text.endsWith("so you don't even have to remember to run them ✅\n\nCheck it out 👇")).toBe(true)
    // Two posts share 2024-04-02T16:25:47Z; only the one whose text the note continues gets it.
    expect(r.byId('1775197948491542564').text).toHaveLength(347)
    expect(r.byId('1775197951666631048').text).toBe('Más sobre optimizar CI en el mundo real por aquí => https://t.co/A66cuFw7cw')
    // A reply keeps its leading mentions in front of the note text.
    expect(r.byId('1760611342728208575').text.startsWith('@borlanco @Longor A tope con lo declarativo')).toBe(true)
    expect(r.byId('1760611342728208575').text).not.toContain('…')
  })

  it('manifest.js alone is refused with a hint', async () => {
    await expect(parseExport(readFileSync(dir('manifest.js')))).rejects.toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('tweets.js') })
  })

  it('note-tweet.js alone yields only a skipped item', async () => {
    const r = await collect(await parseExport(readFileSync(dir('note-tweet.js'))))
    expect(r.posts).toEqual([])
    expect(r.skipped).toHaveLength(1)
  })
})

describe('x-archive: like.js', () => {
  it('reads likes: source like, date from the snowflake id, entities decoded', async () => {
    const like = 'window.YTD.like.part0 = [ {\n  "like" : {\n    "tweetId" : "1855222380982907193",\n    "fullText" : "a &amp; b &lt;3",\n    "expandedUrl" : "https://twitter.com/i/web/status/1855222380982907193"\n  }\n} ]'
    const r = await collect(await parseExport(Buffer.from(like)))
    expect(r.format).toBe('x-archive')
    expect(r.posts).toHaveLength(1)
    expect(r.posts[0]).toMatchObject({ postId: '1855222380982907193', text: 'a & b <3', source: 'like', authorHandle: 'unknown' })
    // (1855222380982907193 >> 22) + 1288834974657 = 2024-11-09T12:14:18.648Z; the archive's created_at says 12:14:18
    expect(r.posts[0].postCreatedAt).toBe('2024-11-09T12:14:18.648Z')
  })
})
