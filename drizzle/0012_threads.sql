-- Threads (issue 16, part 1): posts by one author that reply to that author's own earlier post. The
-- importer assembles them after every import (src-main/threads), so a thread completes when a missing
-- part arrives in a later file; each part keeps its thread's root (the earliest saved part: the one
-- whose parent is not in the library), its place in reading order (1 = the root) and the thread's size.
-- Posts outside a thread keep all three null. Posts of a library from before this migration are
-- assembled at the next start.
ALTER TABLE `bookmarks` ADD `thread_root_id` integer;--> statement-breakpoint
ALTER TABLE `bookmarks` ADD `thread_position` integer;--> statement-breakpoint
ALTER TABLE `bookmarks` ADD `thread_size` integer;--> statement-breakpoint
-- Replies only: assembly walks every reply in the library and looks up its parent by post id.
CREATE INDEX `bookmarks_reply_to_idx` ON `bookmarks` (`in_reply_to_post_id`) WHERE in_reply_to_post_id IS NOT NULL;--> statement-breakpoint
-- A thread's parts in reading order (the detail, exports, the pipeline).
CREATE INDEX `bookmarks_thread_idx` ON `bookmarks` (`thread_root_id`,`thread_position`) WHERE thread_root_id IS NOT NULL;
