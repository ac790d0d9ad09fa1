import { AppError } from '../../../src-shared/errors.ts'
import { resolveDate, toIsoDate } from '../normalize/dates.ts'
import { draftFromLegacy } from '../normalize/legacy-tweet.ts'
import { toPost, UNKNOWN_HANDLE } from '../normalize/post.ts'
import { decodeEntities } from '../normalize/text.ts'
import { urlsFromStrings } from '../normalize/urls.ts'
import { asArray, asObject, asString, firstPostId, nonEmpty, type Json } from '../normalize/values.ts'
import { afterAssignment, parseJsonText, streamJson, type JsonPath } from '../json-stream.ts'
import { collectZip, entryText, inflateEntry, InflateBudget, readEntries, type ZipEntry, type ZipLimits } from '../zip-reader.ts'
import { fail, ok, oversizedRecord, skip, type Numberer, type ImportItem, type Outcome } from '../types.ts'

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

export function indexNotes(records: unknown[], index: NoteIndex = new Map()): NoteIndex {
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
    if (ev.kind === 'oversized') yield n.item(oversizedRecord(ev.chars))
    if (ev.kind !== 'record') continue
    yield* n.run(() => [archiveOutcome(ev.value, kind, ctx)])
  }
}

/** The most of manifest.js read (it is a few KB). */
const MANIFEST_CHARS = 1 << 20

async function* asAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const it of items) yield it
}

/** An entry's JSON errors name the entry, so the message says which file in the zip is broken. */
function naming(name: string, e: unknown): unknown {
  if (!(e instanceof AppError) || (e.details as { entry?: string } | undefined)?.entry) return e
  return new AppError(e.code, `${name} in the zip: ${e.message}`, { ...(e.details as object | undefined), entry: name }, e.status)
}

export interface ZipOptions {
  /** Where a large zip is kept while it is read (default: the system's temporary folder). */
  tempDir?: string
  limits?: ZipLimits
}

/**
 * The archive .zip: reads data/manifest.js, note-tweet.js, tweets.js and like.js (all parts), each
 * inflated as a stream within the zip limits (zip-reader.ts) and parsed record by record.
 */
export async function* archiveZipItems(chunks: AsyncIterable<Uint8Array>, n: Numberer, opts: ZipOptions = {}): AsyncGenerator<ImportItem> {
  const zip = await collectZip(chunks, { tempDir: opts.tempDir })
  try {
    const entries = readEntries(zip, opts.limits)
    const budget = new InflateBudget(opts.limits)
    const text = (e: ZipEntry) => entryText(piecesOf(inflateEntry(zip, e, budget)), e.name)
    const byName = (re: RegExp) => entries.filter((e) => re.test(e.name))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    const manifest = byName(/(^|\/)data\/manifest\.js$/)[0]
    let owner: Owner | null = null
    if (manifest) {
      let s = ''
      try {
        for (const t of text(manifest)) {
          s += t
          if (s.length > MANIFEST_CHARS) throw new AppError('VALIDATION_ERROR', `${manifest.name} in the zip is far larger than an X manifest.`, { entry: manifest.name })
        }
        owner = ownerFromManifest(s)
      } catch (e) {
        throw naming(manifest.name, e)
      }
    }
    const notes: NoteIndex = new Map()
    for (const f of byName(/(^|\/)data\/note-tweet(-part\d+)?\.js$/)) {
      try {
        for await (const ev of streamJson(afterAssignment(asAsync(text(f))), isTopLevelElement)) {
          if (ev.kind === 'record') indexNotes([ev.value], notes)
        }
      } catch (e) {
        throw naming(f.name, e)
      }
    }
    const tweetFiles = byName(/(^|\/)data\/tweets?(-part\d+)?\.js$/)
    const likeFiles = byName(/(^|\/)data\/like(-part\d+)?\.js$/)
    if (tweetFiles.length + likeFiles.length === 0) {
      throw new AppError('VALIDATION_ERROR', 'This zip is not an X data archive: it has no data/tweets.js or data/like.js.')
    }
    const ctx: ArchiveContext = { owner, notes }
    for (const [list, kind] of [[tweetFiles, 'tweets'], [likeFiles, 'like']] as const) {
      for (const f of list) {
        try {
          for await (const it of archiveFileItems(asAsync(text(f)), kind, ctx, n)) yield it
        } catch (e) {
          throw naming(f.name, e)
        }
      }
    }
  } finally {
    zip.close()
  }
}

/** Inflated output in pieces of at most 256 KB, so the decoded text stays in V8's young generation. */
function* piecesOf(chunks: Iterable<Uint8Array>): Generator<Uint8Array> {
  const PIECE = 256 << 10
  for (const c of chunks) for (let at = 0; at < c.length; at += PIECE) yield c.subarray(at, at + PIECE)
}
