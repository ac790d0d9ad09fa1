/**
 * The store's face per capability: which names of store/index.ts each folder of src-main may import.
 * index.ts exports every name once; lint (eslint.config.js reads this list) holds each folder to its own,
 * and a folder not listed here may not import the store at all. Every function takes the opaque `Db`
 * that openDatabase returns. A name a capability needs is exported from index.ts and added to its face.
 * Plain data on purpose: the lint config loads it without loading the store.
 */
export const STORE_FACES = {
  /** src-main/app/ (the composition root): opens and closes the database. */
  app: ['closeDatabase', 'Db', 'MIGRATIONS_DIR', 'openDatabase', 'OpenDatabaseOptions'],
  /** src-main/auth/: accounts, invites, API tokens and the signing key (settings). */
  auth: [
    'ApiTokenRow', 'countAdmins', 'countUsers', 'Db', 'deleteUser', 'findApiTokenByHash', 'findApiTokenById', 'findInviteByHash',
    'findInviteById', 'findUserByEmail', 'findUserById', 'getSetting', 'insertApiToken', 'insertInvite', 'insertUser', 'InviteRow',
    'listApiTokens', 'listInvites', 'listUsers', 'markApiTokenUsed', 'markInvite', 'putSetting', 'revokeApiToken', 'transaction',
    'updateUser', 'UserRow',
  ],
  /** src-main/duplicates/: the sentence vectors and texts that find near-identical posts. */
  duplicates: ['Db', 'embeddingsFor', 'textsByIds'],
  /** src-main/lan/: the LAN sharing switch, kept as a setting. */
  lan: ['Db', 'getSetting', 'putSetting'],
  /**
   * src-main/library/: posts, their categories, notes, media and knowledge as the list, import, export, stats
   * and mind map read and write them.
   */
  library: [
    'adoptSoleOwnerHandle', 'allMergedPostIds', 'allPostIds', 'assignCategory', 'assignmentsOf', 'beginWrite', 'bookmarkById',
    'bookmarkByPostId', 'BookmarkFilter', 'bookmarkIdByPostId', 'bookmarkIdsInLanguage', 'BookmarkRecord', 'bookmarksByIds',
    'BookmarkValues', 'BookmarkWithRaw', 'categoriesForBookmarks', 'categoryById', 'categoryBySlug', 'categoryIdsBySlugs',
    'CategoryRecord', 'countAnalyzed', 'countBookmarks', 'countBookmarksAll', 'countByMonth', 'countBySource', 'countCategories',
    'countCategorized', 'countMedia', 'countQueuedForKeys', 'Db', 'deleteBookmarks', 'deleteCategory', 'deleteNote', 'dequeueForKeys',
    'ensureTag', 'existingBookmarkIds', 'fillMediaAnalysis', 'foldBookmarkInto', 'foldMemberState', 'getSetting', 'insertBookmarkRow',
    'insertCategory', 'insertImportHistory', 'insertMediaRow', 'insertMergedPost', 'insertPostKeys', 'inTransaction', 'isOpen',
    'iterateBookmarks', 'knowledgeFor', 'knowledgeForBookmarks', 'KnowledgeRecord', 'languageCounts', 'lastImportAt', 'libraryStamp',
    'listCategories', 'listImportHistory', 'lowConfidenceAssignments', 'maxBookmarkId', 'MediaAnalysis', 'mediaAnalysisFor',
    'mediaCountsByType', 'mediaForBookmarks', 'MediaRecord', 'mergeCategoryInto', 'MergedPostRecord', 'mergedPostsFor',
    'movePostKeys', 'newestInCategory', 'newestUncategorized', 'nextCategoryPosition', 'noteFor', 'NoteRecord', 'notesForBookmarks',
    'optimize', 'orderedBookmarkIds', 'pageBookmarkIds', 'PostHas', 'postIdsByIds', 'PostKeyKind', 'postsQuoting', 'postsSharingKeys',
    'postsWithUncheckedLanguage', 'putNote', 'putSetting', 'putStates', 'queuedForKeys', 'queueForKeys', 'queueNewPostsForKeys',
    'queueNewPostsForSearch', 'rejectionsOf', 'relatedIdsFor', 'replaceMedia', 'searchTextMatchIds', 'setCheckedLanguages',
    'setEngagement', 'setImportedAt', 'STATE_FLAGS', 'StateFilter', 'StateFlags', 'stateIds', 'statesFor', 'tagBookmark',
    'tagsForBookmarks', 'threadRecordsMatching', 'topAuthors', 'topCategories', 'transaction', 'transactionIfFree',
    'unassignCategory', 'updateBookmark', 'updateCategory', 'upsertKnowledge', 'userIdByEmail', 'WriteTransaction',
  ],
  /** src-main/media/: where a media item is cached. */
  media: ['Db', 'mediaCacheEntry'],
  /** src-main/member/: one member's state (read, starred, hidden), reviews and the digest. */
  member: [
    'analyzedBetween', 'analyzedPerCategory', 'answersOn', 'bookmarkCount', 'bookmarkExists', 'bookmarkIdRange',
    'categoriesForBookmarks', 'Db', 'digestPostRows', 'dueForReview', 'householdStateVersion', 'libraryStamp', 'listCategories',
    'memberStateVersion', 'mostReadCategories', 'mostStarredBetween', 'putReview', 'putStates', 'reviewDayList', 'reviewScheduleOf',
    'savedBetween', 'savedByOthersIn', 'savedPerCategory', 'starredUnreviewed', 'stateOf', 'statesFor', 'TimeWindow', 'topSavedIn',
    'transaction', 'unreviewedFrom',
  ],
  /**
   * src-main/pipeline/: jobs and their items, what the pipeline reads of a post, and the knowledge, tags,
   * categories and vectors it writes.
   */
  pipeline: [
    'addJobUsage', 'allTagNames', 'analysedBookmarkIds', 'categoriesForPipeline', 'categoryLocks', 'countEmbeddings', 'countJobItems',
    'countJobItemsAtLeast', 'countJobProblemPosts', 'Db', 'embeddingPage', 'embeddingsFor', 'failedBookmarkIds', 'insertJob',
    'insertJobError', 'insertJobErrors', 'inTransaction', 'jobById', 'jobErrors', 'JobErrorWrite', 'jobItemsBelow', 'JobRecord',
    'knowledgeForBookmarks', 'KnowledgeRecord', 'latestJob', 'loadPipelinePosts', 'markJobItems', 'MediaAnalysisWrite',
    'PipelineCategory', 'PipelineMedia', 'PipelinePost', 'postsAnalysedWithoutVector', 'relatedKeysPage', 'replaceMeaningPairs',
    'replacePipelineCategories', 'seedCategoriesIfEmpty', 'selectDueBookmarkIds', 'setJobStatus', 'setRelatedIds', 'tagsForBookmarks',
    'threadParts', 'threadPlacesOf', 'transaction', 'transactionIfFree', 'unfinishedJobs', 'updateJobProgress',
    'userCategoryExamples', 'writeEmbedding', 'writeKnowledge', 'writeMediaAnalysis',
  ],
  /** src-main/search/: the full-text index and its queue, the vector queue and vectors, filters and result rows. */
  search: [
    'categoryForSearch', 'dataStamp', 'Db', 'hasSearchFilter', 'inTransaction', 'isOpen', 'readTransaction', 'searchBacklog',
    'SearchDocument', 'searchDocuments', 'searchEmbeddingInputs', 'searchEmbeddingsChanged', 'searchEmbeddingsFor',
    'searchEmbeddingsRemoved', 'searchEmbeddingVersion', 'searchExistingIds', 'SearchFilter', 'searchFilteredIds', 'searchFilterIds',
    'searchFtsQueueSize', 'searchHasMatch', 'searchHitCategories', 'searchHitMedia', 'searchHitRows', 'searchIdsWithoutEmbedding',
    'searchIndexInBackground', 'searchIndexQueued', 'searchLexical', 'searchMatchCount', 'searchMatchingAmong', 'searchNewest',
    'searchPostCount', 'searchQueuedMatching', 'searchQueuePeek', 'searchQueueRemove', 'searchQueueSize', 'searchQuick',
    'searchReindexRows', 'SearchStoredEmbedding', 'searchVocabulary', 'transaction', 'writeEmbedding',
  ],
  /** src-main/settings/: the AI and pipeline settings (secrets live in the credential store). */
  settings: ['Db', 'readAiSettings', 'StoredAiSettings', 'writeAiSettings'],
  /** src-main/threads/: posts' places in their threads. */
  threads: [
    'bookmarkIdsByPostIds', 'BookmarkRecord', 'bookmarksByIds', 'clearThreadPlace', 'Db', 'selfReplies', 'setThreadPlace',
    'storedThreadPlaces', 'threadParts',
  ],
} as const satisfies Record<string, readonly string[]>
