import { describe, expect, it } from 'vitest'
import { zSheafExport, type SheafExport } from '../../src-shared/schemas/sheaf-export.ts'
import { parseExport } from '../../src-main/importers/index.ts'
import { collect } from './support.ts'

const doc: SheafExport = zSheafExport.parse({
  format: 'sheaf-export', version: 1, exportedAt: '2026-01-02T03:04:05.000Z',
  categories: [
    { name: 'AI & ML', slug: 'ai-ml', color: '#7c3aed', description: 'Models, agents, evals' },
    { name: 'Cooking', slug: 'cooking', color: '#f97316', description: '' },
  ],
  bookmarks: [{
    postId: '1682072224013099008', text: 'Fortnite servers are back & stable', authorHandle: 'FortniteStatus', authorName: 'Fortnite Status',
    postCreatedAt: '2023-07-20T16:57:24.000Z', urls: [{ url: 'https://t.co/X55I5IuFkk', expandedUrl: 'https://status.epicgames.com', displayUrl: 'status.epicgames.com' }],
    media: [{ type: 'photo', url: 'https://pbs.twimg.com/media/A.jpg?name=orig', thumbnailUrl: 'https://pbs.twimg.com/media/A.jpg?name=small', videoUrl: null, altText: 'status', width: 1200, height: 675, durationMs: null, ocrText: 'ALL SYSTEMS GO', visualTags: ['screenshot'], description: 'A status page' }],
    engagement: { likes: 10, reposts: 1, replies: null, quotes: 0, bookmarks: 2, views: 999 },
    lang: 'en', conversationId: '1682072224013099008', inReplyToPostId: null,
    quoted: null, source: 'chrome_cookie', rawJson: '{"rest_id":"1682072224013099008"}', importedAt: '2025-12-31T00:00:00.000Z',
    categories: [{ slug: 'ai-ml', assignedBy: 'user', confidence: 1 }, { slug: 'cooking', assignedBy: 'pipeline', confidence: 0.42 }],
    knowledge: {
      summary: 'Servers back', action: 'read_later', tags: ['status'], sentiment: 'positive', confidence: 0.9,
      relatedPostIds: ['1646550184946700294'], analyzedAt: '2026-01-01T00:00:00.000Z', ossReport: null,
      entities: { hashtags: [], domains: ['status.epicgames.com'] }, kind: 'announcement', provider: 'local',
    },
    tags: ['status', 'games'], notes: [{ userEmail: 'ana@example.com', text: 'check later' }],
    states: [{ userEmail: 'ana@example.com', read: true, starred: true, hidden: false }],
  }, {
    postId: '1646550184946700294', text: 'Turning AI-designed fashion into real clothing would be great', authorHandle: 'elonmusk', authorName: 'Elon Musk',
    postCreatedAt: '2023-04-13T16:25:30.000Z', urls: [], media: [], engagement: { likes: null, reposts: null, replies: null, quotes: null, bookmarks: null, views: null },
    lang: null, conversationId: null, inReplyToPostId: null, quoted: null, source: 'bookmark', rawJson: '{}', importedAt: '2025-12-31T00:00:00.000Z',
  }],
})

describe('sheaf export format', () => {
  it('round-trips posts and extras losslessly', async () => {
    const parsed = await parseExport(Buffer.from(JSON.stringify(doc, null, 2)))
    expect(parsed.format).toBe('sheaf')
    const r = await collect(parsed)
    expect(r.errors).toEqual([])
    const extras = parsed.extras!()!
    expect(extras.exportedAt).toBe(doc.exportedAt)
    expect(extras.categories).toEqual(doc.categories)
    // rebuild the document from what the importer returned: it must be the original
    const rebuilt: SheafExport = {
      format: 'sheaf-export', version: 1, exportedAt: extras.exportedAt, categories: extras.categories,
      bookmarks: r.posts.map((p) => {
        const x = extras.bookmarks.get(p.postId)!
        return { ...p, media: p.media.map((m, i) => ({ ...m, ...x.media[i] })), importedAt: x.importedAt, categories: x.categories, knowledge: x.knowledge, tags: x.tags, notes: x.notes, states: x.states, merged: x.merged }
      }),
    }
    expect(rebuilt).toEqual(doc)
    expect(r.posts[0].source).toBe('chrome_cookie')
    expect(r.posts[0].rawJson).toBe('{"rest_id":"1682072224013099008"}')
  })

  it('categories after bookmarks are read too; a bad bookmark is a per-record error', async () => {
    const { categories, ...rest } = doc
    const text = JSON.stringify({ ...rest, bookmarks: [...doc.bookmarks, { postId: 'x', text: 1 }], categories })
    const parsed = await parseExport(Buffer.from(text))
    const r = await collect(parsed)
    expect(r.posts).toHaveLength(2)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0].reason).toContain('postId')
    expect(parsed.extras!()!.categories.map((c) => c.slug)).toEqual(['ai-ml', 'cooking'])
  })

  it('refuses a newer version', async () => {
    await expect(parseExport(Buffer.from('{"format":"sheaf-export","version":2,"bookmarks":[]}'))).rejects.toMatchObject({ code: 'VALIDATION_ERROR' })
  })
})
