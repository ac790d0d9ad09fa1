/**
 * The store as src-main/member/ sees it: one member's state (read, starred, hidden), reviews and the digest.
 * Every function takes the opaque `Db` that openDatabase returns; nothing else of the store is member's to call.
 */
export { libraryStamp, transaction, type Db } from '../db.ts'
export { bookmarkExists } from '../queries/bookmarks.ts'
export { categoriesForBookmarks, listCategories } from '../queries/categories.ts'
export {
  analyzedBetween, analyzedPerCategory, bookmarkCount, digestPostRows, householdStateVersion, mostReadCategories, mostStarredBetween,
  savedBetween, savedByOthersIn, savedPerCategory, topSavedIn, type TimeWindow,
} from '../queries/digest.ts'
export { memberStateVersion, putStates, stateOf, statesFor } from '../queries/member-state.ts'
export {
  answersOn, bookmarkIdRange, dueForReview, putReview, reviewDayList, reviewScheduleOf, starredUnreviewed, unreviewedFrom,
} from '../queries/review.ts'
