import { Zip, ZipDeflate } from 'fflate'
import { listCategories, type Db } from '../../store/index.ts'
import { iso, postUrl } from '../convert.ts'
import { exportBatches, type ExportPost, type ExportScope } from './batches.ts'

const enc = new TextEncoder()
/** YAML double-quoted scalars accept JSON string syntax. */
const q = (s: string) => JSON.stringify(s)
const list = (key: string, items: string[]) => (items.length ? `${key}:\n${items.map((i) => `  - ${q(i)}`).join('\n')}\n` : `${key}: []\n`)

/**
 * Text from posts, notes and the analysis, with HTML made inert: Obsidian and most Markdown viewers
 * render raw HTML, so a `<script>` or `<img onerror>` in a note would run there. `&` and `<` become
 * entities (shown as themselves); `>` stays, so quotes in notes keep working.
 */
export const inertHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;')

/** A name safe as a file or folder on Windows, macOS and Linux. */
export const safeName = (s: string, max = 80): string =>
  s.replace(/[\\/:*?"<>|#^[\]\u0000-\u001f]/g, ' ').replace(/\s+/g, ' ').trim().replace(/^\.+/, '').slice(0, max).trim() || 'untitled'

const obsidianTag = (t: string) => t.replace(/\s+/g, '-').replace(/[^\p{L}\p{N}_\-/]/gu, '')

export function noteFileName(p: ExportPost): string {
  const day = p.post.postCreatedAt.slice(0, 10)
  return `${day} ${safeName(p.post.authorHandle, 30)} ${p.post.postId}.md`
}

/** The notes before and after this one in its thread (file names without `.md`), for Obsidian links. */
export interface ThreadLinks { prev: string | null; next: string | null }

function threadSection(p: ExportPost, links: ThreadLinks): string {
  if (!p.thread) return ''
  const nav = [links.prev && `previous: [[${links.prev}]]`, links.next && `next: [[${links.next}]]`].filter(Boolean).join(' · ')
  return `\n## Thread\nPart ${p.thread.position} of ${p.thread.size}${nav ? ` (${nav})` : ''}\n`
}

export function noteOf(p: ExportPost, links: ThreadLinks = { prev: null, next: null }): string {
  const post = p.post
  const e = post.engagement
  let fm = '---\n'
  fm += `id: ${p.record.id}\npostId: ${q(post.postId)}\nurl: ${q(postUrl(post.authorHandle, post.postId))}\n`
  fm += `author: ${q('@' + post.authorHandle)}\nauthorName: ${q(post.authorName)}\n`
  fm += `created: ${q(post.postCreatedAt)}\nimported: ${q(iso(p.record.importedAt))}\nsource: ${q(post.source)}\n`
  if (post.lang) fm += `lang: ${q(post.lang)}\n`
  if (p.thread) fm += `thread: ${q(p.thread.rootPostId)}\nthreadPart: ${p.thread.position}\nthreadParts: ${p.thread.size}\n`
  for (const k of ['starred', 'read', 'hidden'] as const) if (p.state?.[k]) fm += `${k}: true\n`
  fm += list('categories', p.categories.map((c) => c.name))
  fm += list('tags', p.tags.map(obsidianTag).filter(Boolean))
  fm += list('media', p.media.map((m) => m.videoUrl ?? m.url))
  for (const k of ['likes', 'reposts', 'replies', 'views'] as const) if (e[k] !== null) fm += `${k}: ${e[k]}\n`
  if (p.knowledge) fm += `summary: ${q(p.knowledge.summary)}\naction: ${q(p.knowledge.action)}\nsentiment: ${q(p.knowledge.sentiment)}\n`
  fm += '---\n\n'
  const h = inertHtml
  let body = `${h(post.text)}\n\n— [@${post.authorHandle}](${postUrl(post.authorHandle, post.postId)}) ${post.authorName ? `(${h(post.authorName)}) ` : ''}${post.postCreatedAt.slice(0, 10)}\n`
  if (post.quoted) {
    body += `\n> [!quote] @${post.quoted.authorHandle}\n${h(post.quoted.text).split('\n').map((l) => `> ${l}`).join('\n')}\n`
  }
  body += threadSection(p, links)
  if (p.media.length) body += `\n${p.media.map((m) => (m.type === 'photo' ? `![${h(m.altText ?? '')}](${m.url})` : `[${m.type}](${m.videoUrl ?? m.url})`)).join('\n')}\n`
  if (post.urls.length) body += `\n## Links\n${post.urls.map((u) => `- ${h(u.expandedUrl)}`).join('\n')}\n`
  // A short post's summary may be empty (its own words say it all): no empty section then.
  if (p.knowledge?.summary) body += `\n## Summary\n${h(p.knowledge.summary)}\n`
  if (p.notes.length) body += `\n## Note\n${p.notes.map((n) => h(n.text)).join('\n\n')}\n`
  return fm + body
}

/**
 * An Obsidian-ready vault as a zip, produced note by note: fflate's Zip emits compressed bytes as each
 * file is added, so memory holds one batch of posts at a time. `folders` puts each post in the folder
 * of its first category (Uncategorized otherwise); `flat` puts every note in one folder.
 */
export function* markdownZipChunks(db: Db, scope: ExportScope, layout: 'folders' | 'flat', now: number): Generator<Uint8Array> {
  const out: Uint8Array[] = []
  let failed: Error | null = null
  const zip = new Zip((err, data) => {
    if (err) failed = err
    else out.push(data)
  })
  const add = (path: string, text: string) => {
    const f = new ZipDeflate(path, { level: 6 })
    zip.add(f)
    f.push(enc.encode(text), true)
  }
  const drain = function* () {
    if (failed) throw failed
    while (out.length) yield out.shift()!
  }
  const cats = listCategories(db)
  const root = 'Sheaf'
  let index = `---\nexported: ${q(iso(now))}\n---\n\n# Sheaf library\n\n`
  index += layout === 'folders' ? 'Each post is a note in the folder of its first category.\n\n## Categories\n\n' : 'Every post is a note in the Posts folder.\n\n## Categories\n\n'
  for (const c of cats) index += `- **${inertHtml(c.name)}** (${c.bookmarkCount})${c.description ? `: ${inertHtml(c.description)}` : ''}\n`
  add(`${root}/Index.md`, index)
  yield* drain()
  const used = new Set<string>()
  for (const batch of exportBatches(db, scope)) {
    // A thread's parts arrive together (exportBatches) and share the folder of the first.
    const threadFolder = new Map<string, string>()
    const paths = batch.map((p) => {
      const own = layout === 'flat' ? 'Posts' : safeName(p.categories[0]?.name ?? 'Uncategorized')
      const key = p.thread?.rootPostId
      const folder = key === undefined ? own : threadFolder.get(key) ?? own
      if (key !== undefined) threadFolder.set(key, folder)
      let path = `${root}/${folder}/${noteFileName(p)}`
      if (used.has(path)) path = path.replace(/\.md$/, ` ${p.record.id}.md`)
      used.add(path)
      return path
    })
    const linkName = (i: number) => paths[i].slice(paths[i].lastIndexOf('/') + 1, -3)
    const sameThread = (i: number, j: number) => j >= 0 && j < batch.length && batch[i].thread !== null && batch[j].thread?.rootPostId === batch[i].thread.rootPostId
    batch.forEach((p, i) => add(paths[i], noteOf(p, {
      prev: sameThread(i, i - 1) ? linkName(i - 1) : null,
      next: sameThread(i, i + 1) ? linkName(i + 1) : null,
    })))
    yield* drain()
  }
  zip.end()
  yield* drain()
}
