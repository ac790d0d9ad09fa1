/**
 * The store as src-main/pipeline/ sees it: jobs and their items, what the pipeline reads of a post, and the
 * knowledge, tags, categories and vectors it writes. Every function takes the opaque `Db` that openDatabase
 * returns; nothing else of the store is pipeline's to call.
 */
export { inTransaction, transaction, transactionIfFree, type Db } from '../db.ts'
export { knowledgeForBookmarks, type KnowledgeRecord } from '../queries/bookmark-knowledge.ts'
export { countEmbeddings, embeddingPage, embeddingsFor, writeEmbedding } from '../queries/embeddings.ts'
export {
  addJobUsage, countJobItems, countJobItemsAtLeast, failedBookmarkIds, insertJob, insertJobError, insertJobErrors, jobById, jobErrors, jobItemsBelow,
  latestJob, markJobItems, setJobStatus, unfinishedJobs, updateJobProgress, type JobErrorWrite,
  type JobRecord,
} from '../queries/jobs.ts'
export {
  allTagNames, analysedBookmarkIds, categoriesForPipeline, categoryLocks, countJobProblemPosts, loadPipelinePosts,
  postsAnalysedWithoutVector, relatedKeysPage, replacePipelineCategories, seedCategoriesIfEmpty, selectDueBookmarkIds, setRelatedIds,
  userCategoryExamples, writeKnowledge, writeMediaAnalysis, type MediaAnalysisWrite, type PipelineCategory, type PipelineMedia,
  type PipelinePost,
} from '../queries/knowledge.ts'
export { replaceMeaningPairs } from '../queries/post-keys.ts'
export { tagsForBookmarks } from '../queries/tags.ts'
export { threadParts, threadPlacesOf } from '../queries/threads.ts'
