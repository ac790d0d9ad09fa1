/** Builds a Sheaf export (the app's own import format) from compact post descriptions, for tests and benches. */

export interface PostSpec {
  postId: string
  text: string
  handle: string
  name?: string
  /** ISO date or epoch ms. */
  at: string | number
  urls?: string[]
  media?: Array<{ type: 'photo' | 'video' | 'animated_gif'; ocrText?: string; altText?: string }>
  categories?: string[]
  tags?: string[]
  summary?: string
  entities?: Record<string, string[]>
  /** The post's language code; 'en' unless given (null: none, detected at import). */
  lang?: string | null
}

export interface CategorySpec {
  name: string
  slug: string
}

export function sheafExport(posts: PostSpec[], categories: CategorySpec[] = []): string {
  return JSON.stringify({
    format: 'sheaf-export',
    version: 1,
    exportedAt: new Date().toISOString(),
    categories: categories.map((c) => ({ ...c, color: '#336699', description: '' })),
    bookmarks: posts.map((p) => ({
      postId: p.postId,
      text: p.text,
      authorHandle: p.handle,
      authorName: p.name ?? p.handle,
      postCreatedAt: new Date(p.at).toISOString(),
      urls: (p.urls ?? []).map((u) => ({ url: u, expandedUrl: u, displayUrl: null })),
      media: (p.media ?? []).map((m, i) => ({
        type: m.type, url: `https://pbs.example/${p.postId}-${i}.jpg`, thumbnailUrl: `https://pbs.example/${p.postId}-${i}-small.jpg`,
        videoUrl: m.type === 'photo' ? null : `https://video.example/${p.postId}.mp4`, altText: m.altText ?? null,
        width: null, height: null, durationMs: null, ocrText: m.ocrText ?? null, visualTags: null, description: null,
      })),
      engagement: { likes: 1, reposts: 0, replies: 0, quotes: 0, bookmarks: 0, views: null },
      lang: p.lang === undefined ? 'en' : p.lang,
      conversationId: null,
      inReplyToPostId: null,
      quoted: null,
      source: 'bookmark',
      rawJson: '{}',
      importedAt: new Date().toISOString(),
      categories: (p.categories ?? []).map((slug) => ({ slug, assignedBy: 'user', confidence: 1 })),
      knowledge: p.summary || p.entities
        ? {
            summary: p.summary ?? '', action: 'read_later', tags: [], sentiment: 'neutral', confidence: 0.8,
            analyzedAt: new Date().toISOString(), ossReport: null, relatedPostIds: [], entities: p.entities ?? null,
            kind: null, provider: 'local',
          }
        : null,
      tags: p.tags ?? [],
      notes: [],
    })),
  })
}
