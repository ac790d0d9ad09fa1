/**
 * The store: the library's SQLite database (better-sqlite3 and drizzle; neither leaves this folder).
 * Every name the rest of src-main may call, each exported once from the module that defines it. Which
 * folder may import which of them is its face in ./faces.json (app opens and closes the database; library,
 * search, pipeline, auth, member, ... each their own), and lint (eslint.config.js) holds each to its
 * own. `Db` is opaque outside the store.
 */
export {
  checkpointOffThread, closeDatabase, databaseFile, dataStamp, type Db, inTransaction, isOpen, libraryStamp, MIGRATIONS_DIR, openDatabase, type OpenDatabaseOptions,
  readTransaction, transaction, transactionIfFree,
} from './db.ts'
export { noticeCommits } from './remembered.ts'
export {
  type ApiTokenRow, countAdmins, countUsers, deleteUser, findApiTokenByHash, findApiTokenById, findInviteByHash, findInviteById,
  findUserByEmail, findUserById, insertApiToken, insertInvite, insertUser, type InviteRow, listApiTokens, listInvites, listUsers,
  markApiTokenUsed, markInvite, revokeApiToken, updateUser, type UserRow,
} from './queries/accounts.ts'
export { getSetting, putSetting, readAiSettings, type StoredAiSettings, writeAiSettings } from './queries/settings.ts'
export {
  bookmarkById, bookmarkByPostId, bookmarkExists, type BookmarkRecord, bookmarksByIds, type BookmarkWithRaw, countBookmarks, deleteBookmarks,
  existingBookmarkIds, iterateBookmarks, newestInCategory, newestUncategorized, orderedBookmarkIds, pageBookmarkIds, postIdsByIds,
  threadRecordsMatching,
} from './queries/bookmarks.ts'
export { type BookmarkFilter, type PostHas, searchQueuedMatching, searchTextMatchIds } from './queries/bookmark-filter.ts'
export {
  adoptSoleOwnerHandle, allMergedPostIds, allPostIds, beginWrite, bookmarkIdByPostId, type BookmarkValues, foldBookmarkInto,
  insertBookmarkRow, insertMergedPost, maxBookmarkId, type MergedPostRecord, mergedPostsFor, optimize, queueNewPostsForSearch, setEngagement,
  setImportedAt, updateBookmark, type WriteTransaction,
} from './queries/bookmark-writes.ts'
export {
  answersOn, bookmarkIdRange, deleteNote, dueForReview, foldMemberState, memberStateVersion, noteFor, type NoteRecord, notesForBookmarks,
  putNote, putReview, putStates, reviewDayList, reviewScheduleOf, starredUnreviewed, STATE_FLAGS, type StateFilter, type StateFlags, stateIds,
  stateOf, statesFor, unreviewedFrom, userIdByEmail,
} from './queries/member-state.ts'
export {
  analyzedBetween, analyzedPerCategory, bookmarkCount, digestPostRows, householdStateVersion, mostReadCategories, mostStarredBetween,
  savedBetween, savedByOthersIn, savedPerCategory, type TimeWindow, topSavedIn,
} from './queries/digest.ts'
export {
  assignCategory, assignmentsOf, categoriesForBookmarks, categoryById, categoryBySlug, categoryIdsBySlugs, type CategoryRecord,
  countCategories, countCategorized, deleteCategory, insertCategory, listCategories, lowConfidenceAssignments, mergeCategoryInto,
  nextCategoryPosition, rejectionsOf, topCategories, unassignCategory, updateCategory,
} from './queries/categories.ts'
export {
  countBookmarksAll, countByMonth, countBySource, insertImportHistory, lastImportAt, listImportHistory, topAuthors,
} from './queries/library-stats.ts'
export { bookmarkIdsInLanguage, languageCounts, postsWithUncheckedLanguage, setCheckedLanguages } from './queries/language.ts'
export {
  countMedia, fillMediaAnalysis, insertMediaRow, type MediaAnalysis, mediaAnalysisFor, mediaCountsByType, mediaForBookmarks, type MediaRecord,
  replaceMedia,
} from './queries/media.ts'
export {
  countQueuedForKeys, dequeueForKeys, insertPostKeys, movePostKeys, type PostKeyKind, postsQuoting, postsSharingKeys, queuedForKeys,
  queueForKeys, queueNewPostsForKeys, replaceMeaningPairs, textsByIds,
} from './queries/post-keys.ts'
export {
  bookmarkIdsByPostIds, clearThreadPlace, selfReplies, setThreadPlace, storedThreadPlaces, threadParts, threadPlacesOf,
} from './queries/threads.ts'
export {
  allTagNames, analysedBookmarkIds, categoriesForPipeline, categoryLocks, countAnalyzed, countJobProblemPosts, ensureTag, knowledgeFor,
  knowledgeForBookmarks, type KnowledgeRecord, loadPipelinePosts, type MediaAnalysisWrite, mediaCacheEntry, type PipelineCategory,
  type PipelineMedia, type PipelinePost, postsAnalysedWithoutVector, relatedIdsFor, relatedKeysPage, replacePipelineCategories,
  seedCategoriesIfEmpty, selectDueBookmarkIds, setRelatedIds, tagBookmark, tagsForBookmarks, upsertKnowledge, userCategoryExamples,
  writeKnowledge, writeMediaAnalysis,
} from './queries/knowledge.ts'
export {
  addJobItems, addJobUsage, countJobItems, countJobItemsAtLeast, failedBookmarkIds, insertJob, insertJobError, insertJobErrors, insertJobRow, jobById, jobErrors,
  type JobErrorWrite, jobItemsBelow, type JobRecord, latestJob, markJobItems, setJobStatus, unfinishedJobs, updateJobProgress,
} from './queries/jobs.ts'
export { countEmbeddings, decodeInto, eachEmbedding, embeddingIds, embeddingsFor, writeEmbedding } from './queries/embeddings.ts'
export {
  categoryForSearch, FILTER_WALK, hasSearchFilter, type PostTest, searchBacklog, type SearchDocument, searchDocuments, searchMediaKinds, searchEmbeddingsChanged,
  searchEmbeddingsRemoved, searchEmbeddingVersion, type SearchFilter, searchFilteredIds,
  searchFilterIds, searchFtsQueueSize, searchHasMatch, searchHitCategories, searchHitMedia, searchHitRows, searchIdsWithoutEmbedding,
  searchIndexInBackground, searchIndexQueued, searchIndexSegments, searchMergeInBackground, searchLexical, searchMatchCount, searchMatchingAmong, searchNewest, searchPostCount,
  searchQueueSize, searchQuick, searchReindexRows, searchVocabulary,
} from './queries/search.ts'
export { searchIndexStamp } from './queries/search-index.ts'
export {
  searchEmbeddingInputs, searchEmbeddingsFor, searchExistingIds, searchQueuePeek, searchQueueRemove, type SearchStoredEmbedding,
} from './queries/vector-queue.ts'
export { openWordTokenizer, readWordIndex, type WordIndexReader } from './queries/word-memory.ts'
