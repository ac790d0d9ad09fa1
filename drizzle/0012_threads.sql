-- Threads (issue 16, part 1): posts by one author that reply to that author's own earlier post. The
-- importer assembles them after every import (src-main/threads), so a thread completes when a missing
-- part arrives in a later file; each part has a row here with its thread's root (the earliest saved part:
-- the one whose parent is not in the library), its place in reading order (1 = the root) and the
-- thread's size. Posts outside a thread have no row. A narrow table of its own, not columns on
-- bookmarks: writing a place then touches a few bytes, not a whole post row with its raw JSON (at
-- 100,000 posts those rewrites were most of the assembly's cost). It changes only with posts (an import,
-- a delete, a merge), which move the library stamp themselves, so it needs no library_version trigger.
-- No foreign key: checking one for each of 27,000 places cost three times the writes themselves; a
-- deleted post's place goes with it through the trigger below (its thread is then assembled again).
-- Posts of a library from before this migration are assembled at the next start.
CREATE TABLE `thread_parts` (
	`bookmark_id` integer PRIMARY KEY NOT NULL,
	`root_id` integer NOT NULL,
	`position` integer NOT NULL,
	`size` integer NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER `thread_parts_bookmarks_ad` AFTER DELETE ON bookmarks BEGIN DELETE FROM thread_parts WHERE bookmark_id = old.id; END;
--> statement-breakpoint
CREATE INDEX `thread_parts_root_idx` ON `thread_parts` (`root_id`,`position`);--> statement-breakpoint
-- Replies only: assembly walks every reply in the library and looks up its parent by post id. It covers
-- what assembly reads of the reply itself, so only the parent's row is fetched.
CREATE INDEX `bookmarks_reply_to_idx` ON `bookmarks` (`in_reply_to_post_id`,`author_handle`,`post_created_at`,`post_id`) WHERE in_reply_to_post_id IS NOT NULL;
