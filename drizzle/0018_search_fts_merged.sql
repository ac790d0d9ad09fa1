-- What a merge of the word index left its content as: `structure` is FTS5's structure record (%_data
-- row 10) after the last merge step, `content` the structure record of the last write that changed what
-- the index holds. A merge rewrites b-trees and the structure record but never what any query finds, so
-- the index's stamp (src-main/store/queries/search-index.ts) reads `content` while the structure record
-- is still the one the merge left: the word index in memory, the vocabulary and the word filters' sets
-- stay current across merges. Written only by the merge steps (src-main/store/maintenance.ts), in the
-- transaction of each step.
CREATE TABLE `search_fts_merged` (
  `id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
  `structure` blob,
  `content` blob
);
--> statement-breakpoint
INSERT INTO `search_fts_merged`(`id`, `structure`, `content`) VALUES (1, NULL, NULL);
