import { setImmediate as nextTurn } from 'node:timers/promises'
import {
  addJobItems, countJobItems, countJobItemsAtLeast, insertJobRow, selectDueBookmarkIds, transaction, type Db, type JobRecord,
} from '../store/index.ts'
import { waitForWriters, writeWhenFree } from './context.ts'

/**
 * Posts listed or written per turn of the event loop, a few ms each: a whole library's job listed and
 * wrote its 20,000 items in one go on the HTTP thread (30 + 47 ms in bench/load.ts, profiled), and
 * every request waited behind it.
 */
export const JOB_SLICE = 2000

export interface JobScope { bookmarkIds: number[] | null; force: boolean; vectorModel: string }
export interface NewJob extends Omit<JobScope, 'vectorModel'> { id: string; provider: string; createdBy: number | null; now: number }

/** The posts a job is to cover (those due in its scope), listed a slice per turn of the event loop. */
export async function listDuePosts(db: Db, scope: JobScope): Promise<number[]> {
  const due: number[] = []
  for (let after = 0; ;) {
    // An import's open transaction is on this connection: its posts are not listed before they are committed.
    await waitForWriters(db)
    const page = selectDueBookmarkIds(db, { ...scope, bookmarkIds: scope.bookmarkIds ?? undefined, after, limit: JOB_SLICE })
    due.push(...page)
    if (page.length < JOB_SLICE) return due
    after = page[page.length - 1]
    await nextTurn()
  }
}

/**
 * Writes a job: its row with the first slice of its posts, then the rest a slice per turn, each in its
 * own short transaction when the write lock is free. A restart in between leaves a job with fewer
 * posts than its total: `completeJobItems` writes the rest before it resumes.
 */
export async function writeJob(db: Db, job: NewJob, items: readonly number[]): Promise<void> {
  await writeWhenFree(db, () => {
    insertJobRow(db, { ...job, total: items.length })
    addJobItems(db, job.id, items.slice(0, JOB_SLICE))
  })
  for (let i = JOB_SLICE; i < items.length; i += JOB_SLICE) {
    await nextTurn()
    await writeWhenFree(db, () => addJobItems(db, job.id, items.slice(i, i + JOB_SLICE)))
  }
}

/** A job a restart stopped while its posts were being written (fewer than its total, none started): lists and writes them again. */
export function completeJobItems(db: Db, job: JobRecord, vectorModel: string): void {
  if (countJobItems(db, job.id) >= job.total || countJobItemsAtLeast(db, job.id, 1) > 0) return
  const due = selectDueBookmarkIds(db, { bookmarkIds: job.bookmarkIds ?? undefined, force: job.force, vectorModel })
  transaction(db, () => addJobItems(db, job.id, due))
}
