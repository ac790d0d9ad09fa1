-- What search's explanations read of each post (its text, author, links, image text, summary, tags,
-- categories and entities), kept in one compact row per post: reading it from the live tables took a
-- random page of the post's ~2 KB row plus its media and knowledge rows for each of the 30 posts a
-- search explains (0.50 ms of the HTTP thread's CPU at 100,000 posts, 0.16 from this table). Written
-- with the post's word-index row (src-main/store/queries/search.ts INDEX_WORDS_SQL); posts waiting in
-- search_fts_queue are read from the live tables instead.
CREATE TABLE `search_docs` (
  `id` integer PRIMARY KEY NOT NULL,
  `text` text,
  `author` text,
  `urls` text,
  `ocr` text,
  `summary` text,
  `tags` text,
  `categories` text,
  `entities_json` text
);
--> statement-breakpoint
CREATE TRIGGER `search_docs_bookmarks_ad` AFTER DELETE ON bookmarks BEGIN DELETE FROM search_docs WHERE id = old.id; END;
--> statement-breakpoint
INSERT INTO search_docs(id, text, author, urls, ocr, summary, tags, categories, entities_json)
SELECT d.id, d.text, d.author, d.urls, d.ocr, d.summary,
  (SELECT group_concat(tg.name, '|') FROM bookmark_tags bt JOIN tags tg ON tg.id = bt.tag_id WHERE bt.bookmark_id = d.id),
  (SELECT group_concat(c.name, '|') FROM bookmark_categories bc JOIN categories c ON c.id = bc.category_id WHERE bc.bookmark_id = d.id),
  (SELECT k.entities FROM knowledge k WHERE k.bookmark_id = d.id)
FROM search_documents d;
