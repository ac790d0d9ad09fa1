import { idList, stmt, transaction, type Db } from '../db.ts'
import type { JobErrorRow, JobRow } from '../schema.ts'

/** A job as the pipeline reads it (`bookmarkIds` parsed). */
export type JobRecord = Omit<JobRow, 'bookmarkIds'> & { bookmarkIds: number[] | null }

const COLUMNS = `id, status, force, bookmark_ids AS bookmarkIds, stage, current, total, processed, errors, provider,
  tokens_in AS tokensIn, tokens_out AS tokensOut, cost_usd AS costUsd, created_by AS createdBy, created_at AS createdAt,
  updated_at AS updatedAt, finished_at AS finishedAt, error`

const toJob = (r: Record<string, unknown> | undefined): JobRecord | null =>
  r ? { ...(r as unknown as JobRecord), force: r.force === 1, bookmarkIds: r.bookmarkIds ? JSON.parse(r.bookmarkIds as string) : null } : null

export interface JobWrite { id: string; force: boolean; bookmarkIds: number[] | null; provider: string; createdBy: number | null; now: number; items: readonly number[] }

/** A job and the posts it covers, in one transaction. */
export function insertJob(db: Db, j: JobWrite): void {
  transaction(db, () => {
    insertJobRow(db, { ...j, total: j.items.length })
    addJobItems(db, j.id, j.items)
  })
}

/** A job's row alone (`total`: its items' count); its items follow with addJobItems. */
export function insertJobRow(db: Db, j: Omit<JobWrite, 'items'> & { total: number }): void {
  stmt(db, `INSERT INTO jobs (id, status, force, bookmark_ids, stage, total, provider, created_by, created_at, updated_at)
    VALUES (?, 'running', ?, ?, 'entity_extraction', ?, ?, ?, ?, ?)`)
    .run(j.id, j.force ? 1 : 0, j.bookmarkIds ? JSON.stringify(j.bookmarkIds) : null, j.total, j.provider, j.createdBy, j.now, j.now)
}

/** Posts a job covers, not yet done; a post it already has is kept as it is, a post deleted meanwhile left out. */
export function addJobItems(db: Db, jobId: string, ids: readonly number[]): void {
  stmt(db, `INSERT OR IGNORE INTO job_items (job_id, bookmark_id, done_stage)
    SELECT ?, b.id, 0 FROM json_each(?) j JOIN bookmarks b ON b.id = j.value`).run(jobId, idList(ids))
}

export const jobById = (db: Db, id: string): JobRecord | null => toJob(stmt(db, `SELECT ${COLUMNS} FROM jobs WHERE id = ?`).get(id) as Record<string, unknown> | undefined)

export const latestJob = (db: Db): JobRecord | null =>
  toJob(stmt(db, `SELECT ${COLUMNS} FROM jobs ORDER BY created_at DESC, rowid DESC LIMIT 1`).get() as Record<string, unknown> | undefined)

/** Jobs a restart interrupted. */
export const unfinishedJobs = (db: Db): JobRecord[] =>
  (stmt(db, `SELECT ${COLUMNS} FROM jobs WHERE status IN ('running', 'cancelling') ORDER BY created_at`).all() as Record<string, unknown>[]).map((r) => toJob(r)!)

export function updateJobProgress(db: Db, id: string, p: { stage: string; current: number; total: number; now: number }): void {
  stmt(db, 'UPDATE jobs SET stage = ?, current = ?, total = ?, updated_at = ? WHERE id = ?').run(p.stage, p.current, p.total, p.now, id)
}

export function addJobUsage(db: Db, id: string, u: { tokensIn: number; tokensOut: number; costUsd: number }): void {
  if (!u.tokensIn && !u.tokensOut && !u.costUsd) return
  stmt(db, 'UPDATE jobs SET tokens_in = tokens_in + ?, tokens_out = tokens_out + ?, cost_usd = cost_usd + ? WHERE id = ?').run(u.tokensIn, u.tokensOut, u.costUsd, id)
}

export function setJobStatus(db: Db, id: string, status: string, now: number, extra: { finished?: boolean; error?: string | null; processed?: number; errors?: number } = {}): void {
  stmt(db, `UPDATE jobs SET status = ?, updated_at = ?, finished_at = CASE WHEN ? THEN ? ELSE finished_at END,
    error = coalesce(?, error), processed = coalesce(?, processed), errors = coalesce(?, errors) WHERE id = ?`)
    .run(status, now, extra.finished ? 1 : 0, now, extra.error ?? null, extra.processed ?? null, extra.errors ?? null, id)
}

/** Posts of a job that have not finished stage `stageIndex` (1-based), in id order. */
export const jobItemsBelow = (db: Db, jobId: string, stageIndex: number): number[] =>
  stmt(db, 'SELECT bookmark_id FROM job_items WHERE job_id = ? AND done_stage < ? ORDER BY bookmark_id').pluck().all(jobId, stageIndex) as number[]

export const countJobItemsAtLeast = (db: Db, jobId: string, stageIndex: number): number =>
  stmt(db, 'SELECT count(*) FROM job_items WHERE job_id = ? AND done_stage >= ?').pluck().get(jobId, stageIndex) as number

export const countJobItems = (db: Db, jobId: string): number =>
  stmt(db, 'SELECT count(*) FROM job_items WHERE job_id = ?').pluck().get(jobId) as number

export function markJobItems(db: Db, jobId: string, ids: readonly number[], stageIndex: number): void {
  stmt(db, 'UPDATE job_items SET done_stage = max(done_stage, ?) WHERE job_id = ? AND bookmark_id IN (SELECT value FROM json_each(?))')
    .run(stageIndex, jobId, idList(ids))
}

export type JobErrorRecord = Omit<JobErrorRow, 'jobId'>

export interface JobErrorWrite { bookmarkId: number | null; stage: string; message: string; fellBack: boolean; now: number }

export const insertJobError = (db: Db, e: JobErrorWrite & { jobId: string }): void => insertJobErrors(db, e.jobId, [e])

/** A job's errors in one statement, in the order given (the order they are listed in). */
export function insertJobErrors(db: Db, jobId: string, errors: readonly JobErrorWrite[]): void {
  if (errors.length === 0) return
  stmt(db, `INSERT INTO job_errors (job_id, bookmark_id, stage, message, fell_back, created_at)
    SELECT ?, e.value ->> 0, e.value ->> 1, e.value ->> 2, e.value ->> 3, e.value ->> 4 FROM json_each(?) e ORDER BY e.key`)
    .run(jobId, JSON.stringify(errors.map((e) => [e.bookmarkId, e.stage, e.message.slice(0, 1000), e.fellBack ? 1 : 0, e.now])))
}

export const jobErrors = (db: Db, jobId: string, limit = 1000): JobErrorRecord[] =>
  (stmt(db, `SELECT id, bookmark_id AS bookmarkId, stage, message, fell_back AS fellBack, created_at AS createdAt FROM job_errors
    WHERE job_id = ? ORDER BY id LIMIT ?`).all(jobId, limit) as Array<Record<string, unknown>>)
    .map((r) => ({ ...(r as unknown as JobErrorRecord), fellBack: r.fellBack === 1 }))

/** Posts whose errors count as failures (not fallbacks, which did get analysed). */
export const failedBookmarkIds = (db: Db, jobId: string): number[] =>
  stmt(db, 'SELECT DISTINCT bookmark_id FROM job_errors WHERE job_id = ? AND bookmark_id IS NOT NULL ORDER BY bookmark_id').pluck().all(jobId) as number[]

