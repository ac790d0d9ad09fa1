import { sql, type Table } from 'drizzle-orm'
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

/** Times are stored as epoch milliseconds and sent as ISO 8601 UTC. */
const ms = (name: string) => integer(name, { mode: 'number' })
const createdAt = () => ms('created_at').notNull().default(sql`(unixepoch('subsec') * 1000)`)

export const users = sqliteTable('users', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  email: text('email').notNull(),
  name: text('name').notNull(),
  role: text('role', { enum: ['viewer', 'member', 'admin'] }).notNull(),
  passwordHash: text('password_hash').notNull(),
  createdAt: createdAt(),
  updatedAt: ms('updated_at'),
}, (t) => [uniqueIndex('users_email_idx').on(t.email)])

export const invites = sqliteTable('invites', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  codeHash: text('code_hash').notNull(),
  hint: text('hint').notNull(),
  role: text('role', { enum: ['viewer', 'member', 'admin'] }).notNull(),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  expiresAt: ms('expires_at').notNull(),
  usedAt: ms('used_at'),
  usedBy: integer('used_by').references(() => users.id, { onDelete: 'set null' }),
  revokedAt: ms('revoked_at'),
}, (t) => [uniqueIndex('invites_code_hash_idx').on(t.codeHash)])

/** Personal API tokens: only the SHA-256 of the secret is kept; revoked rows stay so a refusal can say why. */
export const apiTokens = sqliteTable('api_tokens', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  tokenHash: text('token_hash').notNull(),
  hint: text('hint').notNull(),
  readOnly: integer('read_only', { mode: 'boolean' }).notNull().default(false),
  createdAt: createdAt(),
  lastUsedAt: ms('last_used_at'),
  revokedAt: ms('revoked_at'),
}, (t) => [uniqueIndex('api_tokens_token_hash_idx').on(t.tokenHash), index('api_tokens_user_idx').on(t.userId)])

/** Key/value settings that are not secrets (secrets live in the credential store). */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value', { mode: 'json' }).notNull(),
  updatedAt: createdAt(),
})

/** Who wrote a post, when, and what it says: on bookmarks, and kept on merged_posts for a post folded into another. */
const postColumns = () => ({
  postId: text('post_id').notNull(),
  text: text('text').notNull(),
  authorHandle: text('author_handle').notNull(),
  authorName: text('author_name').notNull(),
  postCreatedAt: ms('post_created_at').notNull(),
})

export const bookmarks = sqliteTable('bookmarks', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  ...postColumns(),
  importedAt: createdAt(),
  updatedAt: ms('updated_at'),
  source: text('source').notNull(),
  /** ISO 639-1 (X's own code, normalised, or detected on import), or null when the text has no clear language. */
  lang: text('lang'),
  /** 1 once the language was decided (X's or the detector's); null: a post from before 0009 not looked at yet. */
  langChecked: integer('lang_checked'),
  conversationId: text('conversation_id'),
  inReplyToPostId: text('in_reply_to_post_id'),
  /** JSON arrays/objects kept as text: PostUrl[], Engagement, QuotedPost | null. */
  urls: text('urls', { mode: 'json' }).notNull().default(sql`'[]'`),
  engagement: text('engagement', { mode: 'json' }).notNull().default(sql`'{}'`),
  quoted: text('quoted', { mode: 'json' }),
  /** likes + reposts + replies + quotes + bookmarks: the `popular` sort key. */
  engagementScore: integer('engagement_score').notNull().default(0),
  mediaCount: integer('media_count').notNull().default(0),
  rawJson: text('raw_json').notNull(),
  /** Hash of what the pipeline reads (text, urls, media); a change makes the post due for analysis. */
  contentHash: text('content_hash').notNull(),
}, (t) => [
  uniqueIndex('bookmarks_post_id_idx').on(t.postId),
  index('bookmarks_post_created_at_idx').on(t.postCreatedAt), // sort=newest|oldest
  index('bookmarks_engagement_created_idx').on(t.engagementScore, t.postCreatedAt), // sort=popular, ties by date
  index('bookmarks_source_created_idx').on(t.source, t.postCreatedAt), // source filter + sort
  index('bookmarks_lang_created_idx').on(t.lang, t.postCreatedAt), // lang filter + sort, language counts
  index('bookmarks_created_at_idx').on(t.importedAt), // the digest's window of saved posts (0011)
  // the background language check's work list: posts from before 0009 whose language was never decided
  index('bookmarks_lang_unchecked_idx').on(t.id).where(sql`lang IS NULL AND lang_checked IS NULL`),
  // thread assembly: replies only, covering what it reads of the reply
  index('bookmarks_reply_to_idx').on(t.inReplyToPostId, t.authorHandle, t.postCreatedAt, t.postId).where(sql`in_reply_to_post_id IS NOT NULL`),
  // search's filter checks by id (dates, media, language; search/candidates.ts): a post's row is ~2.5 KB, so
  // checking 1,000 neighbours or walking 2,000 word matches read as many table pages; this index is ~3 MB
  index('bookmarks_filter_idx').on(t.id, t.postCreatedAt, t.mediaCount, t.lang),
  // The author filter and top authors use search_bookmarks_author_lower_idx (migration 0003): handles
  // are case-insensitive, and a second index on the raw handle only slowed every insert (0007).
])

/**
 * A post's place in its thread (drizzle/0012_threads.sql); posts outside a thread have no row. No foreign
 * key (its check was most of the writes' cost): a trigger, not in this file, removes a deleted post's row.
 */
export const threadParts = sqliteTable('thread_parts', {
  bookmarkId: integer('bookmark_id').primaryKey(),
  /** The thread's first part (the earliest saved one). */
  rootId: integer('root_id').notNull(),
  /** Place in reading order, from 1. */
  position: integer('position').notNull(),
  size: integer('size').notNull(),
}, (t) => [index('thread_parts_root_idx').on(t.rootId, t.position)])

export const media = sqliteTable('media', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  bookmarkId: integer('bookmark_id').notNull().references(() => bookmarks.id, { onDelete: 'cascade' }),
  position: integer('position').notNull(),
  type: text('type', { enum: ['photo', 'video', 'animated_gif'] }).notNull(),
  url: text('url').notNull(),
  thumbnailUrl: text('thumbnail_url').notNull(),
  videoUrl: text('video_url'),
  altText: text('alt_text'),
  width: integer('width'),
  height: integer('height'),
  durationMs: integer('duration_ms'),
  /** Local cache (relative to the data dir's media folder), filled by vision_analysis. */
  cachePath: text('cache_path'),
  thumbPath: text('thumb_path'),
  ocrText: text('ocr_text'),
  visualTags: text('visual_tags', { mode: 'json' }),
  description: text('description'),
  fetchedAt: ms('fetched_at'),
  fetchError: text('fetch_error'),
}, (t) => [index('media_bookmark_idx').on(t.bookmarkId, t.position)])

export const categories = sqliteTable('categories', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  slug: text('slug').notNull(),
  color: text('color').notNull(),
  description: text('description').notNull().default(''),
  position: integer('position').notNull().default(0),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('categories_slug_idx').on(t.slug)])

export const bookmarkCategories = sqliteTable('bookmark_categories', {
  bookmarkId: integer('bookmark_id').notNull().references(() => bookmarks.id, { onDelete: 'cascade' }),
  categoryId: integer('category_id').notNull().references(() => categories.id, { onDelete: 'cascade' }),
  confidence: real('confidence').notNull().default(1),
  /** 'user' assignments are kept by the pipeline and are training examples for the local classifier. */
  assignedBy: text('assigned_by', { enum: ['user', 'pipeline'] }).notNull(),
  createdAt: createdAt(),
}, (t) => [
  primaryKey({ columns: [t.bookmarkId, t.categoryId] }),
  index('bookmark_categories_category_idx').on(t.categoryId, t.bookmarkId), // category filter, counts
])

/** User-removed pipeline categories, so a re-run does not put them back. */
export const categoryRejections = sqliteTable('category_rejections', {
  bookmarkId: integer('bookmark_id').notNull().references(() => bookmarks.id, { onDelete: 'cascade' }),
  categoryId: integer('category_id').notNull().references(() => categories.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.bookmarkId, t.categoryId] })])

export const notes = sqliteTable('notes', {
  bookmarkId: integer('bookmark_id').notNull().references(() => bookmarks.id, { onDelete: 'cascade' }),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  text: text('text').notNull(),
  updatedAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.bookmarkId, t.userId] })])

/**
 * A member's own state on a post (migration 0011); no row = unread, not starred, not hidden, never reviewed.
 * WITHOUT ROWID in SQL. `reviewDue` is a local day number (days since 1970-01-01); null with `reviewedAt`
 * set means the member is done with the post.
 */
export const memberState = sqliteTable('member_state', {
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  bookmarkId: integer('bookmark_id').notNull().references(() => bookmarks.id, { onDelete: 'cascade' }),
  read: integer('read').notNull().default(0),
  starred: integer('starred').notNull().default(0),
  hidden: integer('hidden').notNull().default(0),
  starredAt: ms('starred_at'),
  reviewDue: integer('review_due'),
  reviewInterval: integer('review_interval').notNull().default(0),
  reviewedAt: ms('reviewed_at'),
  updatedAt: ms('updated_at').notNull(),
}, (t) => [
  primaryKey({ columns: [t.userId, t.bookmarkId] }),
  index('member_state_bookmark_idx').on(t.bookmarkId),
  index('member_state_read_idx').on(t.userId, t.bookmarkId).where(sql`${t.read} = 1`),
  index('member_state_starred_idx').on(t.userId, t.bookmarkId).where(sql`${t.starred} = 1`),
  index('member_state_hidden_idx').on(t.userId, t.bookmarkId).where(sql`${t.hidden} = 1`),
  index('member_state_starred_at_idx').on(t.starredAt).where(sql`${t.starred} = 1`),
  index('member_state_read_recent_idx').on(t.userId, t.updatedAt).where(sql`${t.read} = 1`), // the digest's "categories you read most"
  index('member_state_due_idx').on(t.userId, t.reviewDue).where(sql`${t.reviewDue} IS NOT NULL`),
])

/** The local days on which a member answered reviews, and how many (the streak). WITHOUT ROWID in SQL. */
export const reviewDays = sqliteTable('review_days', {
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  day: integer('day').notNull(),
  answers: integer('answers').notNull().default(0),
}, (t) => [primaryKey({ columns: [t.userId, t.day] })])

/** The Knowledge object, one row per analysed post. */
export const knowledge = sqliteTable('knowledge', {
  bookmarkId: integer('bookmark_id').primaryKey().references(() => bookmarks.id, { onDelete: 'cascade' }),
  summary: text('summary').notNull(),
  action: text('action').notNull(),
  sentiment: text('sentiment').notNull(),
  confidence: real('confidence').notNull(),
  relatedIds: text('related_ids', { mode: 'json' }).notNull().default(sql`'[]'`),
  ossReport: text('oss_report', { mode: 'json' }),
  /** Stage 1 output: hashtags, mentions, domains, tools, people, places, orgs, repos, kind. */
  entities: text('entities', { mode: 'json' }),
  kind: text('kind'),
  provider: text('provider'),
  /** bookmarks.content_hash at analysis time. */
  contentHash: text('content_hash'),
  analyzedAt: ms('analyzed_at').notNull(),
}, (t) => [index('knowledge_analyzed_at_idx').on(t.analyzedAt)]) // the digest's window of analysed posts (0011)

/** One shared, normalised tag vocabulary. */
export const tags = sqliteTable('tags', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
}, (t) => [uniqueIndex('tags_name_idx').on(t.name)])

export const bookmarkTags = sqliteTable('bookmark_tags', {
  bookmarkId: integer('bookmark_id').notNull().references(() => bookmarks.id, { onDelete: 'cascade' }),
  tagId: integer('tag_id').notNull().references(() => tags.id, { onDelete: 'cascade' }),
}, (t) => [
  primaryKey({ columns: [t.bookmarkId, t.tagId] }),
  index('bookmark_tags_tag_idx').on(t.tagId, t.bookmarkId), // tag filter, mindmap tag edges
])

/** Sentence vectors per post and model (float32 or int8 little-endian, per `encoding`). */
export const embeddings = sqliteTable('embeddings', {
  bookmarkId: integer('bookmark_id').notNull().references(() => bookmarks.id, { onDelete: 'cascade' }),
  model: text('model').notNull(),
  dim: integer('dim').notNull(),
  encoding: text('encoding', { enum: ['f32', 'i8'] }).notNull(),
  vector: blob('vector', { mode: 'buffer' }).notNull(),
  contentHash: text('content_hash').notNull(),
  /** embedding_version's counter when the vector was last written (0 before migration 0014): indexes read past it. */
  seq: integer('seq').notNull().default(0),
}, (t) => [
  primaryKey({ columns: [t.bookmarkId, t.model] }),
  index('embeddings_model_seq_idx').on(t.model, t.seq),
])

/** One row (id 1): counts writes and removals of embeddings, so a vector index reads only what changed. */
export const embeddingVersion = sqliteTable('embedding_version', {
  id: integer('id').primaryKey(),
  n: integer('n').notNull(),
})

/** Vectors removed (a trigger of migration 0014 writes these), at the embedding_version counter of their removal. */
export const embeddingRemovals = sqliteTable('embedding_removals', {
  seq: integer('seq').primaryKey(),
  bookmarkId: integer('bookmark_id').notNull(),
  model: text('model').notNull(),
}, (t) => [index('embedding_removals_model_seq_idx').on(t.model, t.seq)])

export const jobs = sqliteTable('jobs', {
  id: text('id').primaryKey(),
  /** running | paused | cancelling | cancelled | completed | failed */
  status: text('status').notNull(),
  force: integer('force', { mode: 'boolean' }).notNull().default(false),
  bookmarkIds: text('bookmark_ids', { mode: 'json' }),
  stage: text('stage').notNull(),
  current: integer('current').notNull().default(0),
  total: integer('total').notNull().default(0),
  processed: integer('processed').notNull().default(0),
  errors: integer('errors').notNull().default(0),
  provider: text('provider'),
  tokensIn: integer('tokens_in').notNull().default(0),
  tokensOut: integer('tokens_out').notNull().default(0),
  costUsd: real('cost_usd').notNull().default(0),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  updatedAt: ms('updated_at'),
  finishedAt: ms('finished_at'),
  error: text('error'),
}, (t) => [index('jobs_status_idx').on(t.status, t.createdAt)])

/** The posts a job covers and how far each got; what makes resume after a restart possible. */
export const jobItems = sqliteTable('job_items', {
  jobId: text('job_id').notNull().references(() => jobs.id, { onDelete: 'cascade' }),
  bookmarkId: integer('bookmark_id').notNull().references(() => bookmarks.id, { onDelete: 'cascade' }),
  /** Index of the last finished stage (0 = none, 4 = categorization done). */
  doneStage: integer('done_stage').notNull().default(0),
}, (t) => [
  primaryKey({ columns: [t.jobId, t.bookmarkId] }),
  index('job_items_stage_idx').on(t.jobId, t.doneStage),
])

export const jobErrors = sqliteTable('job_errors', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  jobId: text('job_id').notNull().references(() => jobs.id, { onDelete: 'cascade' }),
  bookmarkId: integer('bookmark_id').references(() => bookmarks.id, { onDelete: 'cascade' }),
  stage: text('stage').notNull(),
  message: text('message').notNull(),
  /** Set when the item fell back to the local provider after a remote failure. */
  fellBack: integer('fell_back', { mode: 'boolean' }).notNull().default(false),
  createdAt: createdAt(),
}, (t) => [index('job_errors_job_idx').on(t.jobId)])

export const importHistory = sqliteTable('import_history', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  fileName: text('file_name').notNull(),
  format: text('format').notNull(),
  bytes: integer('bytes').notNull(),
  imported: integer('imported').notNull(),
  duplicates: integer('duplicates').notNull(),
  updated: integer('updated').notNull(),
  errors: integer('errors').notNull(),
  createdAt: createdAt(),
}, (t) => [index('import_history_created_idx').on(t.createdAt)])

/**
 * Duplicate keys (migration 0010): kind 'link' | 'quote' | 'text' from the post itself, 'meaning' from the
 * sentence vectors (a pair, keyed 'lowId:highId' on both posts). WITHOUT ROWID in SQL: the primary key is the table.
 */
export const postKeys = sqliteTable('post_keys', {
  kind: text('kind', { enum: ['link', 'quote', 'text', 'meaning'] }).notNull(),
  key: text('key').notNull(),
  bookmarkId: integer('bookmark_id').notNull().references(() => bookmarks.id, { onDelete: 'cascade' }),
}, (t) => [
  primaryKey({ columns: [t.kind, t.key, t.bookmarkId] }),
  index('post_keys_bookmark_idx').on(t.bookmarkId),
])

/** Posts of a library imported before keys existed, keyed in the background. */
export const postKeysQueue = sqliteTable('post_keys_queue', {
  bookmarkId: integer('bookmark_id').primaryKey().references(() => bookmarks.id, { onDelete: 'cascade' }),
})

/** A post folded into another by a merge, kept as it was on the post that stays. */
export const mergedPosts = sqliteTable('merged_posts', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  bookmarkId: integer('bookmark_id').notNull().references(() => bookmarks.id, { onDelete: 'cascade' }),
  ...postColumns(),
  importedAt: ms('imported_at').notNull(),
  source: text('source').notNull(),
  lang: text('lang'),
  urls: text('urls').notNull().default(sql`'[]'`),
  engagement: text('engagement').notNull().default(sql`'{}'`),
  quoted: text('quoted'),
  rawJson: text('raw_json').notNull(),
  mergedAt: ms('merged_at').notNull(),
  mergedBy: integer('merged_by').references(() => users.id, { onDelete: 'set null' }),
}, (t) => [
  uniqueIndex('merged_posts_post_id_idx').on(t.postId),
  index('merged_posts_bookmark_idx').on(t.bookmarkId),
])

/**
 * Rows as the store's prepared statements read them, derived from the drizzle schema so a column is
 * typed once. Drizzle parses JSON columns in its own queries; a raw statement hands them back as text.
 */
type AsText<Column> = Column extends { _: { notNull: true } } ? string : string | null
type Stored<T extends Table, Json extends keyof T & keyof T['$inferSelect']> =
  Omit<T['$inferSelect'], Json> & { [K in Json]: AsText<T[K]> }

export type BookmarkRow = Stored<typeof bookmarks, 'urls' | 'engagement' | 'quoted'>
export type MediaRow = Stored<typeof media, 'visualTags'>
export type KnowledgeRow = Stored<typeof knowledge, 'relatedIds' | 'ossReport' | 'entities'>
export type CategoryRow = typeof categories.$inferSelect
export type EmbeddingRow = typeof embeddings.$inferSelect
export type JobRow = typeof jobs.$inferSelect
export type JobErrorRow = typeof jobErrors.$inferSelect
export type ImportHistoryRow = typeof importHistory.$inferSelect
export type NoteRow = typeof notes.$inferSelect
export type ThreadPartRow = typeof threadParts.$inferSelect

/** A post's place in its thread, null outside one. */
export interface ThreadColumns {
  threadRootId: ThreadPartRow['rootId'] | null
  threadPosition: ThreadPartRow['position'] | null
  threadSize: ThreadPartRow['size'] | null
}
