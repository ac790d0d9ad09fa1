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

/** A process's CPU time so far (user + system), in ms; the kernel counts it in ticks of 10 ms. */
export const processCpuMs = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}
