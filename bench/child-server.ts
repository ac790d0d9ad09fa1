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
