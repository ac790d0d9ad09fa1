/** A small Sheaf export (src-shared/schemas/sheaf-export.ts) built in a test: posts with the fields that matter for threads. */
export interface DocPost { postId: string; text: string; author: string; at: string; replyTo?: string; quotes?: { postId: string; author: string; text: string } }

const ENGAGEMENT = { likes: null, reposts: null, replies: null, quotes: null, bookmarks: null, views: null }

export function sheafDoc(posts: DocPost[]) {
  return {
    format: 'sheaf-export', version: 1, exportedAt: '2026-01-01T00:00:00.000Z', categories: [],
    bookmarks: posts.map((p) => ({
      postId: p.postId, text: p.text, authorHandle: p.author, authorName: p.author, postCreatedAt: p.at, urls: [], media: [],
      engagement: ENGAGEMENT, lang: 'en', conversationId: null, inReplyToPostId: p.replyTo ?? null,
      quoted: p.quotes ? {
        postId: p.quotes.postId, text: p.quotes.text, authorHandle: p.quotes.author, authorName: p.quotes.author, postCreatedAt: p.at,
        urls: [], media: [], engagement: ENGAGEMENT, lang: 'en', conversationId: null, inReplyToPostId: null,
      } : null,
      source: 'bookmark', rawJson: JSON.stringify({ id: p.postId }), importedAt: '2026-01-01T00:00:00.000Z',
    })),
  }
}

export const docFile = (name: string, posts: DocPost[]) => ({ name, content: JSON.stringify(sheafDoc(posts)) })
