import { AppError } from '../../src-shared/errors.ts'
import type { Bookmark, MemberState } from '../../src-shared/schemas/bookmarks.ts'
import type { BulkStateBody, StateBody } from '../../src-shared/schemas/member.ts'
import { bookmarkExists, putStates, stateOf, statesFor, transaction, type Db } from '../store/index.ts'

const CLEAR: MemberState = { read: false, starred: false, hidden: false }

const changeOf = (b: StateBody): StateBody => ({ read: b.read, starred: b.starred, hidden: b.hidden })

/** A member's own flags on posts: writes are one small transaction; reads never show anyone else's. */
export function createMemberState({ db, clock }: { db: Db; clock: () => number }) {
  return {
    put(userId: number, id: number, body: StateBody): { id: number; state: MemberState } {
      return transaction(db, () => {
        if (!bookmarkExists(db, id)) throw new AppError('NOT_FOUND', `No bookmark with id ${id}.`)
        putStates(db, userId, [id], changeOf(body), clock())
        return { id, state: stateOf(db, userId, id) }
      })
    },

    /** Ids that do not exist are ignored and not counted. */
    bulk(userId: number, body: BulkStateBody): { affected: number } {
      return { affected: transaction(db, () => putStates(db, userId, [...new Set(body.ids)], changeOf(body), clock())) }
    },

    /** The same items with the member's own state on each. */
    attach<T extends Bookmark>(userId: number, items: T[]): T[] {
      const states = statesFor(db, userId, items.map((b) => b.id))
      return items.map((b) => ({ ...b, state: states.get(b.id) ?? { ...CLEAR } }))
    },
  }
}

export type MemberStates = ReturnType<typeof createMemberState>
