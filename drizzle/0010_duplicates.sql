-- Near-duplicates (issue #12, part 7). post_keys: what a post must share with another to be shown as a
-- copy of it: kind 'link' (normalised outbound link), 'quote' (quoted post id), 'text' (its first words,
-- normalised), and 'meaning' (pipeline stage 4: a pair of posts whose sentence vectors are near-identical,
-- keyed 'lowId:highId' on both rows). One b-tree ordered by (kind, key) finds a key's posts; the
-- bookmark index serves a post's own keys and the cascade on delete.
CREATE TABLE `post_keys` (
	`kind` text NOT NULL,
	`key` text NOT NULL,
	`bookmark_id` integer NOT NULL,
	PRIMARY KEY(`kind`, `key`, `bookmark_id`),
	FOREIGN KEY (`bookmark_id`) REFERENCES `bookmarks`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `post_keys_bookmark_idx` ON `post_keys` (`bookmark_id`);
--> statement-breakpoint
-- Posts whose keys are still to be computed. Keys are made by the importer for new and changed posts; the
-- posts of a library imported before this migration are queued here and keyed in the background
-- (library/duplicates-fill.ts), since normalising links and text is not something SQL does well.
CREATE TABLE `post_keys_queue` (`bookmark_id` integer PRIMARY KEY NOT NULL REFERENCES `bookmarks`(`id`) ON DELETE cascade);
--> statement-breakpoint
INSERT INTO `post_keys_queue` (`bookmark_id`) SELECT `id` FROM `bookmarks`;
--> statement-breakpoint
-- A post folded into another by a merge: the other record as it was, kept on the post that stays. Its
-- post id is unique, so importing that post again counts as a duplicate instead of bringing it back.
CREATE TABLE `merged_posts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`bookmark_id` integer NOT NULL,
	`post_id` text NOT NULL,
	`text` text NOT NULL,
	`author_handle` text NOT NULL,
	`author_name` text NOT NULL,
	`post_created_at` integer NOT NULL,
	`imported_at` integer NOT NULL,
	`source` text NOT NULL,
	`lang` text,
	`urls` text DEFAULT '[]' NOT NULL,
	`engagement` text DEFAULT '{}' NOT NULL,
	`quoted` text,
	`raw_json` text NOT NULL,
	`merged_at` integer NOT NULL,
	`merged_by` integer,
	FOREIGN KEY (`bookmark_id`) REFERENCES `bookmarks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`merged_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `merged_posts_post_id_idx` ON `merged_posts` (`post_id`);
--> statement-breakpoint
CREATE INDEX `merged_posts_bookmark_idx` ON `merged_posts` (`bookmark_id`);
