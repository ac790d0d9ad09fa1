import { existsSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { signedIn, type Client } from '../support/client.ts'
import { hasSharedFixtures, sharedFixture, NEEDS_FIXTURES } from '../support/fixtures.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { allBookmarks, upload } from './helpers.ts'
import { describeIf } from '../support/skip.ts'

/**
 * Duplicates on the real exports in ../shared/fixtures. The derived exports hold the same saved posts in
 * several formats (they merge by post id, so they must not show as duplicates of each other); the Siftly
 * console export also keeps each retweet as a post of its own ("RT @a: …", under the retweet's id) where
 * the GraphQL capture has the original, and the GraphQL posts quote some of the same posts. What the
 * server finds is checked against pairs worked out here by plain string comparison, not by the keys.
 */
const present = hasSharedFixtures && existsSync(sharedFixture('exports/derived'))
const GRAPHQL = sharedFixture('exports/derived/graphql_bookmarks_envelope_newschema.json')
const TWE = sharedFixture('exports/derived/twitter_web_exporter_bookmarks.json')
const SIFTLY = sharedFixture('exports/derived/siftly_console_bookmarks_newschema.json')

let t: TestServer
let admin: Client
beforeAll(async () => {
  t = await startTestServer()
  admin = await signedIn(t, 'admin')
})
afterAll(() => t?.close())

type Detail = { id: number; postId: string; text: string; authorHandle: string; quoted: { postId: string } | null; duplicates: Array<{ id: number; reasons: string[] }> }

async function details(): Promise<Detail[]> {
  const out: Detail[] = []
  for (const b of await allBookmarks(admin)) out.push((await admin.get(`/api/bookmarks/${b.id}`)).body)
  return out
}

/** Unordered pairs "a|b" (a < b) the server lists with `reason`. */
const foundPairs = (all: Detail[], reason: string) => {
  const s = new Set<string>()
  for (const d of all) for (const x of d.duplicates) if (x.reasons.includes(reason)) s.add(d.id < x.id ? `${d.id}|${x.id}` : `${x.id}|${d.id}`)
  return s
}
const pair = (a: number, b: number) => (a < b ? `${a}|${b}` : `${b}|${a}`)

/**
 * Retweet rows and their originals, by string comparison: same handle, and the retweet's words begin the
 * original. `text`: at least five words besides links; `linkOnly`: posts that are only a link.
 */
function retweetPairs(all: Detail[]): { text: Set<string>; linkOnly: Set<string> } {
  const words = (s: string) => s.replace(/https?:\/\/\S+/g, ' ').replace(/&amp;/g, '&').replace(/…$/, '').replace(/\s+/g, ' ').trim()
  const text = new Set<string>()
  const linkOnly = new Set<string>()
  for (const rt of all) {
    const m = /^RT @(\w+): ([\s\S]*)$/.exec(rt.text)
    if (!m) continue
    const head = words(m[2]).slice(0, 40)
    const s = head.split(' ').filter(Boolean).length >= 5 ? text : linkOnly
    for (const o of all) {
      if (o.id !== rt.id && !o.text.startsWith('RT @') && o.authorHandle.toLowerCase() === m[1].toLowerCase() && words(o.text).startsWith(head)) s.add(pair(rt.id, o.id))
    }
  }
  return { text, linkOnly }
}

/** Posts quoting the same post, and a post with the saved post it quotes. */
function quotePairs(all: Detail[]): Set<string> {
  const byPostId = new Map(all.map((d) => [d.postId, d.id]))
  const s = new Set<string>()
  for (const a of all) {
    if (!a.quoted) continue
    const q = byPostId.get(a.quoted.postId)
    if (q !== undefined && q !== a.id) s.add(pair(a.id, q))
    for (const b of all) if (b.id !== a.id && b.quoted?.postId === a.quoted.postId) s.add(pair(a.id, b.id))
  }
  return s
}

describeIf(present, NEEDS_FIXTURES)('duplicates on the real fixture exports', () => {
  let afterGraphql: Detail[]

  it('the same posts in two formats merge by post id and add no duplicates', async () => {
    expect((await upload(admin, GRAPHQL)).body).toMatchObject({ imported: 76, errors: 0 })
    afterGraphql = await details()
    const before = { text: foundPairs(afterGraphql, 'same_text'), quote: foundPairs(afterGraphql, 'same_quote'), link: foundPairs(afterGraphql, 'same_link') }
    expect((await upload(admin, TWE)).body).toMatchObject({ imported: 0 })
    const after = await details()
    expect(after).toHaveLength(76)
    expect({ text: foundPairs(after, 'same_text'), quote: foundPairs(after, 'same_quote'), link: foundPairs(after, 'same_link') }).toEqual(before)
    for (const d of after) expect(d.duplicates.map((x) => x.id)).not.toContain(d.id)
  })

  it('quotes of the same post in the GraphQL capture, as counted from the posts\' quoted field', async () => {
    const expected = quotePairs(afterGraphql)
    expect(expected.size).toBeGreaterThan(0)
    expect(foundPairs(afterGraphql, 'same_quote')).toEqual(expected)
  })

  it('the Siftly export\'s retweet rows are found as copies of their originals, as counted by string comparison', async () => {
    const r = await upload(admin, SIFTLY)
    expect(r.status).toBe(200)
    const all = await details()
    const expected = retweetPairs(all)
    expect(expected.text.size).toBeGreaterThan(0)
    expect(foundPairs(all, 'same_text')).toEqual(expected.text)
    // a retweet of a post that is only a link: too few words to compare, found by its link instead
    const links = foundPairs(all, 'same_link')
    for (const p of expected.linkOnly) expect(links).toContain(p)
    console.info(`fixture duplicates: ${expected.text.size} retweet/original pairs by text, ${expected.linkOnly.size} by link only, ${quotePairs(all).size} quote pairs, ${foundPairs(all, 'same_link').size} same-link pairs among ${all.length} posts`)
  })
})
