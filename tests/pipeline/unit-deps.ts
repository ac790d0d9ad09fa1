import { createLogger } from '../../src-main/app/index.ts'
import { createLocalProvider } from '../../src-main/ai/index.ts'
import { createEventHub } from '../../src-main/pipeline/events.ts'
import { createImageTools } from '../../src-main/pipeline/index.ts'
import type { LaunchDeps } from '../../src-main/pipeline/job-runner.ts'
import type { Db } from '../../src-main/store/index.ts'
import { insertUser } from '../../src-main/store/queries/accounts.ts'
import { searchDb } from '../search/search-db.ts'

/** Two people who can start jobs (a job's creator is a user). */
export const addPeople = (db: Db): [number, number] =>
  [1, 2].map((n) => insertUser(db, { email: `p${n}@example.com`, name: `P${n}`, role: 'member', passwordHash: 'x' }).id) as [number, number]

/** A real library file with `posts` posts, and what the pipeline's units need around it: local models in process, no media. */
export function pipelineUnit(posts: number) {
  const lib = searchDb()
  const ids = Array.from({ length: posts }, (_, i) => lib.add(`Post ${i} about pruning roses in spring with a sharp knife`))
  const people = addPeople(lib.db)
  const hub = createEventHub()
  const deps: LaunchDeps = {
    db: lib.db, clock: Date.now, log: createLogger({ level: 'error', write: () => {} }), hub,
    activeProvider: async () => createLocalProvider(), mediaCache: () => null, images: createImageTools(), offThread: false,
  }
  return { lib, ids, people, hub, deps }
}
