/**
 * Hostile imports against a real `sheaf serve` process on loopback: the zip bombs and oversized
 * posts of issue 14, each uploaded over HTTP while the server's resident memory is sampled every
 * 50 ms. Prints one JSON object: per shape, the answer (status, code, message) and the server's
 * RSS before and at its peak. Target: the peak stays under 700 MB whatever the file.
 * Usage: node bench/import-bombs.ts
 */
import { spawn } from 'node:child_process'
import http from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { deflateRepeated, MiB, zipOf } from '../tests/importers/zip-bombs.ts'
import { listeningUrl, processMemoryMb } from './child-server.ts'

const dataDir = mkdtempSync(join(tmpdir(), 'sheaf-bench-bombs-'))
const email = 'bench@example.com'
const password = 'bench password 123'
const server = spawn(process.execPath, ['src-main/cli/main.ts', '--data-dir', dataDir, 'serve', '--host', '127.0.0.1', '--port', '0', '--no-ui'], {
  env: { ...process.env, SHEAF_SECRET_STORE: 'file', SHEAF_ADMIN_EMAIL: email, SHEAF_ADMIN_PASSWORD: password, SHEAF_RATE_LIMIT_API: '1000000/1m' },
  stdio: ['ignore', 'pipe', 'inherit'],
})
const base = await listeningUrl(server)
const rss = () => processMemoryMb(server.pid!) ?? 0
const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) })
const cookie = login.headers.get('set-cookie')!.split(';')[0]

function upload(name: string, content: Uint8Array): Promise<{ status: number; body: any }> {
  const boundary = 'sheafbombs' + Date.now()
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`)
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/api/import`, {
      method: 'POST', headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + content.length + tail.length },
    }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (d: string) => { text += d }).on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }))
    })
    req.on('error', reject)
    req.write(head)
    req.write(content)
    req.end(tail)
  })
}

const post = (i: number, text: string) => ({ id_str: String(1855222380982907000n + BigInt(i)), full_text: text, created_at: 'Sat Nov 09 12:14:18 +0000 2024' })
const shapes: [string, () => Uint8Array][] = [
  ['eight 400 MiB parts (zip)', () => zipOf(Array.from({ length: 8 }, (_, i) => ({
    name: `data/tweets-part${i}.js`, data: deflateRepeated(`window.YTD.tweets.part${i} = [`, 0x20, 400 * MiB, ']'), size: 400 * MiB,
  })))],
  ['tweets.js of 600 MiB (zip)', () => zipOf([{ name: 'data/tweets.js', data: deflateRepeated('window.YTD.tweets.part0 = [', 0x20, 600 * MiB, ']'), size: 600 * MiB }])],
  ['tweets.js of 2 GiB claiming 1 KB (zip)', () => zipOf([{ name: 'data/tweets.js', data: deflateRepeated('window.YTD.tweets.part0 = [', 0x20, 2048 * MiB, ']'), size: 1024 }])],
  ['one post of 50 MiB (JSON)', () => Buffer.from(JSON.stringify([post(1, 'y'.repeat(50 * MiB)), post(2, 'a normal one')]))],
  ['a 300 MiB JSON string outside any record', () => Buffer.from(`{"bookmarks": [], "count": 1, "handle": "${'z'.repeat(300 * MiB)}"}`)],
]

const results: Record<string, unknown> = {}
for (const [name, make] of shapes) {
  const content = make()
  const before = rss()
  let peak = before
  const sampler = setInterval(() => { peak = Math.max(peak, rss()) }, 50)
  const t0 = performance.now()
  const res = await upload(name.replace(/\W+/g, '-') + (name.includes('zip') ? '.zip' : '.json'), content)
  clearInterval(sampler)
  results[name] = {
    uploadMb: Math.round(content.length / MiB * 10) / 10, status: res.status, code: res.body.code ?? null,
    answer: res.body.error ?? `imported ${res.body.imported}, errors ${res.body.errors}: ${res.body.errorDetails?.[0]?.reason ?? ''}`,
    ms: Math.round(performance.now() - t0), rssMb: { before, peak: Math.max(peak, rss()) },
  }
}
server.kill('SIGTERM')
await new Promise((r) => server.once('exit', r))
rmSync(dataDir, { recursive: true, force: true })
process.stdout.write(JSON.stringify({ bench: 'import-bombs', results, targetPeakMb: 700 }, null, 2) + '\n')
