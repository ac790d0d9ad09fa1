import { getRequestListener, RequestError } from '@hono/node-server'
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { AppError } from '../../src-shared/errors.ts'

/** How long a client may take, in milliseconds (Config: SHEAF_HEADERS_TIMEOUT_MS, SHEAF_BODY_TIMEOUT_MS, SHEAF_REQUEST_TIMEOUT_MS). */
export interface ConnectionLimits {
  /** From the connection (or the previous request) to the end of the headers. */
  headersTimeoutMs: number
  /** Longest pause while a request body is arriving. */
  bodyTimeoutMs: number
  /** The whole request, body included (0 = no limit); a trickling body is cut off here. */
  requestTimeoutMs: number
}

export interface GuardedServeOptions {
  fetch: (request: Request, env: Record<string, unknown>) => unknown
  hostname: string
  port: number
  limits: ConnectionLimits
  /** node:http's createServer by default; the LAN listener passes node:https's. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  createServer?: (options: any, listener: (req: IncomingMessage, res: ServerResponse) => void) => Server
  serverOptions?: object
}

const json = (e: AppError) => JSON.stringify(e.toJSON())

export const bodyTimeoutError = (ms: number) => new AppError('VALIDATION_ERROR',
  `The request body stopped arriving: nothing came for ${Math.round(ms / 100) / 10} seconds. Check the connection and send it again.`, { field: 'body' }, 408)

/** What Node's parser refuses before the app sees a request, in the user's words. */
function refusalFor(err: NodeJS.ErrnoException): AppError | null {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('VALIDATION_ERROR', 'The request took too long to arrive (its headers, or the whole of it); send it again.', undefined, 408)
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('VALIDATION_ERROR', 'The request headers are too large (over 16 KB); a cookie or header is far longer than Sheaf ever sets.', undefined, 431)
    case 'ECONNRESET':
    case 'EPIPE':
      return null
    default:
      return new AppError('VALIDATION_ERROR', `The request is not valid HTTP (${err.code ?? 'unreadable'}).`)
  }
}

function rawResponse(e: AppError): string {
  const body = json(e)
  const reason = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[e.status] ?? 'Error'
  return `HTTP/1.1 ${e.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`
}

/** Node's refusals (bad request line, huge headers, header or request time-outs) carry `{error, code}` too. */
function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const pending = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage
    const refusal = refusalFor(err)
    if (refusal && socket.writable && (!pending || !pending.headersSent)) {
      socket.end(rawResponse(refusal))
      socket.destroySoon()
      return
    }
    socket.destroy()
  })
}

/**
 * Node closes a kept-alive connection when its idle time-out fires, but after the thread was held
 * (a long task) timers run before sockets are read: a request the client sent in time was still
 * unread, and closing over unread data resets the connection (the load bench's resets). The close
 * waits for the sockets to be read (setImmediate runs after the poll phase); a connection that
 * received anything meanwhile is left to its request, under the header and request time-outs.
 */
function closeIdleAfterReading(server: Server): void {
  server.on('timeout', (socket: Socket) => {
    const bytes = socket.bytesRead
    setImmediate(() => {
      const answering = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage
      if (socket.destroyed || answering || socket.bytesRead !== bytes) return
      socket.destroy()
    })
  })
}

interface Arriving { req: IncomingMessage; res: ServerResponse; bytes: number; since: number }

/**
 * A body that stops arriving is answered 408 after `bodyTimeoutMs` without a byte. The request's
 * reader (the JSON body, the upload) fails with that error and the app answers it like any other;
 * a handler that reads nothing is answered here.
 */
function watchBodies(server: Server, bodyTimeoutMs: number): () => void {
  const arriving = new Set<Arriving>()
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // No Content-Length or Transfer-Encoding: the request has no body (what follows is the next request).
    if (req.complete || (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)) return
    const entry: Arriving = { req, res, bytes: req.socket.bytesRead, since: Date.now() }
    arriving.add(entry)
    const done = () => arriving.delete(entry)
    req.once('end', done)
    res.once('close', done)
    res.once('finish', done)
  })
  const tick = setInterval(() => {
    const now = Date.now()
    for (const a of arriving) {
      if (a.req.complete || a.res.headersSent || a.req.destroyed) { arriving.delete(a); continue }
      const bytes = a.req.socket?.bytesRead ?? a.bytes
      if (bytes !== a.bytes) { a.bytes = bytes; a.since = now; continue }
      if (now - a.since < bodyTimeoutMs) continue
      arriving.delete(a)
      const err = bodyTimeoutError(bodyTimeoutMs)
      if (a.req.listenerCount('error') > 0) {
        a.req.emit('error', err)
      } else {
        a.res.writeHead(408, { 'content-type': 'application/json; charset=utf-8', connection: 'close' })
        a.res.end(json(err))
      }
    }
  }, Math.max(50, Math.min(1000, bodyTimeoutMs / 4)))
  tick.unref()
  return () => clearInterval(tick)
}

/** A request @hono/node-server cannot turn into a fetch Request (no or a malformed Host, a bad target). */
const requestErrorResponse = (e: unknown): Response => {
  const message = e instanceof RequestError && /host/i.test(e.message)
    ? 'The Host header is missing or malformed; use the address Sheaf printed.'
    : `The request cannot be read: ${(e as Error).message ?? 'unknown error'}.`
  return new Response(json(new AppError('VALIDATION_ERROR', message)), {
    status: 400,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff', connection: 'close' },
  })
}

/**
 * @hono/node-server's `serve`, with the time-outs a home server wants and every refusal made before
 * the app answers carrying `{error, code}`: Node's own (clientError), the adapter's (errorHandler),
 * a body that stops arriving (watchBodies), and no kept-alive connection closed under a request that
 * arrived while the thread was held (closeIdleAfterReading).
 */
export function serveGuarded(options: GuardedServeOptions, onListening: (info: AddressInfo) => void): Server {
  const { limits } = options
  const listener = getRequestListener(options.fetch as (r: Request) => Response, {
    errorHandler: async (e) => requestErrorResponse(e),
  })
  const create = options.createServer ?? ((o: object, l: (req: IncomingMessage, res: ServerResponse) => void) => createHttpServer(o, l))
  const server = create({
    ...options.serverOptions,
    // Node refuses a header time-out longer than the request time-out.
    headersTimeout: limits.requestTimeoutMs > 0 ? Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) : limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(100, Math.min(1000, limits.headersTimeoutMs / 4)),
    // A request without Host reaches the adapter, which refuses it with a JSON 400 (Node's own 400 has no body).
    requireHostHeader: false,
  }, listener)
  answerClientErrors(server)
  closeIdleAfterReading(server)
  const stop = watchBodies(server, limits.bodyTimeoutMs)
  server.once('close', stop)
  server.listen(options.port, options.hostname, () => onListening(server.address() as AddressInfo))
  return server
}
