/**
 * What the pool's reads cost, in µs of this thread's CPU a pool, at the library's size: the explanation's
 * documents (searchDocuments, 30 posts), the page's rows and media (searchHitRows, searchHitMedia, 15 of
 * them), and searchDocuments' parts alone (the post's row, `urls`, `ocr`, the tags, categories and
 * entities subqueries), so a rewrite can be judged part by part. Pools are random posts (a new draw each
 * time: the pages are not all in SQLite's cache, as in a household's searches), the same draws for every
 * read. Usage: node bench/search-pool-parts.ts --db COPY [--pools 3000] [--root DIR]   (opened in place: use a copy)
 */
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { db: { type: 'string' }, pools: { type: 'string', default: '3000' }, root: { type: 'string', default: '.' } } })
if (!values.db) throw new Error('--db COPY (a library, opened in place: use a copy)')
const root = resolve(values.root)
const { closeDatabase, openDatabase } = await import(`${root}/src-main/store/db.ts`)
const { stmt, idList } = await import(`${root}/src-main/store/connection.ts`)
const q = await import(`${root}/src-main/store/queries/search.ts`)
const db = openDatabase({ file: values.db })
const pools = Number(values.pools)
const cpuUs = () => {
  const u = process.threadCpuUsage()
  return u.user + u.system
}
const maxId = stmt(db, 'SELECT max(id) FROM bookmarks').pluck().get() as number
const draw = (n: number): number[] => {
  const ids = new Set<number>()
  while (ids.size < n) ids.add(1 + Math.floor(Math.random() * maxId))
  return [...ids]
}
const sql = (select: string) => (ids: number[]) => stmt(db, `SELECT ${select} FROM search_documents d WHERE d.id IN (SELECT value FROM json_each(?))`).all(idList(ids))
const reads: Array<[string, number, (ids: number[]) => unknown]> = [
  ['searchDocuments (30)', 30, (ids) => q.searchDocuments(db, ids)],
  ['searchHitRows (15)', 15, (ids) => q.searchHitRows(db, ids)],
  ['searchHitMedia (15)', 15, (ids) => q.searchHitMedia(db, ids)],
  ['  the row: id, text, author (30)', 30, sql('d.id, d.text, d.author')],
  ['  + urls (30)', 30, sql('d.id, d.text, d.author, d.urls')],
  ['  + urls, ocr (30)', 30, sql('d.id, d.text, d.author, d.urls, d.ocr')],
  ['  + urls, ocr, summary (30)', 30, sql('d.id, d.text, d.author, d.urls, d.ocr, d.summary')],
]
/** searchDocuments rewritten: the knowledge row read once (summary and entities), tags and categories as correlated subqueries. */
const knowledgeOnce = (ids: number[]) => stmt(db, `SELECT d.id, d.text, d.author, d.urls, d.ocr, k.summary,
    (SELECT group_concat(tg.name, '|') FROM bookmark_tags bt JOIN tags tg ON tg.id = bt.tag_id WHERE bt.bookmark_id = d.id) AS tags,
    (SELECT group_concat(c.name, '|') FROM bookmark_categories bc JOIN categories c ON c.id = bc.category_id WHERE bc.bookmark_id = d.id) AS categories,
    k.entities AS entitiesJson
  FROM search_documents d LEFT JOIN knowledge k ON k.bookmark_id = d.id WHERE d.id IN (SELECT value FROM json_each(?))`).all(idList(ids))
/** ... and the pool's tags and categories each in one query, joined in JS. */
const batched = (ids: number[]) => {
  const list = idList(ids)
  const docs = stmt(db, `SELECT d.id, d.text, d.author, d.urls, d.ocr, k.summary, k.entities AS entitiesJson
    FROM search_documents d LEFT JOIN knowledge k ON k.bookmark_id = d.id WHERE d.id IN (SELECT value FROM json_each(?))`).all(list) as Array<Record<string, unknown>>
  const tags = stmt(db, `SELECT bt.bookmark_id AS id, group_concat(tg.name, '|') AS names FROM json_each(?) j CROSS JOIN bookmark_tags bt ON bt.bookmark_id = j.value
    JOIN tags tg ON tg.id = bt.tag_id GROUP BY bt.bookmark_id`).all(list) as Array<{ id: number; names: string }>
  const cats = stmt(db, `SELECT bc.bookmark_id AS id, group_concat(c.name, '|') AS names FROM json_each(?) j CROSS JOIN bookmark_categories bc ON bc.bookmark_id = j.value
    JOIN categories c ON c.id = bc.category_id GROUP BY bc.bookmark_id`).all(list) as Array<{ id: number; names: string }>
  const t = new Map(tags.map((r) => [r.id, r.names]))
  const c = new Map(cats.map((r) => [r.id, r.names]))
  for (const d of docs) { d.tags = t.get(d.id as number) ?? null; d.categories = c.get(d.id as number) ?? null }
  return docs
}
reads.splice(1, 0, ['  rewritten: knowledge once (30)', 30, knowledgeOnce], ['  rewritten: + tags, categories batched (30)', 30, batched])
const draws = Array.from({ length: pools }, () => draw(30))
console.log(`posts ${stmt(db, 'SELECT count(*) FROM bookmarks').pluck().get()}, ${pools} pools of random posts, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`)
// Each pool is read by every variant in turn, the order rotated pool by pool, so none is always the first to read its pages.
for (const round of [1, 2]) {
  const spent = reads.map(() => 0)
  draws.forEach((ids, p) => {
    for (let k = 0; k < reads.length; k++) {
      const i = (k + p) % reads.length
      const t = cpuUs()
      reads[i][2](ids.slice(0, reads[i][1]))
      spent[i] += cpuUs() - t
    }
  })
  reads.forEach(([name], i) => console.log(`round ${round}  ${name.padEnd(44)} ${(spent[i] / pools).toFixed(1)} µs`))
}
const same = draws.slice(0, 200).every((ids) => JSON.stringify(q.searchDocuments(db, ids)) === JSON.stringify(reads[1][2](ids)) &&
  JSON.stringify(q.searchDocuments(db, ids)) === JSON.stringify(reads[2][2](ids)))
console.log(`rewritten variants give the same rows (200 pools): ${same}`)
closeDatabase(db)
