-- New posts are no longer tokenised inside the writer's transaction (that more than doubled import
-- time): the insert trigger only queues them, and src-main/search indexes queued posts in batches,
-- before answering a search and in the background. Changes to existing posts stay trigger-maintained.
CREATE TABLE `search_fts_queue` (`bookmark_id` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_bookmarks_ai`;
--> statement-breakpoint
CREATE TRIGGER `search_bookmarks_ai` AFTER INSERT ON bookmarks BEGIN
  INSERT OR IGNORE INTO search_fts_queue(bookmark_id) VALUES (new.id);
  INSERT OR IGNORE INTO search_queue(bookmark_id) VALUES (new.id);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_media_ai`;
--> statement-breakpoint
CREATE TRIGGER `search_media_ai` AFTER INSERT ON media
WHEN new.ocr_text IS NOT NULL OR new.alt_text IS NOT NULL OR new.description IS NOT NULL BEGIN
  INSERT OR IGNORE INTO search_fts_queue(bookmark_id) VALUES (new.bookmark_id);
  INSERT OR IGNORE INTO search_queue(bookmark_id) VALUES (new.bookmark_id);
END;
