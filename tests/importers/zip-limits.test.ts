import { zipSync, strToU8 } from 'fflate'
import { describe, expect, it } from 'vitest'
import { parseExport } from '../../src-main/importers/index.ts'
import { collectZip, inflateEntry, InflateBudget, readEntries, ZIP_LIMITS, type ZipLimits } from '../../src-main/importers/zip-reader.ts'
import { collect } from './support.ts'
import { deflateRepeated, MiB, zipOf } from './zip-bombs.ts'

// Issue 14, finding 2: the archive zip's limits are checked while inflating, and a bad entry is a
// 400 VALIDATION_ERROR naming it. Zips are built here; nothing large is ever held.

const tweet = (i: number) => ({ tweet: { id_str: String(1855222380982907000n + BigInt(i)), full_text: `archive post ${i} ${'lorem ipsum '.repeat(i % 7)}`, created_at: 'Sat Nov 09 12:14:18 +0000 2024' } })
const tweetsJs = (from: number, n: number) => `window.YTD.tweets.part0 = ${JSON.stringify(Array.from({ length: n }, (_, i) => tweet(from + i)))}`

async function* once(bytes: Uint8Array) { yield bytes }

async function refusal(zip: Uint8Array, zipLimits?: ZipLimits): Promise<any> {
  try {
    await collect(await parseExport(zip, { zipLimits }))
  } catch (e) {
    return e
  }
  throw new Error('the zip was accepted')
}

describe('zip archive limits', () => {
  it('a good archive still imports (every part, streamed)', async () => {
    const zip = zipSync({ 'data/tweets.js': strToU8(tweetsJs(0, 50)), 'data/tweets-part1.js': strToU8(tweetsJs(50, 20).replace('part0', 'part1')) })
    const r = await collect(await parseExport(zip))
    expect(r.format).toBe('x-archive-zip')
    expect(r.posts).toHaveLength(70)
  })

  it('refuses too many entries before inflating anything', async () => {
    const files: Record<string, Uint8Array> = { 'data/tweets.js': strToU8(tweetsJs(0, 1)) }
    for (let i = 0; i < 20; i++) files[`data/tweets_media/${i}.jpg`] = new Uint8Array([i])
    const e = await refusal(zipSync(files), { ...ZIP_LIMITS, maxEntries: 10 })
    expect(e.code).toBe('VALIDATION_ERROR')
    expect(e.message).toMatch(/21 entries/)
  })

  it('stops an entry at the per-entry limit while inflating, even when its declared size lies', async () => {
    const limits = { ...ZIP_LIMITS, maxEntryBytes: 2 * MiB }
    const text = tweetsJs(0, 30_000) // ~4 MB of ordinary archive JSON
    const zip = zipSync({ 'data/tweets.js': strToU8(text) })
    // rewrite the central directory's uncompressed size to claim 1 KB
    const bytes = Buffer.from(zip)
    const cd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))
    bytes.writeUInt32LE(1024, cd + 24)
    const z = await collectZip(once(bytes))
    const [entry] = readEntries(z, limits)
    expect(entry.size).toBe(1024)
    const budget = new InflateBudget(limits)
    expect(() => { for (const _ of inflateEntry(z, entry, budget)) { /* read on */ } }).toThrow(/data\/tweets\.js inflates to more than 2 MB/)
    // checked while inflating: it stopped within one step of the limit, never reading the whole entry
    expect(budget.total).toBeLessThan(limits.maxEntryBytes + MiB)
    expect(budget.total).toBeLessThan(text.length)
    const e = await refusal(bytes, limits)
    expect(e.code).toBe('VALIDATION_ERROR')
    expect(e.details.entry).toBe('data/tweets.js')
  })

  it('stops at the total limit across entries', async () => {
    const limits = { ...ZIP_LIMITS, maxTotalBytes: 3 * MiB }
    const zip = zipSync({ 'data/tweets.js': strToU8(tweetsJs(0, 15_000)), 'data/tweets-part1.js': strToU8(tweetsJs(15_000, 15_000).replace('part0', 'part1')) })
    const e = await refusal(zip, limits)
    expect(e.code).toBe('VALIDATION_ERROR')
    expect(e.message).toMatch(/data\/tweets\.js takes the archive past 3 MB/) // read second: "tweets-part1" sorts first
  })

  it('refuses an entry that inflates far more than its compressed size (a bomb), after about a megabyte', async () => {
    const data = deflateRepeated('window.YTD.tweets.part0 = [', 0x20, 300 * MiB, ']')
    const zip = zipOf([{ name: 'data/tweets.js', data, size: 300 * MiB }])
    const z = await collectZip(once(zip))
    const budget = new InflateBudget()
    expect(() => { for (const _ of inflateEntry(z, readEntries(z)[0], budget)) { /* read on */ } }).toThrow(/inflates more than 100 times/)
    expect(budget.total).toBeLessThan(20 * MiB)
  })

  it('a data file that is not UTF-8 is a 400 naming the entry', async () => {
    const bad = new Uint8Array([...strToU8('window.YTD.tweets.part0 = [{"tweet":{"full_text":"'), 0xff, 0xfe, 0xc3, ...strToU8('"}}]')])
    const e = await refusal(zipSync({ 'data/tweets.js': bad }))
    expect(e.code).toBe('VALIDATION_ERROR')
    expect(e.message).toMatch(/data\/tweets\.js in the zip is not UTF-8 text/)
  })

  it('broken JSON inside an entry names the entry', async () => {
    const e = await refusal(zipSync({ 'data/tweets.js': strToU8('window.YTD.tweets.part0 = [{"tweet": {"id_str": oops}}]') }))
    expect(e.code).toBe('VALIDATION_ERROR')
    expect(e.message).toMatch(/^data\/tweets\.js in the zip: The file is not valid JSON/)
  })

  it('a zip larger than the in-memory size is read from a temporary file, removed afterwards', async () => {
    const { mkdtempSync, readdirSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const dir = mkdtempSync(join(tmpdir(), 'sheaf-zip-test-'))
    const zip = zipSync({ 'data/tweets.js': strToU8(tweetsJs(0, 100)) }, { level: 0 })
    const z = await collectZip((async function* () { for (let i = 0; i < zip.length; i += 1000) yield zip.subarray(i, i + 1000) })(), { tempDir: dir, memoryBytes: 4096 })
    expect(readdirSync(dir)).toHaveLength(1)
    const [entry] = readEntries(z)
    let n = 0
    for (const p of inflateEntry(z, entry, new InflateBudget())) n += p.length
    expect(n).toBe(entry.size)
    z.close()
    expect(readdirSync(dir)).toEqual([])
  })
})
