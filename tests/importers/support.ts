import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { NormalizedPost } from '../../src-shared/schemas/posts.ts'
import type { ImportItem, ParsedExport } from '../../src-main/importers/index.ts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
/** ../shared/fixtures/exports beside the checkout (absent in a user's clone). */
export const EXPORTS = resolve(root, '../shared/fixtures/exports')
export const HAVE_FIXTURES = existsSync(EXPORTS)
export const SKIP_REASON = `shared fixtures not found at ${EXPORTS}: skipping tests that read real exports`
if (!HAVE_FIXTURES) console.warn(SKIP_REASON)

export const fixture = (rel: string) => join(EXPORTS, rel)
export const readFixture = (rel: string) => readFileSync(fixture(rel))
export const ownFixture = (name: string) => readFileSync(join(root, 'tests/fixtures/importers', name))

export interface Collected {
  format: string
  items: ImportItem[]
  posts: NormalizedPost[]
  errors: Extract<ImportItem, { kind: 'error' }>[]
  skipped: Extract<ImportItem, { kind: 'skipped' }>[]
  byId: (id: string) => NormalizedPost
}

export async function collect(parsed: ParsedExport): Promise<Collected> {
  const items: ImportItem[] = []
  for await (const it of parsed.items) items.push(it)
  const posts = items.flatMap((i) => (i.kind === 'post' ? [i.post] : []))
  return {
    format: parsed.format,
    items,
    posts,
    errors: items.filter((i): i is Extract<ImportItem, { kind: 'error' }> => i.kind === 'error'),
    skipped: items.filter((i): i is Extract<ImportItem, { kind: 'skipped' }> => i.kind === 'skipped'),
    byId: (id) => {
      const p = posts.find((x) => x.postId === id)
      if (!p) throw new Error(`post ${id} not found`)
      return p
    },
  }
}
