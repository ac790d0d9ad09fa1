import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { parseExport, detectFormat } from '../../src-main/importers/index.ts'
import { collect } from './support.ts'

const drain = async (input: Uint8Array | Readable) => collect(await parseExport(input))

describe('detectFormat (content, never the name)', () => {
  it.each([
    ['{"format":"sheaf-export","version":1,"categories":[]', 'sheaf'],
    ['{"data":{"bookmark_timeline_v2":{"timeline":{"instructions":[', 'x-graphql'],
    ['[{"data":{"search_by_raw_query":{"search_timeline":{"timeline":{"instructions":[', 'x-graphql'],
    ['window.YTD.tweets.part0 = [ {', 'x-archive'],
    ['window.YTD.like.part0 = [', 'x-archive'],
    ['{"bookmarks":[{"id":"1","author":"A","handle":"@a","timestamp":"","text":""}],"source":"bookmark"}', 'siftly'],
    ['{"updated_at":"x","count":3,"bookmarks":[{"id":"1","url":"u","author":"A","handle":"a"', 'flat-fetch'],
    ['[{"id":"1","created_at":"2026-07-09 05:59:10 +08:00","full_text":"x","media":[],"screen_name":"a","name":"A","views_count":1', 'twitter-web-exporter-json'],
    ['\uFEFFid,created_at,full_text,media,screen_name,name\n', 'twitter-web-exporter-csv'],
    ['[{"username":"A","screen_name":"a","tweet_id":"1"', 'twillot'],
    ['[{"created_at":"Sat Nov 09 12:14:18 +0000 2024","id":1,"id_str":"1","full_text":"x","entities":{}}]', 'twitter-v1'],
  ])('%s → %s', (head, format) => {
    expect(detectFormat(head)).toBe(format)
  })

  it('zip magic → archive zip; unknown text → null', () => {
    expect(detectFormat(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0]))).toBe('x-archive-zip')
    expect(detectFormat('{"hello":"world"}')).toBeNull()
    expect(detectFormat('just some text')).toBeNull()
  })
})

describe('whole-file errors', () => {
  it('an unknown format is refused saying what the file is instead; the formats go in details for a help list', async () => {
    const err = await parseExport(Buffer.from('{"hello":"world","count":3}')).catch((e) => e)
    expect(err).toMatchObject({ code: 'VALIDATION_ERROR' })
    expect(err.message).toMatch(/^This file is JSON, but not an export Sheaf knows \(its first fields: hello, count\)\. Sheaf reads X archives/)
    expect(err.message).not.toContain('id_str')
    expect(err.details.formats).toContain('twitter-web-exporter CSV')
    expect(err.details.formats).toContain("Sheaf's own export")
    expect(err.details.accepted).toContain('x-graphql')
  })

  it('says where a small file stops being JSON, and that plain text is not an export', async () => {
    const bad = await parseExport(Buffer.from('{"bookmarks": [}')).catch((e) => e)
    expect(bad).toMatchObject({ code: 'VALIDATION_ERROR', message: 'This file is not valid JSON at line 1, column 16.', details: { line: 1, column: 16 } })
    const text = await parseExport(Buffer.from('Remember to buy milk.\nAnd bread.')).catch((e) => e)
    expect(text.message).toMatch(/^This file is not an export: neither JSON nor an export's CSV\. Sheaf reads X archives/)
  })

  it('an empty file is refused', async () => {
    await expect(parseExport(new Uint8Array())).rejects.toMatchObject({ code: 'VALIDATION_ERROR', message: 'The file is empty (0 bytes).' })
  })

  it('truncated JSON says where the file ends', async () => {
    const text = '[\n{"id_str":"1855222380982907193","full_text":"one","created_at":"Sat Nov 09 12:14:18 +0000 2024"},\n{"id_str":"18552223809829'
    const parsed = await parseExport(Readable.from([Buffer.from(text)]))
    const seen: string[] = []
    const err = await (async () => { for await (const it of parsed.items) if (it.kind === 'post') seen.push(it.post.postId) })().catch((e) => e)
    expect(seen).toEqual(['1855222380982907193'])
    expect(err).toMatchObject({ code: 'VALIDATION_ERROR', details: { line: 3, truncated: true } })
    expect(err.message).toMatch(/ends before its JSON is complete.*line 3, column 26/)
  })

  it('invalid JSON mid-file names the line', async () => {
    const rows = Array.from({ length: 3 }, (_, i) => `{"id_str":"185522238098290719${i}","full_text":"p${i}","created_at":"Sat Nov 09 12:14:18 +0000 2024"}`)
    const text = `[\n${rows.join(',\n')},\n{"id_str": oops}\n]`
    const err = await drain(Buffer.from(text)).catch((e) => e)
    expect(err).toMatchObject({ code: 'VALIDATION_ERROR' })
    expect(err.message).toMatch(/not valid JSON.*line \d+, column \d+/)
  })

  it('a bad record is a per-record error; the rest of the file imports', async () => {
    const text = JSON.stringify([
      { id_str: '1855222380982907193', full_text: 'ok', created_at: 'Sat Nov 09 12:14:18 +0000 2024' },
      { id_str: 'not-an-id', full_text: 'bad' },
      { id_str: '1855222380982907194', full_text: 'ok too', created_at: 'Sat Nov 09 12:14:18 +0000 2024' },
    ])
    const r = await drain(Buffer.from(text))
    expect(r.posts.map((p) => p.postId)).toEqual(['1855222380982907193', '1855222380982907194'])
    expect(r.errors).toEqual([{ kind: 'error', index: 1, postId: null, reason: expect.stringContaining('no post id') }])
  })
})

describe('twitter-v1 arrays and ids beyond 2^53', () => {
  it('keeps a numeric id exact, prefers id_str, reads entities, retweets and quotes', async () => {
    // 1682072224013099008 > Number.MAX_SAFE_INTEGER: as a JS number it would read ...099000
    const text = `[
      {"id": 1682072224013099008, "created_at": "Thu Jul 20 16:57:24 +0000 2023", "full_text": "no id_str here &amp; fine",
       "user": {"screen_name": "FortniteStatus", "name": "Fortnite Status"}, "entities": {"urls": []}},
      {"id": 1646550184946700300, "id_str": "1646550184946700294", "full_text": "Look https://t.co/abc https://t.co/med",
       "created_at": "Thu Apr 13 16:25:30 +0000 2023", "user": {"screen_name": "elonmusk", "name": "Elon Musk"},
       "entities": {"urls": [{"url": "https://t.co/abc", "expanded_url": "https://example.com/a", "display_url": "example.com/a"}]},
       "extended_entities": {"media": [{"type": "photo", "url": "https://t.co/med", "media_url_https": "https://pbs.twimg.com/media/Abc.jpg", "ext_alt_text": "alt", "sizes": {"large": {"w": 800, "h": 600}}}]},
       "favorite_count": 5, "retweet_count": 2,
       "quoted_status": {"id_str": "1675447172735856643", "full_text": "quoted", "created_at": "Sun Jul 02 10:00:00 +0000 2023", "user": {"screen_name": "JoeRikiichi", "name": "Joe"}}},
      {"id_str": "1615247125109174272", "full_text": "RT @nnnillust: hi", "created_at": "Tue Jan 17 07:00:00 +0000 2023", "user": {"screen_name": "someone"},
       "retweeted_status": {"id_str": "1613824198534914048", "full_text": "hi there", "created_at": "Fri Jan 13 08:45:00 +0000 2023", "user": {"screen_name": "nnnillust", "name": "N"}}}
    ]`
    const r = await drain(Buffer.from(text))
    expect(r.format).toBe('twitter-v1')
    expect(r.posts.map((p) => p.postId)).toEqual(['1682072224013099008', '1646550184946700294', '1613824198534914048'])
    expect(r.posts[0]).toMatchObject({ text: 'no id_str here & fine', authorHandle: 'FortniteStatus', postCreatedAt: '2023-07-20T16:57:24.000Z' })
    const p = r.posts[1]
    expect(p.text).toBe('Look https://t.co/abc')
    expect(p.urls).toEqual([{ url: 'https://t.co/abc', expandedUrl: 'https://example.com/a', displayUrl: 'example.com/a' }])
    expect(p.media[0]).toMatchObject({ type: 'photo', url: 'https://pbs.twimg.com/media/Abc.jpg?name=orig', thumbnailUrl: 'https://pbs.twimg.com/media/Abc.jpg?name=small', altText: 'alt', width: 800, height: 600 })
    expect(p.quoted).toMatchObject({ postId: '1675447172735856643', authorHandle: 'JoeRikiichi' })
    expect(r.posts[2]).toMatchObject({ authorHandle: 'nnnillust', text: 'hi there' })
  })
})
