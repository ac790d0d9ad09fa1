import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { createOcr, imageStats, makeThumbnail, visualTags } from '../../../src-main/ai/local/index.ts'

const svg = (body: string, w: number, h: number) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${body}</svg>`)

const codeScreenshot = () => {
  const lines = ['function greet(name) {', '  const message = "hello " + name;', '  console.log(message);', '  return message;', '}']
  const text = lines.map((l, i) => `<text x="24" y="${60 + i * 48}" font-family="monospace" font-size="30" fill="#d4d4d4" xml:space="preserve">${l.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text>`).join('')
  return sharp(svg(`<rect width="100%" height="100%" fill="#1e1e1e"/>${text}`, 900, 320)).png().toBuffer()
}

/** A meme: busy photo-like background with a big caption on top and bottom. */
const meme = async () => {
  const scene = `<defs><linearGradient id="g" x1="0" y1="0" x2="0.3" y2="1"><stop offset="0" stop-color="#4a90d9"/><stop offset="0.55" stop-color="#f2c28b"/><stop offset="1" stop-color="#3b2a1a"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="600" cy="260" r="90" fill="#ffe27a"/><ellipse cx="250" cy="420" rx="180" ry="60" fill="#2f5d34"/>`
  const noise = await sharp(svg(scene, 800, 600)).png().toBuffer()
  const caption = (y: number, t: string) =>
    `<rect x="0" y="${y - 62}" width="800" height="84" fill="#000"/><text x="400" y="${y}" text-anchor="middle" font-family="sans-serif" font-weight="bold" font-size="56" fill="#fff">${t}</text>`
  const overlay = svg(`${caption(80, 'WHEN THE TESTS PASS')}${caption(570, 'ON THE FIRST TRY')}`, 800, 600)
  return sharp(noise).composite([{ input: overlay }]).png().toBuffer()
}

const photo = () => sharp({ create: { width: 1200, height: 800, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 70 } } }).jpeg().toBuffer()

describe('OCR and visual tags', () => {
  const ocr = createOcr()
  afterAll(() => ocr.terminate())

  it('reads a code screenshot and tags it as code', async () => {
    const png = await codeScreenshot()
    const r = await ocr.ocrImage(png)
    expect(r.text).toMatch(/function\s+greet/)
    expect(r.text).toMatch(/const\s+message/)
    expect(r.text).toMatch(/return\s+message/)
    expect(r.confidence).toBeGreaterThan(0.5)
    const tags = visualTags({ width: 900, height: 320, ocrText: r.text, mediaType: 'photo', stats: await imageStats(png) })
    expect(tags).toEqual(expect.arrayContaining(['code', 'screenshot']))
    expect(tags).not.toContain('photo')
  }, 60_000)

  it('reads a meme caption and tags it as a meme', async () => {
    const png = await meme()
    const r = await ocr.ocrImage(png)
    for (const w of ['WHEN', 'TESTS', 'PASS', 'FIRST', 'TRY']) expect(r.text).toContain(w)
    const tags = visualTags({ width: 800, height: 600, ocrText: r.text, mediaType: 'photo', stats: await imageStats(png) })
    expect(tags).toContain('meme')
  }, 60_000)

  it('tags a textless picture as a photo, and long greyscale text as a document', async () => {
    const jpg = await photo()
    expect(visualTags({ width: 1200, height: 800, ocrText: '', mediaType: 'photo', stats: await imageStats(jpg) })).toEqual(['photo'])
    const page = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ')
    expect(visualTags({ width: 800, height: 1100, ocrText: page, stats: { entropy: 2, brightness: 240, colourfulness: 2, contrast: 30 } })).toEqual(expect.arrayContaining(['document', 'text']))
    expect(visualTags({ width: 800, height: 500, ocrText: 'Revenue by quarter Q1 12% Q2 18% Q3 25% Q4 31% 2024 2025', stats: { entropy: 3, brightness: 230, colourfulness: 30, contrast: 40 } })).toContain('chart')
  })

  it('makes small WebP or JPEG thumbnails without enlarging', async () => {
    const jpg = await photo()
    const webp = await makeThumbnail(jpg)
    const meta = await sharp(webp).metadata()
    expect(meta.format).toBe('webp')
    expect(Math.max(meta.width!, meta.height!)).toBe(400)
    const small = await makeThumbnail(await sharp({ create: { width: 100, height: 50, channels: 3, background: '#fff' } }).png().toBuffer(), { format: 'jpeg' })
    const sm = await sharp(small).metadata()
    expect([sm.format, sm.width, sm.height]).toEqual(['jpeg', 100, 50])
  })
})
