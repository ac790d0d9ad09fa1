-- Each member's own layer over the shared library (issue 15): read, starred, hidden and the review schedule,
-- one row per member and post that the member touched (no row = unread, not starred, not hidden, never
-- reviewed). The primary key is the table (WITHOUT ROWID): a list page probes it once per post it shows.
-- The partial indexes hold only the rows a filter asks for, so "starred" or "hidden" reads a few entries.
CREATE TABLE `member_state` (
	`user_id` integer NOT NULL,
	`bookmark_id` integer NOT NULL,
	`read` integer DEFAULT 0 NOT NULL,
	`starred` integer DEFAULT 0 NOT NULL,
	`hidden` integer DEFAULT 0 NOT NULL,
	`starred_at` integer,
	`review_due` integer,
	`review_interval` integer DEFAULT 0 NOT NULL,
	`reviewed_at` integer,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `bookmark_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`bookmark_id`) REFERENCES `bookmarks`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `member_state_bookmark_idx` ON `member_state` (`bookmark_id`);
--> statement-breakpoint
CREATE INDEX `member_state_read_idx` ON `member_state` (`user_id`,`bookmark_id`) WHERE "member_state"."read" = 1;
--> statement-breakpoint
CREATE INDEX `member_state_starred_idx` ON `member_state` (`user_id`,`bookmark_id`) WHERE "member_state"."starred" = 1;
--> statement-breakpoint
CREATE INDEX `member_state_hidden_idx` ON `member_state` (`user_id`,`bookmark_id`) WHERE "member_state"."hidden" = 1;
--> statement-breakpoint
CREATE INDEX `member_state_starred_at_idx` ON `member_state` (`starred_at`) WHERE "member_state"."starred" = 1;
--> statement-breakpoint
CREATE INDEX `member_state_read_recent_idx` ON `member_state` (`user_id`,`updated_at`) WHERE "member_state"."read" = 1;
--> statement-breakpoint
CREATE INDEX `member_state_due_idx` ON `member_state` (`user_id`,`review_due`) WHERE "member_state"."review_due" IS NOT NULL;
--> statement-breakpoint
-- The days on which a member answered reviews, and how many (the day's handful and the streak).
CREATE TABLE `review_days` (
	`user_id` integer NOT NULL,
	`day` integer NOT NULL,
	`answers` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `day`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
-- A counter per member that moves with every change to their state, so counts filtered by state are cached
-- until that member changes something. Kept by triggers; not in schema.ts (as library_version).
CREATE TABLE `member_state_version` (`user_id` integer PRIMARY KEY NOT NULL, `n` integer NOT NULL);
--> statement-breakpoint
CREATE TRIGGER `member_state_version_ai` AFTER INSERT ON member_state BEGIN INSERT INTO member_state_version (user_id, n) VALUES (NEW.user_id, 1) ON CONFLICT (user_id) DO UPDATE SET n = n + 1; END;
--> statement-breakpoint
CREATE TRIGGER `member_state_version_au` AFTER UPDATE ON member_state BEGIN INSERT INTO member_state_version (user_id, n) VALUES (NEW.user_id, 1) ON CONFLICT (user_id) DO UPDATE SET n = n + 1; END;
--> statement-breakpoint
CREATE TRIGGER `member_state_version_ad` AFTER DELETE ON member_state BEGIN INSERT INTO member_state_version (user_id, n) VALUES (OLD.user_id, 1) ON CONFLICT (user_id) DO UPDATE SET n = n + 1; END;
--> statement-breakpoint
-- The digest reads a window of import times and of analysis times.
CREATE INDEX `bookmarks_created_at_idx` ON `bookmarks` (`created_at`);
--> statement-breakpoint
CREATE INDEX `knowledge_analyzed_at_idx` ON `knowledge` (`analyzed_at`);
