-- FTS5's automatic merging off for the word index. After every write transaction FTS5 carried on
-- merging the index's large b-trees a step further: with the maintenance thread's 64-post batches,
-- re-indexing 20,000 posts (what stage 4 does: categories are words in the index) cost 0.43 ms of CPU
-- a post with it and 0.05 without. The small b-trees the batches leave are still merged by FTS5's
-- crisis merge (16 at one level), and the whole index into one once the writes stop
-- (src-main/search/index-catch-up.ts, worthMerging). What a search finds does not depend on how the
-- index is split into b-trees.
INSERT INTO `search_fts`(`search_fts`, `rank`) VALUES('automerge', 0);
