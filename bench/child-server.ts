import http from 'node:http'
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'

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

/** The q-quantile of some timings, to 0.01 ms. */
export const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b)
  return Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] * 100) / 100
}
