import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createWorkerRunner } from '../../src-main/ai/index.ts'
import { lowerThreadPriority } from '../../src-main/background/index.ts'

/** Nice value of each thread of this process, by thread id (Linux: field 19 of /proc/self/task/<tid>/stat). */
const niceByThread = (): Map<number, number> =>
  new Map(readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
    return [Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])]
  }))
const lowered = () => [...niceByThread().values()].filter((n) => n === 19).length

describe('lowerThreadPriority', () => {
  it('does nothing on the main thread or where the call would reach the whole process', () => {
    expect(lowerThreadPriority('linux', true)).toBe(false)
    expect(lowerThreadPriority('darwin', false)).toBe(false)
    expect(lowerThreadPriority('win32', false)).toBe(false)
  })

  it.runIf(process.platform === 'linux')('lowers a background worker thread alone, not the thread that started it', async () => {
    const before = lowered()
    const mainNice = niceByThread().get(process.pid)
    const background = createWorkerRunner({ existingTags: [], categories: [], examples: [] }, { background: true })
    const normal = createWorkerRunner({ existingTags: [], categories: [], examples: [] })
    try {
      await background.normalizeTags([['x']])
      await normal.normalizeTags([['x']])
      expect(lowered()).toBe(before + 1)
      expect(niceByThread().get(process.pid)).toBe(mainNice)
      expect(mainNice).not.toBe(19)
    } finally {
      await background.close()
      await normal.close()
    }
  })
})
