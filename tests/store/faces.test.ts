import { readFileSync } from 'node:fs'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import STORE from '../../src-main/store/faces.json' with { type: 'json' }

/** The names store/index.ts exports, read from its source (it holds only `export { ... } from` lines). */
function indexExports(): Set<string> {
  const file = new URL('../../src-main/store/index.ts', import.meta.url)
  const source = ts.createSourceFile('index.ts', readFileSync(file, 'utf8'), ts.ScriptTarget.Latest)
  const names = new Set<string>()
  for (const st of source.statements) {
    if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) names.add(el.name.text)
    }
  }
  return names
}

describe("the store's faces", () => {
  it('name only what store/index.ts exports, and it exports nothing no face names', () => {
    const exported = indexExports()
    const named = new Set(Object.values(STORE.faces).flatMap((face) => face.names))
    expect([...named].filter((n) => !exported.has(n))).toEqual([])
    expect([...exported].filter((n) => !named.has(n))).toEqual([])
  })
})
