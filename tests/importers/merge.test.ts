import { describe, expect, it } from 'vitest'
import type { NormalizedPost, PostMedia } from '../../src-shared/schemas/posts.ts'
import { mergePost } from '../../src-main/importers/index.ts'

const photo = (over: Partial<PostMedia> = {}): PostMedia => ({
  type: 'photo', url: 'https://pbs.twimg.com/media/A.jpg?name=orig', thumbnailUrl: 'https://pbs.twimg.com/media/A.jpg?name=small',
  videoUrl: null, altText: null, width: null, height: null, durationMs: null, ...over,
})

const siftly: NormalizedPost = {
  postId: '2074976613713031490', text: 'In Europe*, 4.7k Tesla sales… out of the', authorHandle: 'unknown', authorName: '',
  postCreatedAt: '2026-07-08T21:59:10.000Z', urls: [{ url: 'https://teslascope.com/x', expandedUrl: 'https://teslascope.com/x', displayUrl: null }],
  media: [photo()], engagement: { likes: null, reposts: null, replies: null, quotes: null, bookmarks: 9, views: null },
  lang: null, conversationId: null, inReplyToPostId: null, quoted: null, source: 'chrome_cookie', rawJson: '{"id":"siftly"}',
}

const graphql: NormalizedPost = {
  ...siftly, text: 'In Europe*, 4.7k Tesla sales were reported for the week… (~60% of Tesla sales in Europe)',
  authorHandle: 'piloly', authorName: 'Roland Pircher',
  urls: [{ url: 'https://t.co/abc', expandedUrl: 'https://teslascope.com/x', displayUrl: 'teslascope.com/x' }],
  media: [photo({ width: 1600, height: 900, altText: 'chart' }), photo({ url: 'https://pbs.twimg.com/media/B.jpg?name=orig' })],
  engagement: { likes: 312, reposts: 21, replies: 11, quotes: 9, bookmarks: 7, views: 25900 },
  lang: 'en', conversationId: '2074976613713031490',
  quoted: {
    postId: '2072535265533456878', text: 'quoted', authorHandle: 'teslascope', authorName: 'Teslascope', postCreatedAt: '2026-07-02T04:18:07.000Z',
    urls: [], media: [], engagement: { likes: 1, reposts: null, replies: null, quotes: null, bookmarks: null, views: null }, lang: 'en', conversationId: null, inReplyToPostId: null,
  },
  source: 'bookmark', rawJson: '{"rest_id":"graphql"}',
}

describe('mergePost: richer data wins, nothing is lost', () => {
  it('upgrades a thin Siftly record with GraphQL data', () => {
    const { post, changed } = mergePost(siftly, graphql)
    expect(changed).toBe(true)
    expect(post.text).toBe(graphql.text)
    expect(post).toMatchObject({ authorHandle: 'piloly', authorName: 'Roland Pircher', lang: 'en', conversationId: '2074976613713031490' })
    expect(post.media).toHaveLength(2)
    expect(post.media[0]).toMatchObject({ width: 1600, altText: 'chart' })
    // the larger count wins; null never beats a number
    expect(post.engagement).toEqual({ likes: 312, reposts: 21, replies: 11, quotes: 9, bookmarks: 9, views: 25900 })
    // same destination: the t.co + expansion beats the bare URL, not listed twice
    expect(post.urls).toEqual([{ url: 'https://t.co/abc', expandedUrl: 'https://teslascope.com/x', displayUrl: 'teslascope.com/x' }])
    expect(post.quoted?.postId).toBe('2072535265533456878')
    // what the existing record had stays: its source and raw record
    expect(post.source).toBe('chrome_cookie')
    expect(post.rawJson).toBe('{"id":"siftly"}')
  })

  it('never downgrades a rich record with a thin one', () => {
    const { post, changed } = mergePost(graphql, siftly)
    expect(changed).toBe(true) // only the larger bookmark count moved
    expect(post).toEqual({ ...graphql, engagement: { ...graphql.engagement, bookmarks: 9 } })
  })

  it('fills a poster-less video from a richer copy at equal media counts', () => {
    const bare = { ...graphql, media: [{ ...photo(), type: 'video' as const, url: 'https://video.twimg.com/v.mp4', thumbnailUrl: '', videoUrl: 'https://video.twimg.com/v.mp4' }] }
    const rich = { ...graphql, media: [{ ...photo(), type: 'video' as const, videoUrl: 'https://video.twimg.com/best.mp4', durationMs: 5000 }] }
    const { post } = mergePost(bare, rich)
    expect(post.media[0]).toMatchObject({ thumbnailUrl: 'https://pbs.twimg.com/media/A.jpg?name=small', videoUrl: 'https://video.twimg.com/v.mp4', durationMs: 5000 })
  })

  it('reports unchanged when the incoming copy adds nothing', () => {
    const copy = structuredClone(graphql)
    expect(mergePost(graphql, copy)).toEqual({ post: graphql, changed: false })
    const { changed } = mergePost(graphql, { ...siftly, engagement: { likes: 1, reposts: null, replies: null, quotes: null, bookmarks: null, views: null } })
    expect(changed).toBe(false)
  })
})
