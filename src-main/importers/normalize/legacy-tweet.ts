import type { Engagement, PostMedia, PostUrl } from '../../../src-shared/schemas/posts.ts'
import { resolveDate } from './dates.ts'
import { mediaFromEntities } from './media.ts'
import type { PostDraft } from './post.ts'
import { decodeEntities, stripTrailingLinks } from './text.ts'
import { urlsFromEntities } from './urls.ts'
import { asArray, asObject, asString, firstPostId, nonEmpty, toInt, toPostId, type Json } from './values.ts'

export interface LegacyParts {
  text: string
  urls: PostUrl[]
  media: PostMedia[]
  engagement: Engagement
  lang: string | null
  conversationId: string | null
  inReplyToPostId: string | null
}

/** The t.co links X appended for attached media. */
export const mediaLinks = (entities: Json | null, extended: Json | null): string[] =>
  [...asArray(extended?.media), ...asArray(entities?.media)]
    .map((m) => asString(asObject(m)?.url))
    .filter((u): u is string => !!u)

/**
 * The fields of a tweet in X's classic shape, shared by GraphQL `legacy`, v1.1 arrays and the
 * data archive. `longText` (a note post's full text) wins over the truncated full_text.
 */
export function legacyParts(t: Json, longText?: { text: string; urls: unknown } | null): LegacyParts {
  const entities = asObject(t.entities)
  const extended = asObject(t.extended_entities)
  const links = mediaLinks(entities, extended)
  const written = longText?.text ?? decodeEntities(asString(t.full_text) ?? asString(t.text) ?? '')
  const urls = urlsFromEntities(longText && asArray(longText.urls).length ? longText.urls : entities?.urls)
  if (longText) for (const u of urlsFromEntities(entities?.urls)) if (!urls.some((x) => x.url === u.url)) urls.push(u)
  return {
    text: stripTrailingLinks(written, links),
    urls,
    media: mediaFromEntities(extended?.media ?? entities?.media),
    engagement: {
      likes: toInt(t.favorite_count),
      reposts: toInt(t.retweet_count),
      replies: toInt(t.reply_count),
      quotes: toInt(t.quote_count),
      bookmarks: toInt(t.bookmark_count),
      views: null,
    },
    lang: nonEmpty(t.lang),
    conversationId: toPostId(t.conversation_id_str) ?? null,
    inReplyToPostId: firstPostId(t.in_reply_to_status_id_str, t.in_reply_to_status_id),
  }
}

/** A whole v1.1-shaped tweet (v1.1 arrays, archive rows) as a draft; null when it has no id. */
export function draftFromLegacy(t: Json, longText?: { text: string; urls: unknown } | null): PostDraft | null {
  const postId = firstPostId(t.id_str, t.id)
  if (!postId) return null
  const user = asObject(t.user)
  const createdAt = resolveDate(postId, t.created_at)
  if (!createdAt) return null
  return {
    postId,
    ...legacyParts(t, longText),
    authorHandle: nonEmpty(user?.screen_name),
    authorName: nonEmpty(user?.name),
    postCreatedAt: createdAt,
  }
}
