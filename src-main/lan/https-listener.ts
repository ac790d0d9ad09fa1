import { createServer as createHttpsServer, type ServerOptions as HttpsServerOptions } from 'node:https'
import type { AddressInfo, Server } from 'node:net'

/** The app's fetch handler (Hono's `app.fetch`); the second argument becomes `c.env`. */
export type FetchHandler = (request: Request, env: Record<string, unknown>) => Response | Promise<Response>

export interface HttpsServeOptions {
  fetch: (request: Request, env: Record<string, unknown>) => unknown
  hostname: string
  port: number
  createServer: typeof createHttpsServer
  serverOptions: HttpsServerOptions
}

/**
 * @hono/node-server's `serve`, injected by the composition root so this capability stays free of
 * HTTP-framework imports; it turns node:https requests into fetch Requests for the same handler.
 */
export type ServeFn = (options: HttpsServeOptions, onListening: (info: AddressInfo) => void) => Server

/** Requests arriving on the LAN listener carry this in `c.env`, so they never count as local. */
export const LAN_BINDING = { listener: 'lan' } as const

export interface HttpsListener {
  port: number
  addresses: string[]
  close(): Promise<void>
}

function listenOne(serve: ServeFn, fetch: FetchHandler, hostname: string, port: number, tls: { key: string; cert: string }) {
  return new Promise<{ server: Server; port: number }>((resolve, reject) => {
    const server = serve({
      fetch: (request, env) => fetch(request, { ...env, ...LAN_BINDING }),
      hostname,
      port,
      createServer: createHttpsServer,
      serverOptions: { key: tls.key, cert: tls.cert, minVersion: 'TLSv1.2' },
    }, (info) => resolve({ server, port: info.port }))
    server.once('error', reject)
  })
}

function closeServer(server: Server): Promise<void> {
  return new Promise((done) => {
    server.close(() => done())
    // Keep-alive and in-flight connections would otherwise hold the listener open.
    ;(server as Server & { closeAllConnections?: () => void }).closeAllConnections?.()
  })
}

/** One HTTPS server per address, all on the same port (port 0: the first picks, the rest follow). */
export async function listenHttps(opts: {
  serve: ServeFn
  fetch: FetchHandler
  addresses: string[]
  port: number
  tls: { key: string; cert: string }
}): Promise<HttpsListener> {
  if (opts.addresses.length === 0) throw new Error('No network address to share on: connect to a network first.')
  const servers: Server[] = []
  let port = opts.port
  try {
    for (const addr of opts.addresses) {
      const s = await listenOne(opts.serve, opts.fetch, addr, port, opts.tls)
      servers.push(s.server)
      port = s.port
    }
  } catch (e) {
    await Promise.all(servers.map(closeServer))
    throw e
  }
  return {
    port,
    addresses: [...opts.addresses],
    close: async () => {
      await Promise.all(servers.map(closeServer))
    },
  }
}
