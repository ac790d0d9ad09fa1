-- Author filters compare handles without case; a BINARY index cannot serve `= ? COLLATE NOCASE`,
-- which scanned every post. Owned by src-main/search (not in schema.ts).
CREATE INDEX IF NOT EXISTS `search_bookmarks_author_lower_idx` ON `bookmarks` (lower(`author_handle`), `post_created_at`);
