-- Import speed (issue #3: 100,000 posts in under 10 s). Measured on the rows of a 100k GraphQL export:
-- any AFTER INSERT trigger on bookmarks costs ~15 us per row even when its WHEN clause is false, and
-- the two queue inserts it ran were ~1.5 s of a 5.5 s insert. New posts are now queued for the search
-- index by whoever inserts them: the store's insertBookmark/insertMedia queue their row, and the
-- importer queues each batch's new ids in one set-based statement (queueNewPostsForSearch). Updates
-- and deletes stay trigger-maintained. The raw-handle author index goes: the author filter and the
-- top-authors count read search_bookmarks_author_lower_idx (handles are case-insensitive on X).
DROP INDEX IF EXISTS `bookmarks_author_created_idx`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_bookmarks_ai`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_media_ai`;
