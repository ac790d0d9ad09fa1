import { request } from 'node:http'

export interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  json: () => any
}

export interface RawRequestOptions {
  method?: string
  headers?: Record<string, string>
  body?: string | Buffer
  /** Send the body in chunks without a Content-Length. */
  chunked?: boolean
  /** Source address of the connection (any 127.x.y.z works on Linux), to appear as another client. */
  localAddress?: string
  /** Leave out the Host header entirely. */
  noHost?: boolean
}

/** node:http, because fetch forbids setting Host and cannot pick the source address. */
export function rawRequest(url: string, opts: RawRequestOptions = {}): Promise<RawResponse> {
  const u = new URL(url)
  return new Promise((resolve, reject) => {
    const req = request({
      host: u.hostname.replace(/^\[|\]$/g, ''),
      port: u.port,
      path: u.pathname + u.search,
      method: opts.method ?? 'GET',
      headers: opts.headers,
      localAddress: opts.localAddress,
      setHost: !opts.noHost,
    }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    if (opts.body !== undefined && opts.chunked) {
      const body = Buffer.from(opts.body)
      for (let i = 0; i < body.length; i += 256) req.write(body.subarray(i, i + 256))
    } else if (opts.body !== undefined) {
      req.setHeader('content-length', Buffer.byteLength(opts.body))
      req.write(opts.body)
    }
    req.end()
  })
}
