import type { PostUrl } from '../../src-shared/schemas/posts.ts'
import { splitPostText } from '../lib/links.ts'
import { ExternalLink, Link } from './Link.tsx'

/** Post text as React text nodes (never HTML), with http(s) links, mentions and hashtags. */
export function RichText({ text, urls, interactive = true }: { text: string; urls?: PostUrl[]; interactive?: boolean }) {
  const parts = splitPostText(text, urls)
  return (
    <>
      {parts.map((p, i) => {
        if (p.kind === 'text' || !interactive) return <span key={i}>{p.text}</span>
        if (p.kind === 'hashtag') return <Link key={i} to={`/library?tag=${encodeURIComponent(p.tag)}`} className="hashtag">{p.text}</Link>
        return <ExternalLink key={i} href={p.href} className="inline-link">{p.text}</ExternalLink>
      })}
    </>
  )
}
