import type { Table } from 'drizzle-orm'
import type * as schema from './schema.ts'

/**
 * Rows as the store's prepared statements read them, derived from the drizzle schema so a column is
 * typed once. Drizzle parses JSON columns in its own queries; a raw statement hands them back as text.
 */
type AsText<Column> = Column extends { _: { notNull: true } } ? string : string | null
type Stored<T extends Table, Json extends keyof T & keyof T['$inferSelect']> =
  Omit<T['$inferSelect'], Json> & { [K in Json]: AsText<T[K]> }

export type BookmarkRow = Stored<typeof schema.bookmarks, 'urls' | 'engagement' | 'quoted'>
export type MediaRow = Stored<typeof schema.media, 'visualTags'>
export type KnowledgeRow = Stored<typeof schema.knowledge, 'relatedIds' | 'ossReport' | 'entities'>
export type CategoryRow = typeof schema.categories.$inferSelect
export type EmbeddingRow = typeof schema.embeddings.$inferSelect
export type JobRow = typeof schema.jobs.$inferSelect
export type JobErrorRow = typeof schema.jobErrors.$inferSelect
export type ImportHistoryRow = typeof schema.importHistory.$inferSelect
export type NoteRow = typeof schema.notes.$inferSelect
export type ThreadPartRow = typeof schema.threadParts.$inferSelect

/** A post's place in its thread, null outside one. */
export interface ThreadColumns {
  threadRootId: ThreadPartRow['rootId'] | null
  threadPosition: ThreadPartRow['position'] | null
  threadSize: ThreadPartRow['size'] | null
}
