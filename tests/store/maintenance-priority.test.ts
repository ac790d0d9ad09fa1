import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { closeDatabase, openDatabase, searchIndexInBackground } from '../../src-main/store/index.ts'

/** Nice value of each thread of this process, by thread id (Linux: field 19 of /proc/self/task/<tid>/stat). */
const niceByThread = (): Map<number, number> =>
  new Map(readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
    return [Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])]
  }))

/** The nice values of the threads that appeared while the database's maintenance thread started. */
async function maintenanceThreadNices(maintenanceNice?: number): Promise<number[]> {
  const folder = mkdtempSync(join(tmpdir(), 'sheaf-maintenance-nice-'))
  const db = openDatabase({ file: join(folder, 'sheaf.db'), maintenanceNice })
  try {
    const before = niceByThread()
    await new Promise<void>((done) => expect(searchIndexInBackground(db, done)).toBe(true))
    return [...niceByThread()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice)
  } finally {
    closeDatabase(db)
    rmSync(folder, { recursive: true, force: true })
  }
}

describe('the database\'s maintenance thread', () => {
  it.runIf(process.platform === 'linux')('takes the nice value it is opened with, the thread that opened it keeping its own', async () => {
    const mainNice = niceByThread().get(process.pid)
    expect(mainNice).not.toBe(19)
    expect(await maintenanceThreadNices(19)).toContain(19)
    expect(niceByThread().get(process.pid)).toBe(mainNice)
  })

  it.runIf(process.platform === 'linux')('runs at the process\'s priority when none is given', async () => {
    const nices = await maintenanceThreadNices()
    expect(nices.length).toBeGreaterThan(0)
    expect(nices).not.toContain(19)
  })
})
