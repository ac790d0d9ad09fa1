import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const WORKER = fileURLToPath(new URL('../../src-main/search/vector-worker.ts', import.meta.url))
const WORD_MEMORY_WORKER = fileURLToPath(new URL('../../src-main/search/word-memory-worker.ts', import.meta.url))

/** Every module a file loads when it runs (type-only imports are erased), following the repo's own files. */
function loadedModules(entry: string): Set<string> {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const source = readFileSync(file, 'utf8')
    for (const m of source.matchAll(/^(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
      const spec = m[1]
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec))
      else seen.add(spec)
    }
  }
  visit(entry)
  return seen
}

describe('the vector thread\'s entry', () => {
  it('loads neither drizzle nor the store\'s or the AI\'s index: each module is compiled again in its isolate', () => {
    const loaded = [...loadedModules(WORKER)]
    expect(loaded.filter((m) => m.startsWith('drizzle-orm'))).toEqual([])
    expect(loaded.filter((m) => /src-main\/(store|ai|ai\/local)\/index\.ts$/.test(m))).toEqual([])
    // What it runs: the database driver and the word vectors.
    expect(loaded).toContain('better-sqlite3')
    expect(loaded.some((m) => m.endsWith('ai/local/word-vectors.ts'))).toBe(true)
  })
})

describe("the word memory's build thread", () => {
  it("loads neither drizzle nor the store's index (0.8 s of a core in each new thread)", () => {
    const loaded = [...loadedModules(WORD_MEMORY_WORKER)]
    expect(loaded.filter((m) => m.startsWith('drizzle-orm'))).toEqual([])
    expect(loaded.filter((m) => /src-main\/store\/(index|db|schema)\.ts$/.test(m))).toEqual([])
    expect(loaded.some((m) => m.endsWith('store/queries/word-memory.ts'))).toBe(true)
  })
})
