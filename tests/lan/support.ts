import { request as httpsRequest } from 'node:https'
import { createServer } from 'node:net'
import { connect as tlsConnect, type TLSSocket } from 'node:tls'

/** The "LAN" address and name used by tests: a loopback address, never a real private one. */
export const LAN_ADDR = '127.0.0.2'
export const LAN_NAME = 'sheaf-test.local'

/** A port free on the test LAN address right now. */
export function freePort(host = LAN_ADDR): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, host, () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

export interface HttpsAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** An HTTPS request that trusts only `ca` and checks the certificate against `servername`. */
export function httpsFetch(opts: {
  port: number
  path: string
  ca: string
  servername?: string
  host?: string
  method?: string
  headers?: Record<string, string>
  body?: string
}): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({
      host: LAN_ADDR,
      port: opts.port,
      path: opts.path,
      method: opts.method ?? 'GET',
      ca: opts.ca,
      servername: opts.servername ?? LAN_NAME,
      rejectUnauthorized: true,
      agent: false,
      headers: { host: opts.host ?? `${opts.servername ?? LAN_NAME}:${opts.port}`, ...opts.headers },
    }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d) => (body += d))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.once('error', reject)
    req.end(opts.body)
  })
}

/** Opens a TLS connection that must verify against `ca` (throws on any chain or name problem). */
export function tlsVerify(port: number, ca: string, servername?: string): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: LAN_ADDR, port, ca, servername, rejectUnauthorized: true }, () => resolve(socket))
    socket.once('error', reject)
  })
}

/** Resolves with the error code of a connection attempt, or 'connected'. */
export function tryConnect(port: number, host = LAN_ADDR): Promise<string> {
  return new Promise((resolve) => {
    const socket = tlsConnect({ host, port, rejectUnauthorized: false }, () => {
      socket.destroy()
      resolve('connected')
    })
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message))
  })
}
