import { connect, type Socket } from 'node:net'

/** A raw TCP connection to the test server, for requests no HTTP client would send (half-sent, stalled, malformed). */
export interface RawSocket {
  socket: Socket
  write(data: string | Buffer): void
  /** Everything the server sent until it closed the connection (or `ms` passed, then what arrived so far). */
  response(ms?: number): Promise<string>
  close(): void
}

export function openSocket(url: string): Promise<RawSocket> {
  const u = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect({ host: u.hostname, port: Number(u.port) }, () => {
      const chunks: Buffer[] = []
      let ended = false
      const waiters: (() => void)[] = []
      socket.on('data', (c: Buffer) => chunks.push(c))
      const finish = () => { ended = true; for (const w of waiters.splice(0)) w() }
      socket.on('end', finish)
      socket.on('close', finish)
      socket.on('error', () => undefined)
      resolve({
        socket,
        write: (d) => socket.write(d),
        response: (ms = 30_000) => new Promise((done) => {
          const t = setTimeout(() => done(Buffer.concat(chunks).toString('utf8')), ms)
          const w = () => { clearTimeout(t); done(Buffer.concat(chunks).toString('utf8')) }
          if (ended) w()
          else waiters.push(w)
        }),
        close: () => socket.destroy(),
      })
    })
    socket.once('error', reject)
  })
}

/** Status and parsed JSON body of a raw HTTP/1.1 response text. */
export function parseRaw(text: string): { status: number; headers: string; body: any } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)
  const split = text.indexOf('\r\n\r\n')
  const headers = split >= 0 ? text.slice(0, split) : text
  let body: any
  const raw = split >= 0 ? text.slice(split + 4) : ''
  const chunked = /transfer-encoding:\s*chunked/i.test(headers)
  const payload = chunked ? dechunk(raw) : raw
  try { body = JSON.parse(payload) } catch { body = payload }
  return { status, headers, body }
}

function dechunk(s: string): string {
  let out = ''
  let at = 0
  for (;;) {
    const eol = s.indexOf('\r\n', at)
    if (eol < 0) return out
    const n = parseInt(s.slice(at, eol), 16)
    if (!n) return out
    out += s.slice(eol + 2, eol + 2 + n)
    at = eol + 2 + n + 2
  }
}

/** A multipart/form-data body with one part `file`. */
export function multipart(fileName: string, content: string | Buffer, boundary = 'sheafboundary1234'): { body: Buffer; contentType: string } {
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return { body, contentType: `multipart/form-data; boundary=${boundary}` }
}
