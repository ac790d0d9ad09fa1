import { z } from 'zod'
import { zBookmark, zMemberState } from './bookmarks.ts'

export { zMemberState, type MemberState } from './bookmarks.ts'

const flags = {
  read: z.boolean({ error: 'read must be true or false' }).optional(),
  starred: z.boolean({ error: 'starred must be true or false' }).optional(),
  hidden: z.boolean({ error: 'hidden must be true or false' }).optional(),
}
const someFlag = (b: { read?: boolean; starred?: boolean; hidden?: boolean }) =>
  b.read !== undefined || b.starred !== undefined || b.hidden !== undefined
const SOME_FLAG = { error: 'give at least one of read, starred, hidden', path: ['body'] }

/** PUT /api/bookmarks/:id/state */
export const zStateBody = z.strictObject(flags).refine(someFlag, SOME_FLAG)
export type StateBody = z.infer<typeof zStateBody>

/** POST /api/bookmarks/state: the same change on a selection. */
export const zBulkStateBody = z.strictObject({
  ids: z.array(z.number({ error: 'ids must be numbers' }).int().positive(), { error: 'ids must be an array of bookmark ids' })
    .min(1, 'ids must not be empty').max(10_000, 'ids: at most 10,000 at once'),
  ...flags,
}).refine(someFlag, SOME_FLAG)
export type BulkStateBody = z.infer<typeof zBulkStateBody>

export const zStateResponse = z.object({ id: z.number().int(), state: zMemberState })
export const zBulkStateResponse = z.object({ affected: z.number().int() })

/** The list's state filters: `hidden=true` lists only the caller's hidden posts, which are otherwise left out. */
const bool = (name: string) => z.enum(['true', 'false'], { error: `${name} must be true or false` }).transform((v) => v === 'true')
export const zStateQuery = z.object({
  read: bool('read').optional(),
  starred: bool('starred').optional(),
  hidden: bool('hidden').optional(),
})

export const REVIEW_DEFAULT = 5
export const REVIEW_MAX = 50
export const zReviewQuery = z.object({
  n: z.string().regex(/^\d{1,3}$/, `n must be a whole number from 1 to ${REVIEW_MAX}`).transform(Number)
    .pipe(z.number().int().min(1, `n must be a whole number from 1 to ${REVIEW_MAX}`).max(REVIEW_MAX, `n is at most ${REVIEW_MAX}`))
    .default(REVIEW_DEFAULT),
})

export const REVIEW_OUTCOMES = ['keep', 'done', 'later'] as const
export const zReviewAnswer = z.strictObject({
  outcome: z.enum(REVIEW_OUTCOMES, { error: `outcome must be one of ${REVIEW_OUTCOMES.join(', ')}` }),
})
export type ReviewOutcome = (typeof REVIEW_OUTCOMES)[number]

/** Why a post is in today's review, in words. */
export const REVIEW_REASONS = ['starred', 'unread', 'due', 'new'] as const
export const zReviewItem = z.object({ bookmark: zBookmark, reason: z.enum(REVIEW_REASONS) })

export const zStreak = z.object({
  /** Days in a row, ending today (or yesterday, while today's review is still open), with at least one answer. */
  current: z.number().int(),
  longest: z.number().int(),
  answeredToday: z.number().int(),
})
export type Streak = z.infer<typeof zStreak>

export const zReviewResponse = z.object({
  /** The local calendar day (YYYY-MM-DD) the review is for. */
  day: z.string(),
  n: z.number().int(),
  items: z.array(zReviewItem),
  /** True when today's handful is answered, or nothing is left to review. */
  nothingLeft: z.boolean(),
  streak: zStreak,
})
export type ReviewResponse = z.infer<typeof zReviewResponse>

export const zReviewAnswerResponse = z.object({
  id: z.number().int(),
  outcome: z.enum(REVIEW_OUTCOMES),
  /** The day (YYYY-MM-DD) the post comes back, null after "done". */
  nextDue: z.string().nullable(),
  /** Days until it comes back (0 after "done"). */
  intervalDays: z.number().int(),
  streak: zStreak,
})
export type ReviewAnswerResponse = z.infer<typeof zReviewAnswerResponse>

export const DIGEST_MAX_DAYS = 90
export const zDigestQuery = z.object({
  days: z.string().regex(/^\d{1,3}$/, `days must be a whole number from 1 to ${DIGEST_MAX_DAYS}`).transform(Number)
    .pipe(z.number().int().min(1, `days must be a whole number from 1 to ${DIGEST_MAX_DAYS}`).max(DIGEST_MAX_DAYS, `days is at most ${DIGEST_MAX_DAYS}`))
    .default(7),
  format: z.enum(['json', 'markdown'], { error: 'format must be json or markdown' }).default('json'),
})

/** A post as the digest lists it (plain text; never render it as HTML). */
export const zDigestPost = z.object({
  id: z.number().int(),
  postId: z.string(),
  authorHandle: z.string(),
  /** The first 200 characters. */
  text: z.string(),
  url: z.string(),
})
export type DigestPost = z.infer<typeof zDigestPost>

export const zDigestCategory = z.object({
  /** null: posts in no category. */
  slug: z.string().nullable(),
  name: z.string(),
  color: z.string().nullable(),
  saved: z.number().int(),
  analyzed: z.number().int(),
  /** The most engaged-with posts saved in the window, at most three. */
  top: z.array(zDigestPost),
})

export const zDigest = z.object({
  days: z.number().int(),
  /** Inclusive start and exclusive end of the window (local midnights), ISO 8601 UTC. */
  from: z.string(),
  to: z.string(),
  saved: z.number().int(),
  analyzed: z.number().int(),
  categories: z.array(zDigestCategory),
  /** Posts starred in the window, by how many members star them now (never who). */
  mostStarred: z.array(zDigestPost.extend({ stars: z.number().int() })),
  /** Posts others saved in the window, in the categories this member read most, that they have not read. */
  forYou: z.object({ categories: z.array(z.object({ slug: z.string(), name: z.string() })), posts: z.array(zDigestPost) }),
})
export type Digest = z.infer<typeof zDigest>
