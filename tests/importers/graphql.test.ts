import { createReadStream } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { zNormalizedPost } from '../../src-shared/schemas/posts.ts'
import { parseExport } from '../../src-main/importers/index.ts'
import { collect, fixture, HAVE_FIXTURES, ownFixture, readFixture } from './support.ts'
import { describeIf } from '../support/skip.ts'
import { NEEDS_FIXTURES } from '../support/fixtures.ts'

const load = async (rel: string) => collect(await parseExport(createReadStream(fixture(rel))))

describeIf(HAVE_FIXTURES, NEEDS_FIXTURES)('x-graphql: real captures', () => {
  it('SearchTimeline, 2025+ user schema: note text, author, date, quote, counts', async () => {
    const r = await load('graphql/twscrape_raw_search.json')
    expect(r.format).toBe('x-graphql')
    expect(r.posts).toHaveLength(20)
    expect(r.skipped.map((s) => s.reason)).toEqual(['cursor entry', 'cursor entry'])
    for (const p of r.posts) zNormalizedPost.parse(p)
    const note = r.byId('2074976613713031490')
    expect(note.authorHandle).toBe('piloly')
    expect(note.authorName).toBe('Roland Pircher')
    expect(note.postCreatedAt).toBe('2026-07-08T21:59:10.000Z')
    // the note text, not the truncated legacy text ending in "…the https://t.co/a4Rv89h19G"
    expect(note.text.startsWith('In Europe*, 4.7k Tesla sales')).toBe(true)
    expect(note.text.endsWith('Iceland (~60% of Tesla sales in Europe)')).toBe(true)
    expect(note.text).not.toContain('t.co')
    expect(note.media).toHaveLength(4)
    expect(note.engagement).toEqual({ likes: 312, reposts: 21, replies: 11, quotes: 9, bookmarks: 7, views: 25900 })
    const quoting = r.byId('2074963269429661921')
    expect(quoting.quoted?.postId).toBe('2072535265533456878')
    expect(quoting.quoted?.authorHandle).toBe('teslascope')
    expect(quoting.quoted?.urls[0]).toEqual({
      url: 'https://t.co/LlA3cHBiBV', expandedUrl: 'https://teslascope.com/software/2026.20.6.1', displayUrl: 'teslascope.com/software/2026.…',
    })
    expect(r.posts.filter((p) => p.quoted).length).toBe(5)
  })

  it('UserMedia: photos, best video variant, GIF with alt text, decoded entities', async () => {
    const r = await load('graphql/twscrape_raw_user_media.json')
    expect(r.posts).toHaveLength(37)
    // README: 37 posts, 28 with photos, 5 with video, 4 with a GIF
    const withType = (t: string) => r.posts.filter((p) => p.media.some((m) => m.type === t)).length
    expect(withType('photo')).toBe(28)
    expect(withType('video')).toBe(5)
    expect(withType('animated_gif')).toBe(4)
    const video = r.byId('2074882755905585583').media[0]
    expect(video).toMatchObject({
      type: 'video', width: 1080, height: 1080, durationMs: 10850,
      url: 'https://pbs.twimg.com/amplify_video_thumb/2074882547796832256/img/_ifWIXfNVQ4aiIp1.jpg?name=orig',
      videoUrl: 'https://video.twimg.com/amplify_video/2074882547796832256/vid/avc1/1080x1080/tTKa11kiPdc1LfJs.mp4?tag=28',
    })
    const gif = r.byId('1961527131134988419').media[0]
    expect(gif).toMatchObject({ type: 'animated_gif', altText: 'M4rkdoll GIF', videoUrl: 'https://video.twimg.com/tweet_video/Gzi-hxlXoAAUdQa.mp4' })
    expect(gif.thumbnailUrl).toBe('https://pbs.twimg.com/tweet_video_thumb/Gzi-hxlXoAAUdQa.jpg?name=small')
    const amp = r.byId('2037623826285027567')
    expect(amp.text).toContain('connections, & str')
    expect(amp.text).not.toContain('&amp;')
    const three = r.byId('1845258780788834795')
    expect(three.media.map((m) => m.url)).toEqual([
      'https://pbs.twimg.com/media/GZusL7SWcAc47NV.jpg?name=orig',
      'https://pbs.twimg.com/media/GZusL7SXEAo-UbQ.jpg?name=orig',
      'https://pbs.twimg.com/media/GZusRilWwAkp1s6.jpg?name=orig',
    ])
  })

  it('TweetDetail thread: module items, replies, conversation id', async () => {
    const r = await load('graphql/twscrape_raw_tweet_details.json')
    expect(r.posts).toHaveLength(37)
    const head = r.byId('1649191520250245121')
    expect(head.authorHandle).toBe('XDevelopers')
    expect(r.byId('1649191521323995138').inReplyToPostId).toBe('1649191520250245121')
    expect(r.posts.filter((p) => p.conversationId === '1649191520250245121').length).toBeGreaterThan(30)
  })

  it('TweetDetail, 2023 schema: author under .legacy and a note post', async () => {
    const r = await load('graphql/twscrape__issue_56.json')
    expect(r.posts).toHaveLength(11)
    const p = r.byId('1682072224013099008')
    expect(p.authorHandle).toBe('FortniteStatus')
    expect(p.authorName).toBe('Fortnite Status')
    expect(p.postCreatedAt).toBe('2023-07-20T16:57:24.000Z')
    expect(p.text).toHaveLength(446)
    expect(p.text.endsWith('the Status page for server status: https://t.co/X55I5IuFkk')).toBe(true)
  })

  it('TweetDetail with two videos: highest-bitrate mp4', async () => {
    const r = await load('graphql/twscrape_manual_tweet_with_video_1.json')
    const v = r.byId('1671508600538161153')
    expect(v.authorHandle).toBe('TheFigen_')
    expect(v.media[0]).toMatchObject({
      type: 'video', durationMs: 5434,
      videoUrl: 'https://video.twimg.com/ext_tw_video/1668857866328100864/pu/vid/720x1280/ENfeGwtfyiYvpNy8.mp4?tag=12',
    })
    expect(r.posts.filter((p) => p.media.some((m) => m.type === 'video'))).toHaveLength(2)
  })

  it('Bookmarks: the post, its counts and views; cursors skipped', async () => {
    const r = await load('graphql/uakihir0_bookmark_tweets.json')
    expect(r.posts).toHaveLength(1)
    expect(r.skipped).toHaveLength(2)
    const p = r.posts[0]
    expect(p).toMatchObject({
      postId: '1646550184946700294', authorHandle: 'elonmusk', authorName: 'Elon Musk', source: 'bookmark',
      text: 'Turning AI-designed fashion into real clothing would be great', postCreatedAt: '2023-04-13T16:25:30.000Z',
    })
    expect(p.engagement.likes).toBe(84887)
    expect(p.engagement.views).toBe(11419231)
    expect(JSON.parse(p.rawJson).rest_id).toBe('1646550184946700294')
  })

  it('SearchTimeline, 2023 schema: a retweet yields the original; users module is not a post', async () => {
    const r = await load('graphql/uakihir0_searchtimeline.json')
    expect(r.posts).toHaveLength(22)
    expect(r.posts.some((p) => p.postId === '1615247125109174272')).toBe(false)
    const original = r.byId('1613824198534914048')
    expect(original.authorHandle).toBe('nnnillust')
    expect(JSON.parse(original.rawJson).rest_id).toBe('1615247125109174272')
    expect(r.byId('1675449468140019712').quoted?.postId).toBe('1675447172735856643')
  })

  it('Bookmarks envelopes in both user schemas', async () => {
    const a = await load('derived/graphql_bookmarks_envelope_newschema.json')
    const b = await load('derived/graphql_bookmarks_envelope_oldschema.json')
    expect(a.posts).toHaveLength(76)
    expect(b.posts).toHaveLength(72)
    expect(a.posts.every((p) => p.authorHandle !== 'unknown' && p.authorName !== '')).toBe(true)
    expect(b.posts.every((p) => p.authorHandle !== 'unknown' && p.authorName !== '')).toBe(true)
    expect(b.byId('1675457537876049921').authorHandle).toBe('G_Witch_M')
  })

  it('an array of several pages reads every page', async () => {
    const one = readFixture('graphql/uakihir0_bookmark_tweets.json').toString()
    const two = readFixture('graphql/twscrape_raw_search.json').toString()
    const r = await collect(await parseExport(Buffer.from(`[${one},${two}]`)))
    expect(r.format).toBe('x-graphql')
    expect(r.posts).toHaveLength(21)
    expect(r.posts[0].postId).toBe('1646550184946700294')
  })
})

describe('x-graphql: visibility wrappers and tombstones (excerpt in tests/fixtures)', () => {
  it('unwraps TweetWithVisibilityResults, skips tombstones and cursors', async () => {
    const r = await collect(await parseExport(ownFixture('graphql-visibility-tombstone.json')))
    expect(r.format).toBe('x-graphql')
    expect(r.posts.map((p) => p.postId)).toEqual(['1646550184946700294'])
    expect(r.posts[0].authorHandle).toBe('elonmusk')
    expect(r.skipped.map((s) => s.reason)).toEqual(['unavailable post (TweetTombstone)', 'cursor entry', 'cursor entry'])
    expect(r.errors).toEqual([])
  })
})
