import http from 'node:http'
import { spawn, type ChildProcess } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect, type Socket } from 'node:net'
import Database from 'better-sqlite3'
import { Pool } from 'undici'
import { serverEnv } from '../src-main/app/server-env.ts'
import { createLibrary } from '../src-main/library/index.ts'
import { sqliteOf } from '../src-main/store/db.ts'
import { closeDatabase, openDatabase, type Db } from '../src-main/store/index.ts'

/** The account a bench's `sheaf serve` child is started with, and signs in as. */
/** Questions the server benches ask (over generated libraries: bench/generate-library.ts). */
export const BENCH_QUERIES = ['how to bake bread at home', 'making databases faster', 'tips for better sleep', 'learning a new language', 'state management in react apps', 'coffee brewing', 'running a marathon', 'ai agents that write code']

export const BENCH_ACCOUNT = { email: 'bench@example.com', password: 'bench password 123' }

/**
 * A new data folder for a `sheaf serve` child: the database made, `prepare` run on it (an import,
 * say), and the pipeline's auto-run after import switched off, so what is measured is what the bench
 * starts. The setting goes through a connection of its own, so a bench runs unchanged against any
 * version of the store. `copyOf` starts it from a copy of a library built before (its WAL too).
 */
export async function benchDataDir(name: string, prepare?: (db: Db) => unknown, copyOf?: string): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), `sheaf-bench-${name}-`))
  const file = join(dataDir, 'sheaf.db')
  if (copyOf) for (const ext of ['', '-wal']) if (existsSync(copyOf + ext)) copyFileSync(copyOf + ext, file + ext)
  const db = openDatabase({ file })
  await prepare?.(db)
  closeDatabase(db)
  const sqlite = new Database(file)
  sqlite.prepare("INSERT INTO settings (key, value) VALUES ('ai', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
    .run(JSON.stringify({ autoRunAfterImport: false }))
  sqlite.close()
  return dataDir
}

/** Waits while the library fills its duplicate keys (work it does in the background after an import), as a settled library has. */
export async function fillDuplicateKeys(db: Db): Promise<void> {
  const library = createLibrary({ db, clock: Date.now })
  while ((sqliteOf(db).prepare('SELECT count(*) FROM post_keys_queue').pluck().get() as number) > 0) await new Promise((r) => setTimeout(r, 100))
  library.close()
}

const cpuProfileArgs = (dir = process.env.SHEAF_BENCH_CPU_PROF): string[] => (dir ? ['--cpu-prof', '--cpu-prof-dir', dir] : [])

/**
 * The same GETs as keptAlivePool over `connections` plain sockets, one request at a time on each: the
 * request's bytes written as they are, the answer's status and Content-Length read from its head and the
 * rest counted, not parsed (a body is decoded only when `withBody` asks or the status is not 200). What a
 * load generator in C (wrk) does: the bench's clients share the server's 2 cores, and undici's Pool took
 * 0.19-0.35 ms of CPU a search (docs/load-history.md, "Stop 36").
 */
export function keptAliveSockets(base: string, cookie: string, connections: number): {
  client: string; get: (path: string, withBody?: boolean) => Promise<Answer>; close: () => Promise<void>
} {
  const { hostname, port } = new URL(base)
  const head = (path: string) => `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nCookie: ${cookie}\r\n\r\n`
  type Job = { path: string; withBody: boolean; t0: number; resolve: (a: Answer) => void }
  const waiting: Job[] = []
  const idle: Array<(job: Job) => void> = []
  const sockets: Socket[] = []
  const open = () => {
    const socket = connect({ host: hostname, port: Number(port), noDelay: true })
    sockets.push(socket)
    let job: Job | null = null
    let buf: Buffer | null = null
    let status = 0
    let left = -1
    let body: Buffer[] | null = null
    const answer = (a: Omit<Answer, 'ms'>) => {
      const j = job!
      job = null
      j.resolve({ ms: performance.now() - j.t0, ...a })
    }
    const finish = (a: Omit<Answer, 'ms'>) => {
      answer(a)
      release(send)
    }
    const send = (j: Job) => {
      job = j
      status = 0
      left = -1
      buf = null
      socket.write(head(j.path))
    }
    socket.on('data', (chunk: Buffer) => {
      if (!job) return
      if (left < 0) {
        buf = buf ? Buffer.concat([buf, chunk]) : chunk
        const end = buf.indexOf('\r\n\r\n')
        if (end < 0) return
        const text = buf.toString('latin1', 0, end)
        status = Number(text.slice(9, 12))
        const length = /\r\ncontent-length: *(\d+)/i.exec(text)
        if (!length) return finish({ status: 0, body: '', error: 'the answer has no Content-Length' })
        left = Number(length[1])
        body = job.withBody || status !== 200 ? [] : null
        chunk = buf.subarray(end + 4)
      }
      body?.push(chunk)
      left -= chunk.length
      if (left <= 0) finish({ status, body: body ? Buffer.concat(body).toString('utf8') : '' })
    })
    let error = 'the server closed the connection'
    socket.on('error', (e: NodeJS.ErrnoException) => { error = e.code ?? e.message })
    // A connection the server closed (its keep-alive time-out) is opened again; a search on it fails.
    socket.on('close', () => {
      sockets.splice(sockets.indexOf(socket), 1)
      const at = idle.indexOf(send)
      if (at >= 0) idle.splice(at, 1)
      if (job) answer({ status: 0, body: '', error })
      if (!closing) open()
    })
    release(send)
  }
  let closing = false
  const release = (send: (job: Job) => void) => {
    const next = waiting.shift()
    if (next) send(next)
    else idle.push(send)
  }
  for (let i = 0; i < connections; i++) open()
  const get = (path: string, withBody = false) => new Promise<Answer>((resolve) => {
    const job = { path, withBody, t0: performance.now(), resolve }
    const send = idle.shift()
    if (send) send(job)
    else waiting.push(job)
  })
  const close = async () => { closing = true; for (const s of [...sockets]) s.destroy() }
  return { client: `plain sockets, ${connections} connections, one request at a time each`, get, close }
}

/**
 * `sheaf serve` on loopback over `dataDir`, with the bench account as its admin and rate limits no
 * bench reaches, in the environment `sheaf serve` gives it (serverEnv). `env` is added to this process's. `SHEAF_BENCH_CPU_PROF=DIR` starts it with
 * `--cpu-prof` (a profile per thread in DIR, written when it exits); `SHEAF_BENCH_SERVER_ARGS` adds Node's flags (space-separated).
 */
export const spawnServer = (dataDir: string, { env = {} }: { env?: Record<string, string> } = {}): ChildProcess =>
  spawn(process.execPath, [...cpuProfileArgs(), ...(process.env.SHEAF_BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? []), 'src-main/cli/main.ts', '--data-dir', dataDir, 'serve', '--host', '127.0.0.1', '--port', '0', '--no-ui'], {
    env: {
      ...serverEnv(process.env), SHEAF_SECRET_STORE: 'file', SHEAF_ADMIN_EMAIL: BENCH_ACCOUNT.email, SHEAF_ADMIN_PASSWORD: BENCH_ACCOUNT.password,
      SHEAF_RATE_LIMIT_API: '100000000/1m', SHEAF_RATE_LIMIT_LOGIN: '1000/1m', ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })

/** Waits for the child to listen and signs in as the bench account: its address and session cookie. */
export async function signIn(server: ChildProcess): Promise<{ base: string; cookie: string }> {
  const base = await listeningUrl(server)
  const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(BENCH_ACCOUNT) })
  if (login.status !== 200) throw new Error(`bench sign-in: ${login.status} ${await login.text()}`)
  return { base, cookie: login.headers.get('set-cookie')!.split(';')[0] }
}

/** The address a `sheaf serve` child prints on its one stdout line. */
export const listeningUrl = (server: ChildProcess): Promise<string> =>
  new Promise<string>((resolve, reject) => {
    let out = ''
    server.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /listening on (\S+)/.exec(out)
      if (m) resolve(m[1])
    })
    server.once('exit', (code) => reject(new Error(`server exited (${code})`)))
  })

/** A process's resident memory now (VmRSS) or at its peak (VmHWM), in MB; null when unreadable. */
export const processMemoryMb = (pid: number, key: 'VmRSS' | 'VmHWM' = 'VmRSS'): number | null => {
  const m = new RegExp(`${key}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Math.round(Number(m[1]) / 1024) : null
}

const TICK_MS = 10 // USER_HZ 100: /proc times are in hundredths of a second

/** CPU time (user + system) in ms of a process (`tid` omitted) or of one of its threads (the main thread's id is the pid). */
export const cpuMs = (pid: number, tid?: number): number => {
  const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8')
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(f[11]) + Number(f[12])) * TICK_MS
}

/** Each thread's CPU ms by its id, with its name (the HTTP thread's id is the pid). */
export const threadCpu = (pid: number): Map<string, { name: string; ms: number }> => new Map(readdirSync(`/proc/${pid}/task`).map((tid) => {
  try {
    return [tid, { name: readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim(), ms: cpuMs(pid, Number(tid)) }] as const
  } catch {
    return [tid, { name: '?', ms: 0 }] as const
  }
}))

/** The threads that worked since `before` (threadCpu), busiest first, as "name ms-per-unit" for `units` (say, searches). */
export function busyThreads(pid: number, before: Map<string, { name: string; ms: number }>, units: number): string {
  const round2 = (x: number) => Math.round(x * 100) / 100
  return [...threadCpu(pid)].map(([tid, t]) => ({ tid, name: t.name, ms: t.ms - (before.get(tid)?.ms ?? 0) }))
    .filter((t) => t.ms > 0).sort((a, b) => b.ms - a.ms)
    .map((t) => `${t.tid === String(pid) ? 'HTTP' : t.name} ${round2(t.ms / units)}`).join(', ')
}

/**
 * GET over one kept-alive node:http connection, as a browser tab holds one (undici's fetch adds
 * 1-3 ms of its own per request on this machine: the client's time, not the server's).
 */
export function keptAliveGet(base: string, cookie: string): (path: string) => Promise<{ ms: number; body: string }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  return (path) => new Promise((resolve, reject) => {
    const t0 = performance.now()
    http.get(base + path, { agent, headers: { cookie } }, (res) => {
      let body = ''
      res.setEncoding('utf8').on('data', (d: string) => { body += d }).on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${path}: ${res.statusCode} ${body.slice(0, 200)}`))
        else resolve({ ms: performance.now() - t0, body })
      })
    }).on('error', reject)
  })
}

/** A GET's outcome: ms from send to the last byte, the status (0 when it failed), the body (see keptAlivePool). */
export type Answer = { ms: number; status: number; body: string; error?: string }

/**
 * GETs over up to `connections` kept-alive connections (undici's Pool, one request at a time on each;
 * more wait for a free one), each answer read to its last byte (undici checks its length) and timed from
 * send to that byte. The body is decoded only when `withBody` asks for it or the status is not 200: the
 * bench's clients share the server's cores: node:http with every body decoded took 0.23-0.36 ms of CPU a
 * search served at 390-520/s, this 0.17-0.26 in the same holds (docs/load-history.md, stop 33, `client11`).
 */
export function keptAlivePool(base: string, cookie: string, connections: number): {
  client: string; get: (path: string, withBody?: boolean) => Promise<Answer>; close: () => Promise<void>
} {
  const pool = new Pool(base, { connections, pipelining: 1 })
  const headers = { cookie }
  const get = (path: string, withBody = false) => new Promise<Answer>((resolve) => {
    const t0 = performance.now()
    let status = 0
    let chunks: Buffer[] | null = null
    pool.dispatch({ path, method: 'GET', headers }, {
      onRequestStart: () => {},
      onResponseStart: (_c, code) => { status = code; chunks = withBody || code !== 200 ? [] : null },
      onResponseData: (_c, chunk) => { chunks?.push(chunk) },
      onResponseEnd: () => resolve({ ms: performance.now() - t0, status, body: chunks ? Buffer.concat(chunks).toString('utf8') : '' }),
      onResponseError: (_c, e: NodeJS.ErrnoException) => resolve({ ms: performance.now() - t0, status: 0, body: '', error: e.code ?? e.message }),
    })
  })
  return { client: `undici Pool, ${connections} connections, pipelining 1`, get, close: () => pool.close() }
}

/**
 * A `sheaf serve` child on a kept library's copy, killed when this process exits, signed in: two
 * kept-alive getters, one for the bench's requests and one to poll the job.
 */
export async function serveKept(dataDir: string): Promise<{ server: ChildProcess; get: ReturnType<typeof keptAliveGet>; poll: ReturnType<typeof keptAliveGet> }> {
  const server = spawnServer(dataDir)
  process.on('exit', () => server.kill('SIGKILL'))
  const { base, cookie } = await signIn(server)
  return { server, get: keptAliveGet(base, cookie), poll: keptAliveGet(base, cookie) }
}

/** The q-quantile of some timings, to 0.01 ms. */
export const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b)
  return Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] * 100) / 100
}

/**
 * A process's resident memory by kind of map, in MB, from /proc/PID/smaps: `heap` (the main thread's
 * malloc heap), `arenas` (the other malloc arenas' heaps: anonymous maps of at most 64 MB starting on a
 * 64 MB boundary, which glibc grows in place, so a young one is smaller), `v8` (V8's 256 KB pages),
 * `large` (other anonymous maps of 8 MB or more: typed arrays, Wasm memories), `small` (other anonymous
 * maps), `files` (binaries and mapped files) and `other` (named maps such as the stacks). Null when unreadable.
 */
export function smapsGroupsMb(pid: number): Record<string, number> | null {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/smaps`, 'utf8')
  } catch {
    return null
  }
  const kb: Record<string, number> = { heap: 0, arenas: 0, v8: 0, large: 0, small: 0, files: 0, other: 0 }
  let group = 'other'
  for (const line of text.split('\n')) {
    const map = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line)
    if (map) group = groupOf(BigInt(`0x${map[1]}`), BigInt(`0x${map[2]}`), map[3])
    else if (line.startsWith('Rss:')) kb[group] += Number(line.split(/\s+/)[1])
  }
  return Object.fromEntries(Object.entries(kb).map(([k, v]) => [k, Math.round(v / 1024)]))
}

const ARENA_HEAP = 64n << 20n

const groupOf = (start: bigint, end: bigint, name: string): string => {
  const sizeKb = Number(end - start) / 1024
  return name === '[heap]' ? 'heap' : name.startsWith('/') ? 'files' : name ? 'other'
    : sizeKb === 256 ? 'v8' : start % ARENA_HEAP === 0n && end - start <= ARENA_HEAP ? 'arenas' : sizeKb >= 8192 ? 'large' : 'small'
}
