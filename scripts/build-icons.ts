// Renders resources/icons/icon.svg to the PNG sizes, a Windows .ico and a macOS .icns, offline, with sharp.
// Run: node scripts/build-icons.ts   (outputs are committed; re-run after changing the SVG)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

const dir = fileURLToPath(new URL('../resources/icons', import.meta.url))
export const PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024]
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256]
/** icns element types holding PNG data, by pixel size (retina variants reuse the larger bitmaps). */
const ICNS_TYPES: [string, number][] = [
  ['icp4', 16], ['icp5', 32], ['icp6', 64], ['ic07', 128], ['ic08', 256], ['ic09', 512], ['ic10', 1024],
  ['ic11', 32], ['ic12', 64], ['ic13', 256], ['ic14', 512],
]

/** ICO with PNG-compressed entries (Windows Vista and later read them). */
export function buildIco(pngs: Map<number, Buffer>, sizes: number[]): Buffer {
  const header = Buffer.alloc(6 + 16 * sizes.length)
  header.writeUInt16LE(0, 0)
  header.writeUInt16LE(1, 2)
  header.writeUInt16LE(sizes.length, 4)
  let offset = header.length
  sizes.forEach((size, i) => {
    const data = pngs.get(size)!
    const e = 6 + 16 * i
    header.writeUInt8(size >= 256 ? 0 : size, e)
    header.writeUInt8(size >= 256 ? 0 : size, e + 1)
    header.writeUInt8(0, e + 2)
    header.writeUInt8(0, e + 3)
    header.writeUInt16LE(1, e + 4)
    header.writeUInt16LE(32, e + 6)
    header.writeUInt32LE(data.length, e + 8)
    header.writeUInt32LE(offset, e + 12)
    offset += data.length
  })
  return Buffer.concat([header, ...sizes.map((s) => pngs.get(s)!)])
}

export function buildIcns(pngs: Map<number, Buffer>): Buffer {
  const parts = ICNS_TYPES.map(([type, size]) => {
    const data = pngs.get(size)!
    const head = Buffer.alloc(8)
    head.write(type, 0, 'ascii')
    head.writeUInt32BE(data.length + 8, 4)
    return Buffer.concat([head, data])
  })
  const body = Buffer.concat(parts)
  const head = Buffer.alloc(8)
  head.write('icns', 0, 'ascii')
  head.writeUInt32BE(body.length + 8, 4)
  return Buffer.concat([head, body])
}

async function main() {
  const svg = readFileSync(join(dir, 'icon.svg'))
  const pngs = new Map<number, Buffer>()
  mkdirSync(join(dir, 'png'), { recursive: true })
  for (const size of PNG_SIZES) {
    const png = await sharp(svg, { density: Math.max(72, (72 * size) / 1024 * 4) }).resize(size, size).png({ compressionLevel: 9 }).toBuffer()
    pngs.set(size, png)
    writeFileSync(join(dir, 'png', `${size}x${size}.png`), png)
  }
  writeFileSync(join(dir, 'icon.png'), pngs.get(1024)!)
  writeFileSync(join(dir, 'icon.ico'), buildIco(pngs, ICO_SIZES))
  writeFileSync(join(dir, 'icon.icns'), buildIcns(pngs))
  process.stdout.write(`${JSON.stringify({ pngs: PNG_SIZES.length, ico: ICO_SIZES, icnsEntries: ICNS_TYPES.length })}\n`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()
