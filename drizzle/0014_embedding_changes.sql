CREATE TABLE `embedding_removals` (
	`seq` integer PRIMARY KEY NOT NULL,
	`bookmark_id` integer NOT NULL,
	`model` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `embedding_removals_model_seq_idx` ON `embedding_removals` (`model`,`seq`);--> statement-breakpoint
CREATE TABLE `embedding_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `embeddings` ADD `seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `embeddings_model_seq_idx` ON `embeddings` (`model`,`seq`);--> statement-breakpoint
-- Existing vectors keep seq 0 (no rewrite, no re-encoding): a first load reads them all, later passes read past the counter.
INSERT INTO `embedding_version` (`id`, `n`) VALUES (1, 0);
--> statement-breakpoint
-- Writes set seq in writeEmbedding; a removal (a post deleted, its vectors cascading) is recorded here.
CREATE TRIGGER `embedding_removals_ad` AFTER DELETE ON embeddings BEGIN
  UPDATE embedding_version SET n = n + 1 WHERE id = 1;
  INSERT INTO embedding_removals(seq, bookmark_id, model) SELECT n, old.bookmark_id, old.model FROM embedding_version WHERE id = 1;
END;
