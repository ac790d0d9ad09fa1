import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { zSearchResponse } from '../../src-shared/schemas/search.ts'
import { clientsByRole, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { languagesSettled } from '../library/helpers.ts'
import { sheafExport, type PostSpec } from './sheaf-export.ts'

// A language asked for in a search becomes a filter: `lang:de`, "posts in German", "auf Deutsch",
// "en español". The phrase's words are not searched ("german" must not find English posts that say
// "German"). These posts come without a language code, so their languages are detected.

const at = (i: number) => Date.UTC(2024, 0, 1 + i)
// ids: 2xx German, 3xx Spanish, 4xx English
const POSTS: PostSpec[] = ([
  { postId: '201', handle: 'koch', at: at(1), text: 'Heute habe ich zum ersten Mal Brot selbst gebacken, und es ist wirklich gut geworden.' },
  { postId: '202', handle: 'koch', at: at(2), text: 'Kochen mit Kindern: drei einfache Rezepte für das Wochenende, die allen schmecken.' },
  { postId: '203', handle: 'dev', at: at(3), text: 'Warum wir unsere Datenbank von MySQL auf PostgreSQL umgestellt haben und was wir dabei gelernt haben.' },
  { postId: '301', handle: 'cocina', at: at(4), text: 'Hoy he cocinado una paella para toda la familia y ha salido mejor que nunca.' },
  { postId: '302', handle: 'dev', at: at(5), text: 'Por qué migramos nuestra base de datos a PostgreSQL y qué aprendimos en el proceso.' },
  { postId: '401', handle: 'cars', at: at(6), text: 'German engineering is overrated: my German car spent more time at the garage than on the road.' },
  { postId: '402', handle: 'dev', at: at(7), text: 'Why we moved our database to PostgreSQL and what we learned along the way.' },
  { postId: '403', handle: 'lang', at: at(8), text: 'Learning Spanish and German at the same time is harder than it sounds, but worth it.' },
] as PostSpec[]).map((p) => ({ ...p, lang: null }))

describe('language in search', () => {
  let t: TestServer
  let c: Record<'admin' | 'member' | 'viewer', Client>
  const ask = async (q: string) => {
    const res = await c.member.get(`/api/search/ai?q=${encodeURIComponent(q)}&limit=20`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return zSearchResponse.parse(res.body)
  }
  const ids = (r: { results: { bookmark: { postId: string } }[] }) => r.results.map((x) => x.bookmark.postId).sort()

  beforeAll(async () => {
    t = await startTestServer()
    c = await clientsByRole(t)
    const fd = new FormData()
    fd.append('file', new Blob([sheafExport(POSTS)]), 'library.json')
    expect((await c.admin.request('POST', '/api/import', fd)).status).toBe(200)
    // a small file is parsed on the server's thread; its posts' languages are detected right after, off-thread
    await languagesSettled(c.viewer)
  })
  afterAll(async () => t?.close())

  it('the posts got their languages', async () => {
    const list = (await c.viewer.get('/api/bookmarks?limit=100')).body.bookmarks
    const lang = Object.fromEntries(list.map((b: any) => [b.postId, b.lang]))
    expect(lang).toEqual({ 201: 'de', 202: 'de', 203: 'de', 301: 'es', 302: 'es', 401: 'en', 402: 'en', 403: 'en' })
  })

  it('"posts in German" finds the German posts, not the English ones that say "German"', async () => {
    const r = await ask('posts in German')
    expect(ids(r)).toEqual(['201', '202', '203'])
    expect(r.understood.lang).toBe('de')
    expect(r.understood.terms).not.toContain('german')
    expect(r.understood.chips).toContainEqual({ kind: 'language', label: 'in German', queryWithout: '' })
    expect(r.results.every((x) => x.bookmark.lang === 'de')).toBe(true)
    expect(r.results[0].reason).toMatch(/in German/i)
    // without the phrase, "german" is an ordinary word and finds the English posts that use it
    expect(ids(await ask('german'))).toEqual(['401', '403'])
  })

  it('lang:de, "German posts", "auf Deutsch" and "in german" filter alike; words beside them are still searched', async () => {
    for (const q of ['lang:de', 'German posts', 'auf Deutsch', 'in german']) {
      const r = await ask(q)
      expect(ids(r), q).toEqual(['201', '202', '203'])
      expect(r.understood.terms, q).toEqual([])
    }
    const r = await ask('PostgreSQL auf Deutsch')
    expect(ids(r)).toEqual(['203'])
    expect(r.understood.terms).toEqual(['postgresql'])
    expect(r.understood.chips.find((x) => x.kind === 'language')?.queryWithout).toBe('PostgreSQL')
  })

  it('"en español", "in Spanish" and lang:es ask for Spanish', async () => {
    for (const q of ['en español', 'en espanol', 'posts in Spanish', 'lang:es']) {
      const r = await ask(q)
      expect(ids(r), q).toEqual(['301', '302'])
      expect(r.understood.lang, q).toBe('es')
    }
    expect(ids(await ask('postgresql in Spanish'))).toEqual(['302'])
  })

  it('a lang: value that names no language is ignored with a note', async () => {
    const r = await ask('lang:xx postgresql')
    expect(r.understood.lang).toBeNull()
    expect(r.understood.notes.join(' ')).toMatch(/"xx" is not a language/)
    expect(ids(r)).toEqual(expect.arrayContaining(['203', '402', '302']))
  })
})
