import type { PostUrl } from '../../src-shared/schemas/posts.ts'

/** Only http(s) becomes a link; everything else stays text. */
export function safeHref(raw: string): string | null {
  try {
    const u = new URL(raw)
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null
  } catch {
    return null
  }
}

export type TextPart =
  | { kind: 'text'; text: string }
  | { kind: 'link'; text: string; href: string }
  | { kind: 'mention'; text: string; href: string }
  | { kind: 'hashtag'; text: string; tag: string }

const TOKEN = /(https?:\/\/[^\s<>"']+)|(@[A-Za-z0-9_]{1,15})|(#[\p{L}\p{N}_]{1,100})/gu

/**
 * Splits post text into plain text and links. t.co links are shown as their expanded destination
 * when the post carries it; trailing punctuation stays outside the link.
 */
export function splitPostText(text: string, urls: PostUrl[] = []): TextPart[] {
  const expand = new Map(urls.map((u) => [u.url, u]))
  const parts: TextPart[] = []
  let last = 0
  for (const m of text.matchAll(TOKEN)) {
    const start = m.index ?? 0
    let token = m[0]
    if (m[1]) {
      const trail = /[.,;:!?)\]]+$/.exec(token)
      if (trail) token = token.slice(0, -trail[0].length)
    }
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) })
    if (m[1]) {
      const e = expand.get(token)
      const href = safeHref(e?.expandedUrl ?? token)
      const shown = e?.displayUrl ?? (e ? e.expandedUrl.replace(/^https?:\/\/(www\.)?/, '') : token.replace(/^https?:\/\/(www\.)?/, ''))
      parts.push(href ? { kind: 'link', text: shown.length > 60 ? `${shown.slice(0, 57)}…` : shown, href } : { kind: 'text', text: token })
    } else if (m[2]) {
      parts.push({ kind: 'mention', text: token, href: `https://x.com/${token.slice(1)}` })
    } else {
      parts.push({ kind: 'hashtag', text: token, tag: token.slice(1) })
    }
    last = start + token.length
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) })
  return parts
}

export function hostOf(href: string): string {
  try {
    return new URL(href).hostname.replace(/^www\./, '')
  } catch {
    return href
  }
}
