import { createReadStream } from 'node:fs'
import { expect, it } from 'vitest'
import { zNormalizedPost } from '../../src-shared/schemas/posts.ts'
import { parseExport } from '../../src-main/importers/index.ts'
import { collect, fixture, HAVE_FIXTURES } from './support.ts'
import { describeIf } from '../support/skip.ts'
import { NEEDS_FIXTURES } from '../support/fixtures.ts'

const load = async (rel: string) => collect(await parseExport(createReadStream(fixture(rel))))

describeIf(HAVE_FIXTURES, NEEDS_FIXTURES)('tool exports built from real posts', () => {
  it('Siftly, new schema: link cards skipped, @unknown kept as unknown, source from the file', async () => {
    const r = await load('derived/siftly_console_bookmarks_newschema.json')
    expect(r.format).toBe('siftly')
    expect(r.posts).toHaveLength(76)
    expect(r.errors).toEqual([])
    expect(r.skipped.map((s) => s.reason)).toEqual([
      'link card row, not a post (https://t.co/FS66GuIYJD)', 'link card row, not a post (https://t.co/7MkjBRWz9P)',
      'link card row, not a post (https://t.co/wtLOSqjOmx)', 'link card row, not a post (https://t.co/uD4EXaDs5h)',
    ])
    for (const p of r.posts) zNormalizedPost.parse(p)
    const p = r.byId('2074976613713031490')
    expect(p).toMatchObject({ authorHandle: 'unknown', authorName: '', source: 'bookmark', postCreatedAt: '2026-07-08T21:59:10.000Z' })
    // truncated as Siftly saw it, minus the trailing media link
    expect(p.text.endsWith('This is the best quarter out of the')).toBe(true)
    expect(p.media.map((m) => m.url)).toEqual([
      'https://pbs.twimg.com/media/HMvMNUDXcAA3HY3.jpg?name=orig', 'https://pbs.twimg.com/media/HMvMNT8XwAAOkNI.jpg?name=orig',
      'https://pbs.twimg.com/media/HMvMNUEXEAAuqM5.png?name=orig', 'https://pbs.twimg.com/media/HMvMNT8WAAEih4Q.jpg?name=orig',
    ])
    expect(r.posts.some((x) => /&amp;|&gt;|&lt;/.test(x.text))).toBe(false)
  })

  it('Siftly, old schema: real authors, expanded urls, video files', async () => {
    const r = await load('derived/siftly_console_bookmarks_oldschema.json')
    expect(r.posts).toHaveLength(72)
    expect(r.skipped).toHaveLength(1)
    const p = r.byId('1675457537876049921')
    expect(p).toMatchObject({ authorHandle: 'G_Witch_M', authorName: '機動戦士ガンダム 水星の魔女', postCreatedAt: '2023-07-02T10:53:00.000Z' })
    expect(p.urls).toEqual([{ url: 'https://g-witch.net/event/', expandedUrl: 'https://g-witch.net/event/', displayUrl: null }])
    const video = r.posts.flatMap((x) => x.media).find((m) => m.type === 'video')!
    expect(video.videoUrl).toMatch(/^https:\/\/video\.twimg\.com\/.+\.mp4/)
    expect(video.thumbnailUrl).toBe('')
  })

  it('twitter-web-exporter JSON: +08:00 dates to UTC, media, retweet row yields the original', async () => {
    const r = await load('derived/twitter_web_exporter_bookmarks.json')
    expect(r.format).toBe('twitter-web-exporter-json')
    expect(r.posts).toHaveLength(76)
    const p = r.byId('2074974895750951259') // "2026-07-09 05:52:20 +08:00"
    expect(p.postCreatedAt).toBe('2026-07-08T21:52:20.000Z')
    expect(p).toMatchObject({ authorHandle: 'EstherRebers', authorName: 'Esther Rebers' })
    expect(p.text.endsWith('Enjoy!\n@teslaeurope')).toBe(true)
    expect(p.engagement).toEqual({ likes: 543, reposts: 46, replies: 27, quotes: 7, bookmarks: 53, views: 63688 })
    expect(p.media[0]).toMatchObject({
      type: 'video',
      url: 'https://pbs.twimg.com/amplify_video_thumb/2074974742621167616/img/Qt757WT68yiz9V_9.jpg?name=orig',
      videoUrl: 'https://video.twimg.com/amplify_video/2074974742621167616/vid/avc1/1206x1358/L2y1Y8RlaVDIREo4.mp4?tag=28',
    })
    expect(r.byId('1961527131134988419').media[0].altText).toBe('M4rkdoll GIF')
    expect(r.byId('2082640274845811115').text).toContain('X Chat API & Chat XDK are live!')
    // the row 2083305234688803178 is XDevelopers' retweet of benjitaylor's post
    expect(r.posts.some((x) => x.postId === '2083305234688803178')).toBe(false)
    expect(r.byId('2083289084567724316')).toMatchObject({ authorHandle: 'benjitaylor', postCreatedAt: '2026-07-31T20:29:58.057Z' })
    expect(r.byId('2083289084567724316').text.startsWith('Overhauled the 𝕏 Developer Console')).toBe(true)
  })

  it('twitter-web-exporter CSV: same posts as its JSON twin, line breaks restored', async () => {
    const csv = await load('derived/twitter_web_exporter_bookmarks.csv')
    const json = await load('derived/twitter_web_exporter_bookmarks.json')
    expect(csv.format).toBe('twitter-web-exporter-csv')
    expect(csv.posts).toHaveLength(76)
    const strip = (p: { rawJson: string }) => ({ ...p, rawJson: '' })
    expect(csv.posts.map(strip)).toEqual(json.posts.map(strip))
    expect(csv.byId('2074974895750951259').text).toContain('So very cool!\n@Tesla')
  })

  it('Twillot: epoch-second dates, X media entities, quoted post, views as text', async () => {
    const r = await load('derived/twillot_bookmarks.json')
    expect(r.format).toBe('twillot')
    expect(r.posts).toHaveLength(72)
    const p = r.byId('1675449468140019712')
    expect(p).toMatchObject({ authorHandle: 'aymr33', authorName: '綾森美々(お仕事募集中)', postCreatedAt: new Date(1688293256 * 1000).toISOString() })
    expect(p.engagement.views).toBe(193524)
    expect(p.engagement.likes).toBe(2904)
    expect(p.quoted).toMatchObject({ postId: '1675447172735856643', authorHandle: 'JoeRikiichi' })
    expect(p.quoted?.media[0]).toMatchObject({ type: 'video', durationMs: 16249 })
    const g = r.byId('1675457537876049921')
    expect(g.urls.map((u) => u.expandedUrl)).toEqual(['https://g-witch.net/event/'])
    expect(g.text.endsWith('#水星の魔女 #G_Witch')).toBe(true)
    expect(r.byId('1675444201771728896').media[0].videoUrl).toBe('https://video.twimg.com/ext_tw_video/1675440411186454528/pu/vid/1280x720/Whr1H4cxPVMCGDwn.mp4?tag=12')
  })

  it('flat fetch-style JSON: header ignored, media from URLs, likes, decoded text', async () => {
    const r = await load('flat/x_bookmarks_fetchpy_excerpt.json')
    expect(r.format).toBe('flat-fetch')
    expect(r.posts).toHaveLength(13)
    const p = r.byId('2107404748169400635')
    expect(p).toMatchObject({ authorHandle: 'polydao', authorName: 'Mr. Buzzoni', postCreatedAt: '2026-10-06T09:37:00.000Z', source: 'bookmark' })
    expect(p.engagement.likes).toBe(184)
    expect(p.media[0]).toMatchObject({ type: 'video', url: 'https://pbs.twimg.com/amplify_video_thumb/2107339713052868609/img/ReAzhb5tHby8L-Au.jpg?name=orig' })
    expect(r.byId('2107270411029266839').media[0].type).toBe('animated_gif')
    expect(r.byId('2106780552447844813').text).toContain('\n> brew tap manaflow-ai/cmux')
    expect(r.byId('2107472788856717729').urls[0].expandedUrl).toBe('https://x.com/i/article/2105056914447233024')
  })
})
