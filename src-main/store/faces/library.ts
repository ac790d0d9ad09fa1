/**
 * The store as src-main/library/ sees it: posts, their categories, notes, media and knowledge as the list,
 * import, export, stats and mind map read and write them. Every function takes the opaque `Db` that openDatabase
 * returns; nothing else of the store is library's to call.
 */
export { inTransaction, isOpen, libraryStamp, transaction, transactionIfFree, type Db } from '../db.ts'
export type { BookmarkFilter, PostHas } from '../queries/bookmark-filter.ts'
export {
  countAnalyzed, knowledgeFor, knowledgeForBookmarks, relatedIdsFor, upsertKnowledge, type KnowledgeRecord,
} from '../queries/bookmark-knowledge.ts'
export {
  adoptSoleOwnerHandle, allPostIds, beginWrite, bookmarkByPostId, bookmarkIdByPostId, insertBookmarkRow, maxBookmarkId, optimize,
  queueNewPostsForSearch, setImportedAt, updateBookmark, type BookmarkValues, type WriteTransaction,
} from '../queries/bookmark-writes.ts'
export {
  bookmarkById, bookmarksByIds, countBookmarks, deleteBookmarks, existingBookmarkIds, iterateBookmarks, newestInCategory,
  newestUncategorized, orderedBookmarkIds, pageBookmarkIds, postIdsByIds, type BookmarkRecord, type BookmarkWithRaw,
} from '../queries/bookmarks.ts'
export {
  assignCategory, assignmentsOf, categoriesForBookmarks, categoryById, categoryBySlug, categoryIdsBySlugs, countCategories,
  countCategorized, deleteCategory, insertCategory, listCategories, lowConfidenceAssignments, mergeCategoryInto, nextCategoryPosition,
  rejectionsOf, topCategories, unassignCategory, updateCategory, type CategoryRecord,
} from '../queries/categories.ts'
export { insertImportHistory, lastImportAt, listImportHistory } from '../queries/import-history.ts'
export {
  bookmarkIdsInLanguage, languageCounts, postsWithUncheckedLanguage, setCheckedLanguages,
} from '../queries/language.ts'
export { countBookmarksAll, countByMonth, countBySource, topAuthors } from '../queries/library-stats.ts'
export {
  countMedia, fillMediaAnalysis, insertMediaRow, mediaAnalysisFor, mediaCountsByType, mediaForBookmarks, replaceMedia, type MediaAnalysis,
  type MediaRecord,
} from '../queries/media.ts'
export {
  foldMemberState, putStates, STATE_FLAGS, stateIds, statesFor, type StateFilter, type StateFlags,
} from '../queries/member-state.ts'
export {
  allMergedPostIds, foldBookmarkInto, insertMergedPost, mergedPostsFor, setEngagement, type MergedPostRecord,
} from '../queries/merged-posts.ts'
export { deleteNote, noteFor, notesForBookmarks, putNote, userIdByEmail, type NoteRecord } from '../queries/notes.ts'
export {
  countQueuedForKeys, dequeueForKeys, insertPostKeys, movePostKeys, postsQuoting, postsSharingKeys, queuedForKeys, queueForKeys,
  queueNewPostsForKeys, type PostKeyKind,
} from '../queries/post-keys.ts'
export { getSetting, putSetting } from '../queries/settings.ts'
export { ensureTag, tagBookmark, tagsForBookmarks } from '../queries/tags.ts'
export { searchTextMatchIds } from '../queries/text-match.ts'
export { threadRecordsMatching } from '../queries/threads.ts'
