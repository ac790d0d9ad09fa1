import { unzipSync } from 'fflate'
import { AppError } from '../../../src-shared/errors.ts'
import { resolveDate, toIsoDate } from '../normalize/dates.ts'
import { draftFromLegacy } from '../normalize/legacy-tweet.ts'
import { toPost, UNKNOWN_HANDLE } from '../normalize/post.ts'
import { decodeEntities } from '../normalize/text.ts'
import { urlsFromStrings } from '../normalize/urls.ts'
import { asArray, asObject, asString, firstPostId, nonEmpty, type Json } from '../normalize/values.ts'
import { afterAssignment, parseJsonText, streamJson, type JsonPath } from '../json-stream.ts'
import { decodeAll, decodeText } from '../input.ts'
import { fail, ok, skip, type Numberer, type ImportItem, type Outcome } from '../types.ts'

export type ArchiveKind = 'tweets' | 'like' | 'note_tweet' | 'manifest' | 'other'

/** `window.YTD.tweets.part0 = [` → 'tweets'; the manifest assigns `window.__THAR_CONFIG`. */
export function archiveKind(head: string): ArchiveKind | null {
  const m = /^\s*window\.(?:YTD\.([A-Za-z_]+)\.part\d+|(__THAR_CONFIG))\s*=/.exec(head)
  if (!m) return null
  if (m[2]) return 'manifest'
  if (m[1] === 'tweets' || m[1] === 'tweet') return 'tweets'
  if (m[1] === 'like') return 'like'
  if (m[1] === 'note_tweet') return 'note_tweet'
  return 'other'
}

export interface Owner { handle: string; name: string }

export function ownerFromManifest(text: string): Owner | null {
  const doc = asObject(parseJsonText(text.slice(text.indexOf('=') + 1), 'manifest.js'))
  const info = asObject(doc?.userInfo)
  const handle = nonEmpty(info?.userName)
  return handle ? { handle, name: nonEmpty(info?.displayName) ?? handle } : null
}

interface Note { text: string; urls: unknown[] }
/** Long posts, found by creation time: the archive keeps no link from a note to its post. */
export type NoteIndex = Map<string, Note[]>

export function indexNotes(records: unknown[]): NoteIndex {
  const index: NoteIndex = new Map()
  for (const r of records) {
    const n = asObject(asObject(r)?.noteTweet)
    const core = asObject(n?.core)
    const at = toIsoDate(n?.createdAt)
    const text = asString(core?.text)
    if (!at || !text) continue
    const urls = asArray(core?.urls).map((u) => {
      const o = asObject(u)
      return { url: o?.shortUrl, expanded_url: o?.expandedUrl, display_url: o?.displayUrl }
    })
    const list = index.get(at) ?? []
    list.push({ text, urls })
    index.set(at, list)
  }
  return index
}

const LEADING_MENTIONS = /^(?:@[A-Za-z0-9_]{1,15}\s+)+/

const comparable = (s: string) => decodeEntities(s).replace(LEADING_MENTIONS, '').replace(/(\s*https:\/\/t\.co\/\w+)+\s*$/, '').replace(/…$/, '').replace(/\s+/g, ' ').trim()

/** Several posts can share a second (threads): the note whose text the post's truncated text starts. */
function matchNote(notes: NoteIndex, createdAt: string, text: string): Note | null {
  const candidates = notes.get(createdAt)
  if (!candidates) return null
  const mine = comparable(text)
  let best: Note | null = null
  let bestLen = 0
  for (const n of candidates) {
    const theirs = comparable(n.text)
    let i = 0
    while (i < mine.length && i < theirs.length && mine[i] === theirs[i]) i++
    if (i > bestLen) { best = n; bestLen = i }
  }
  if (!best || bestLen < Math.min(20, mine.length) || best.text.length <= mine.length) return null
  // A reply's note lacks the "@a @b " that X puts in front of the post's own text: keep it.
  const mentions = LEADING_MENTIONS.exec(text)?.[0] ?? ''
  return mentions && !best.text.startsWith(mentions.trim()) ? { ...best, text: mentions + best.text } : best
}

/** The account's handle, read off a post's own media link when no manifest says it. */
const handleFromMedia = (t: Json, postId: string): string | null => {
  for (const m of asArray(asObject(t.extended_entities)?.media ?? asObject(t.entities)?.media)) {
    const u = asString(asObject(m)?.expanded_url) ?? ''
    const hit = /^https?:\/\/(?:twitter|x)\.com\/([A-Za-z0-9_]{1,15})\/status\/(\d+)/.exec(u)
    if (hit && hit[2] === postId) return hit[1]
  }
  return null
}

export interface ArchiveContext { owner: Owner | null; notes: NoteIndex }

export function archiveOutcome(record: unknown, kind: ArchiveKind, ctx: ArchiveContext): Outcome {
  const r = asObject(record)
  if (kind === 'like') {
    const like = asObject(r?.like)
    const postId = firstPostId(like?.tweetId)
    if (!like || !postId) return fail(null, 'a like without a tweetId')
    const createdAt = resolveDate(postId)
    if (!createdAt) return fail(postId, 'no usable creation time')
    const link = asString(like.expandedUrl) ?? ''
    const handle = /^https?:\/\/(?:twitter|x)\.com\/([A-Za-z0-9_]{1,15})\/status\//.exec(link)?.[1]
    const post = toPost({
      postId, text: decodeEntities(asString(like.fullText) ?? ''), postCreatedAt: createdAt,
      authorHandle: handle && handle !== 'i' ? handle : UNKNOWN_HANDLE, authorName: '',
      urls: urlsFromStrings([]),
    }, { source: 'like', raw: record })
    return ok(post)
  }
  if (kind !== 'tweets') return skip(`archive ${kind} records are not posts`)
  const t = asObject(r?.tweet) ?? r
  if (!t) return fail(null, 'an empty archive record')
  const postId = firstPostId(t.id_str, t.id)
  const createdAt = postId ? resolveDate(postId, t.created_at) : null
  const note = postId && createdAt ? matchNote(ctx.notes, createdAt, asString(t.full_text) ?? '') : null
  const draft = draftFromLegacy(t, note)
  if (!draft) return fail(postId, postId ? 'no usable creation time' : 'a tweet without an id')
  draft.authorHandle = ctx.owner?.handle ?? handleFromMedia(t, draft.postId) ?? UNKNOWN_HANDLE
  draft.authorName = ctx.owner?.name ?? ''
  return ok(toPost(draft, { source: 'own_post', raw: record }))
}

const isTopLevelElement = (path: JsonPath) => path.length === 1

/** One archive data file (tweets.js, like.js…), streamed. */
export async function* archiveFileItems(text: AsyncIterable<string>, kind: ArchiveKind, ctx: ArchiveContext, n: Numberer): AsyncGenerator<ImportItem> {
  if (kind === 'note_tweet' || kind === 'manifest' || kind === 'other') {
    yield n.item(skip(`${kind === 'note_tweet' ? 'note-tweet.js holds long-post texts, matched to posts only inside the archive zip' : 'this archive file holds no posts'}`))
    return
  }
  for await (const ev of streamJson(afterAssignment(text), isTopLevelElement)) {
    if (ev.kind !== 'record') continue
    yield* n.run(() => [archiveOutcome(ev.value, kind, ctx)])
  }
}

const dataFile = (name: string) => /(^|\/)data\/(tweets?|like|note-tweet)(-part\d+)?\.js$/.exec(name)

/** The archive .zip: reads data/manifest.js, note-tweet.js, tweets.js and like.js (all parts). */
export async function* archiveZipItems(zip: Uint8Array, n: Numberer): AsyncGenerator<ImportItem> {
  let files: Record<string, Uint8Array>
  try {
    files = unzipSync(zip, { filter: (f) => /(^|\/)data\/manifest\.js$/.test(f.name) || dataFile(f.name) !== null })
  } catch (e) {
    throw new AppError('VALIDATION_ERROR', `The zip file cannot be read (${(e as Error).message}); export the archive again from X.`)
  }
  const names = Object.keys(files).sort()
  const of = (re: RegExp) => names.filter((f) => re.test(f))
  const manifest = of(/data\/manifest\.js$/)[0]
  const owner = manifest ? ownerFromManifest(decodeAll(files[manifest])) : null
  const notes: unknown[] = []
  for (const f of of(/data\/note-tweet(-part\d+)?\.js$/)) {
    const text = decodeAll(files[f])
    notes.push(...asArray(parseJsonText(text.slice(text.indexOf('=') + 1), f)))
  }
  const tweetFiles = of(/data\/tweets?(-part\d+)?\.js$/)
  const likeFiles = of(/data\/like(-part\d+)?\.js$/)
  if (tweetFiles.length + likeFiles.length === 0) {
    throw new AppError('VALIDATION_ERROR', 'This zip is not an X data archive: it has no data/tweets.js or data/like.js.')
  }
  const ctx: ArchiveContext = { owner, notes: indexNotes(notes) }
  for (const [list, kind] of [[tweetFiles, 'tweets'], [likeFiles, 'like']] as const) {
    for (const f of list) {
      const bytes = files[f]
      delete files[f]
      yield* archiveFileItems(decodeText((async function* () { yield bytes })()), kind, ctx, n)
    }
  }
}

