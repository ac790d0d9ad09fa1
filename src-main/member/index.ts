import type { Bookmark } from '../../src-shared/schemas/bookmarks.ts'
import { startWarming } from '../library/index.ts'
import type { Db } from '../store/index.ts'
import { createDigest } from './digest.ts'
import { createReview } from './review.ts'
import { createMemberState } from './state.ts'

export interface MemberDeps {
  db: Db
  clock: () => number
  /** List items for ids, with the member's own state (the library's). */
  items: (ids: number[], userId: number) => Bookmark[]
}

/** Each member's own layer over the shared library: read, starred, hidden, the daily review and the digest. */
export function createMember(deps: MemberDeps) {
  const digest = createDigest(deps)
  // The week's counts are recounted once the library holds still after a change, not when someone opens the digest.
  const warmer = startWarming({ db: deps.db, tasks: [() => digest.warm(7)] })
  return {
    state: createMemberState(deps),
    review: createReview(deps),
    digest,
    close: () => warmer.stop(),
  }
}

export type Member = ReturnType<typeof createMember>
export { digestMarkdown } from './digest-markdown.ts'
export { dayOf, startOfDay } from './days.ts'
export { nextInterval } from './review.ts'
