/**
 * Whether two libraries hold the same stage 4 answers: every post's related posts (in order), the
 * near-duplicate pairs by meaning, and the pipeline's categories. For a change to the related-post
 * index, run `bench/stage4-memory.ts --keep` on the same kept library with the code before and after,
 * then compare the two copies it kept:
 *   node bench/related-same.ts DIR_BEFORE DIR_AFTER
 * Prints one hash of each answer per library and how many posts differ; exits 1 when any do.
 */
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import Database from 'better-sqlite3'

const dirs = process.argv.slice(2)
if (dirs.length !== 2) throw new Error('usage: node bench/related-same.ts DIR_BEFORE DIR_AFTER')

const QUERIES = {
  related: 'SELECT bookmark_id AS id, related_ids AS v FROM knowledge ORDER BY bookmark_id',
  meaningPairs: "SELECT bookmark_id AS id, group_concat(key, ' ') AS v FROM (SELECT bookmark_id, key FROM post_keys WHERE kind = 'meaning' ORDER BY bookmark_id, key) GROUP BY bookmark_id ORDER BY bookmark_id",
  categories: "SELECT bookmark_id AS id, group_concat(category_id || ':' || round(confidence, 6), ' ') AS v FROM (SELECT * FROM bookmark_categories WHERE assigned_by = 'pipeline' ORDER BY bookmark_id, category_id) GROUP BY bookmark_id ORDER BY bookmark_id",
}

const read = (dir: string) => {
  const db = new Database(join(dir, 'sheaf.db'), { readonly: true })
  const out = Object.fromEntries(Object.entries(QUERIES).map(([name, sql]) =>
    [name, new Map((db.prepare(sql).all() as Array<{ id: number; v: string | null }>).map((r) => [r.id, r.v ?? '']))]))
  db.close()
  return out
}

const [a, b] = dirs.map(read)
const report: Record<string, unknown> = {}
let differ = 0
for (const name of Object.keys(QUERIES)) {
  const [x, y] = [a[name], b[name]]
  const ids = new Set([...x.keys(), ...y.keys()])
  const diff = [...ids].filter((id) => x.get(id) !== y.get(id))
  differ += diff.length
  const hash = (m: Map<number, string>) => createHash('sha256').update(JSON.stringify([...m])).digest('hex').slice(0, 16)
  report[name] = { posts: [x.size, y.size], hashes: [hash(x), hash(y)], differing: diff.length, firstDiffering: diff.slice(0, 3).map((id) => [id, x.get(id), y.get(id)]) }
}
process.stdout.write(JSON.stringify(report, null, 2) + '\n')
process.exit(differ === 0 ? 0 : 1)
