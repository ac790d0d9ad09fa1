/**
 * Each member's own layer at scale (issue 15): imports a 100,000-post library, gives five members state on
 * every post (500,000 rows: read 40 %, starred 5 %, hidden 2 %, 10 % reviewed), puts posts in categories
 * and marks most analysed, then times through the app's HTTP handler (every middleware, the session check
 * and the routes; in-process, no socket) the list filtered by state, state writes, the daily review and the
 * digest. Prints one JSON object with p50/p95/max per request kind, the first (cold) answer, and SQLite's plan
 * for the state filters. Targets: list filters p95 < 10 ms; review and digest < 50 ms.
 * Usage: node bench/member-state.ts [--posts 100000] [--rounds 200]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os, { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createApp, createLogger, resolveConfig } from '../src-main/app/index.ts'
import { createMemoryStore } from '../src-main/secrets/index.ts'
import { closeDatabase, openDatabase } from '../src-main/store/index.ts'
import { putSetting } from '../src-main/store/queries/settings.ts'
import { iteratePosts, writeGraphqlBookmarks } from './generate-library.ts'
import { sqliteOf } from '../src-main/store/db.ts'

const { values } = parseArgs({ options: { posts: { type: 'string', default: '100000' }, rounds: { type: 'string', default: '200' } } })
const n = Number(values.posts)
const rounds = Number(values.rounds)
const MEMBERS = 5
const file = join(tmpdir(), `sheaf-bench-graphql-${n}.json`)
if (!existsSync(file)) await writeGraphqlBookmarks(file, iteratePosts(n, 42))

const dataDir = mkdtempSync(join(tmpdir(), 'sheaf-bench-member-'))
const pre = openDatabase({ file: join(dataDir, 'sheaf.db') })
putSetting(pre, 'ai', { autoRunAfterImport: false })
closeDatabase(pre)
const config = resolveConfig({ dataDir, host: '127.0.0.1', port: 0 }, { SHEAF_RATE_LIMIT_API: '100000000/1m', SHEAF_RATE_LIMIT_LOGIN: '1000/1m' })
const sheaf = await createApp(config, { secrets: createMemoryStore(), log: createLogger({ level: 'error', write: () => {} }), bcryptCost: 4 })
const db = sqliteOf(sheaf.db)

let t0 = performance.now()
const imported = await sheaf.library.importFile(file)
const importMs = Math.round(performance.now() - t0)
// the search index's words (for `q`) are written in the background on this event loop: let them settle first
t0 = performance.now()
const ftsPending = db.prepare('SELECT count(*) FROM search_fts_queue').pluck()
while ((ftsPending.get() as number) > 0 && performance.now() - t0 < 180_000) await new Promise((r) => setTimeout(r, 250))

const password = 'bench password 123'
const tokens: string[] = []
for (let u = 0; u < MEMBERS; u++) {
  const email = `member${u}@example.com`
  await sheaf.auth.users.create({ email, name: `Member ${u}`, role: u === 0 ? 'admin' : 'member', password })
  tokens.push((await sheaf.auth.sessions.login(email, password)).token)
}
const userIds = db.prepare('SELECT id FROM users ORDER BY id').pluck().all() as number[]

// Categories for every post, analysis for 60 % (in the last week), and state for every member on every post.
t0 = performance.now()
const now = Date.now()
const cats = db.prepare('SELECT id FROM categories ORDER BY id').pluck().all() as number[]
db.exec(`BEGIN;
  INSERT OR IGNORE INTO bookmark_categories (bookmark_id, category_id, confidence, assigned_by, created_at)
    SELECT id, ${cats[0]} + (id * 104729) % ${cats.length}, 0.7, 'pipeline', 0 FROM bookmarks;
  INSERT OR IGNORE INTO knowledge (bookmark_id, summary, action, sentiment, confidence, related_ids, analyzed_at)
    SELECT id, 'summary', 'reference', 'neutral', 0.8, '[]', ${now} - (id * 7919) % ${6 * 86_400_000} FROM bookmarks WHERE id % 5 < 3;
  COMMIT;`)
const state = db.prepare(`INSERT INTO member_state (user_id, bookmark_id, read, starred, hidden, starred_at, review_due, review_interval, reviewed_at, updated_at)
  SELECT @user, id, (id * 2654435761 + @user * 97) % 100 < 40, (id * 40503 + @user * 31) % 100 < 5, (id * 69069 + @user * 17) % 100 < 2,
    CASE WHEN (id * 40503 + @user * 31) % 100 < 5 THEN @now - (id % 30) * 86400000 END,
    CASE WHEN (id * 1103515245 + @user) % 100 < 10 THEN @today + (id % 15) - 7 END,
    CASE WHEN (id * 1103515245 + @user) % 100 < 10 THEN 5 ELSE 0 END,
    CASE WHEN (id * 1103515245 + @user) % 100 < 10 THEN @now - 86400000 END, @now
  FROM bookmarks`)
const today = Math.floor((now - new Date(now).getTimezoneOffset() * 60_000) / 86_400_000)
db.transaction(() => { for (const user of userIds) state.run({ user, now, today }) })()
db.exec('PRAGMA optimize')
const seedMs = Math.round(performance.now() - t0)
const stateRows = db.prepare('SELECT count(*) FROM member_state').pluck().get() as number

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 100) / 100
}
const call = async (member: number, path: string, init: RequestInit = {}) => {
  const res = await sheaf.app.request(`http://127.0.0.1${path}`, { ...init, headers: { host: '127.0.0.1', authorization: `Bearer ${tokens[member]}`, 'content-type': 'application/json', ...init.headers } })
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return res.text()
}
/** Times `path` for each member in turn; `first` is the first answer (cold caches), then `rounds` more. */
async function time(path: (i: number) => string, init?: (i: number) => RequestInit, between?: (i: number) => Promise<unknown>) {
  let s = performance.now()
  await call(0, path(0), init?.(0))
  const first = Math.round((performance.now() - s) * 100) / 100
  const ms: number[] = []
  for (let i = 1; i <= rounds; i++) {
    await between?.(i)
    s = performance.now()
    await call(i % MEMBERS, path(i), init?.(i))
    ms.push(performance.now() - s)
  }
  return { first, p50: pct(ms, 50), p95: pct(ms, 95), max: pct(ms, 100) }
}
const page = (i: number) => 1 + (i % 3)
const list = {
  default: await time((i) => `/api/bookmarks?page=${page(i)}`),
  unread: await time((i) => `/api/bookmarks?read=false&page=${page(i)}`),
  read: await time((i) => `/api/bookmarks?read=true&page=${page(i)}`),
  starred: await time((i) => `/api/bookmarks?starred=true&page=${page(i)}`),
  hidden: await time((i) => `/api/bookmarks?hidden=true&page=${page(i)}`),
  unreadPopular: await time((i) => `/api/bookmarks?read=false&sort=popular&page=${page(i)}`),
  starredInCategory: await time((i) => `/api/bookmarks?starred=true&category=${['programming', 'ai-machine-learning', 'design'][i % 3]}`),
  unreadInCategory: await time((i) => `/api/bookmarks?read=false&category=${['programming', 'ai-machine-learning', 'design'][i % 3]}&page=${page(i)}`),
  unreadWords: await time((i) => `/api/bookmarks?read=false&q=${['sqlite', 'sourdough', 'typescript'][i % 3]}`),
  // each list right after the same member changed a post's state (their cached counts start again)
  unreadAfterAWrite: await time((i) => `/api/bookmarks?read=false&page=${page(i)}`, undefined,
    (i) => call(i % MEMBERS, `/api/bookmarks/${1 + ((i * 7919) % n)}/state`, { method: 'PUT', body: JSON.stringify({ read: i % 2 === 0 }) })),
}
const writes = {
  putState: await time(() => `/api/bookmarks/${1 + Math.floor(Math.random() * n)}/state`, (i) => ({ method: 'PUT', body: JSON.stringify({ starred: i % 2 === 0 }) })),
  bulk100: await time(() => '/api/bookmarks/state', (i) => ({ method: 'POST', body: JSON.stringify({ ids: Array.from({ length: 100 }, (_, k) => 1 + ((i * 100 + k) * 13) % n), read: true }) })),
}
const reviewAndDigest = {
  review5: await time(() => '/api/review'),
  review50: await time(() => '/api/review?n=50'),
  // each review right after the same member answered one (their candidates are chosen again)
  review50AfterAnAnswer: await time(() => '/api/review?n=50', undefined,
    (i) => call(i % MEMBERS, `/api/review/${1 + ((i * 15485863) % n)}`, { method: 'POST', body: JSON.stringify({ outcome: 'keep' }) })),
  digest7: await time(() => '/api/digest?days=7'),
  digest30Markdown: await time(() => '/api/digest?days=30&format=markdown'),
  digest7AfterAStar: await time(() => '/api/digest?days=7', undefined,
    (i) => call(i % MEMBERS, `/api/bookmarks/${1 + ((i * 104729) % n)}/state`, { method: 'PUT', body: JSON.stringify({ starred: true }) })),
  // a category change moves the library, so the window's counts are computed afresh each time
  digest7AfterACategoryChange: await time(() => '/api/digest?days=7', undefined,
    (i) => call(0, `/api/bookmarks/${1 + ((i * 7919) % n)}/categories`, { method: 'POST', body: JSON.stringify({ slug: 'programming' }) })),
}
const plan = (sql: string, ...params: unknown[]) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail)
const plans = {
  starredCount: plan('SELECT count(*) FROM bookmarks b WHERE b.id IN (SELECT s.bookmark_id FROM member_state s WHERE s.user_id = ? AND s.starred = 1)', 1),
  unreadPage: plan(`SELECT b.id FROM bookmarks b WHERE NOT EXISTS (SELECT 1 FROM member_state s WHERE s.user_id = ? AND s.bookmark_id = b.id AND s.read = 1)
    AND NOT EXISTS (SELECT 1 FROM member_state s WHERE s.user_id = ? AND s.bookmark_id = b.id AND s.hidden = 1) ORDER BY b.post_created_at DESC, b.id DESC LIMIT 20`, 1, 1),
}
process.stdout.write(`${JSON.stringify({
  posts: imported.imported, members: MEMBERS, stateRows, importMs, seedMs, rounds, loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
  list, writes, reviewAndDigest, plans,
}, null, 2)}\n`)
await sheaf.close()
rmSync(dataDir, { recursive: true, force: true })
