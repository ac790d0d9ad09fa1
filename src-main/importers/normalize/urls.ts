import type { PostUrl } from '../../../src-shared/schemas/posts.ts'
import { asArray, asObject, asString, nonEmpty } from './values.ts'

/** entities.urls in X's shape: t.co link, its destination, and the shortened display form. */
export function urlsFromEntities(list: unknown): PostUrl[] {
  const out: PostUrl[] = []
  const seen = new Set<string>()
  for (const u of asArray(list)) {
    const o = asObject(u)
    const url = asString(o?.url) ?? asString(o?.expanded_url)
    if (!o || !url || seen.has(url)) continue
    seen.add(url)
    out.push({ url, expandedUrl: nonEmpty(o.expanded_url) ?? url, displayUrl: nonEmpty(o.display_url) })
  }
  return out
}

/** Exports that keep only the destination: the link as written is unknown, so both are it. */
export function urlsFromStrings(list: unknown): PostUrl[] {
  const out: PostUrl[] = []
  const seen = new Set<string>()
  for (const u of asArray(list)) {
    const url = typeof u === 'string' ? u.trim() : asString(asObject(u)?.expanded_url ?? asObject(u)?.url)
    if (!url || seen.has(url) || !/^https?:\/\//.test(url)) continue
    seen.add(url)
    out.push({ url, expandedUrl: url, displayUrl: null })
  }
  return out
}
