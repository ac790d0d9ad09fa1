-- Search index (owned by src-main/search). Not in schema.ts: drizzle never diffs these objects.
-- search_documents: what each post contributes to each FTS column, computed from the live tables.
-- search_fts: contentless (with delete support) FTS5 table keyed by bookmarks.id, kept current by the
-- triggers below: every change to a post, its knowledge, tags, media text or categories rewrites that
-- post's row, so nothing is rebuilt at query time. search_queue: ids whose sentence vector (and the
-- in-memory vector index) is due for a refresh; drained by the search capability.
CREATE VIEW `search_documents` AS
SELECT
  b.id AS id,
  b.text || coalesce(' ' || CASE WHEN json_valid(b.quoted) THEN json_extract(b.quoted, '$.text') END, '') AS text,
  b.author_handle || ' ' || b.author_name AS author,
  (SELECT group_concat(coalesce(json_extract(u.value, '$.expandedUrl'), ''), ' ')
     FROM json_each(CASE WHEN json_valid(b.urls) THEN b.urls ELSE '[]' END) u) AS urls,
  (SELECT group_concat(t.value, ' ')
     FROM knowledge k, json_tree(CASE WHEN json_valid(k.entities) THEN k.entities ELSE '[]' END) t
    WHERE k.bookmark_id = b.id AND t.type = 'text') AS entities,
  (SELECT group_concat(tg.name, ' ') FROM bookmark_tags bt JOIN tags tg ON tg.id = bt.tag_id
    WHERE bt.bookmark_id = b.id) AS tags,
  (SELECT group_concat(concat_ws(' ', m.ocr_text, m.alt_text, m.description), ' ') FROM media m
    WHERE m.bookmark_id = b.id) AS ocr,
  (SELECT k.summary FROM knowledge k WHERE k.bookmark_id = b.id) AS summary,
  (SELECT group_concat(c.name, ' ') FROM bookmark_categories bc JOIN categories c ON c.id = bc.category_id
    WHERE bc.bookmark_id = b.id) AS categories
FROM bookmarks b;
--> statement-breakpoint
CREATE VIRTUAL TABLE `search_fts` USING fts5(
  text, author, urls, entities, tags, ocr, summary, categories,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2',
  prefix = '2 3 4'
);
--> statement-breakpoint
CREATE VIRTUAL TABLE `search_fts_vocab` USING fts5vocab(`search_fts`, 'row');
--> statement-breakpoint
CREATE TABLE `search_queue` (`bookmark_id` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
  SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents;
--> statement-breakpoint
INSERT INTO search_queue(bookmark_id) SELECT id FROM bookmarks;
--> statement-breakpoint
CREATE TRIGGER `search_bookmarks_ai` AFTER INSERT ON bookmarks BEGIN
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = new.id;
  INSERT OR IGNORE INTO search_queue(bookmark_id) VALUES (new.id);
END;
--> statement-breakpoint
CREATE TRIGGER `search_bookmarks_au` AFTER UPDATE OF text, author_handle, author_name, urls, quoted ON bookmarks BEGIN
  DELETE FROM search_fts WHERE rowid = old.id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = new.id;
  INSERT OR IGNORE INTO search_queue(bookmark_id) VALUES (new.id);
END;
--> statement-breakpoint
CREATE TRIGGER `search_bookmarks_ad` AFTER DELETE ON bookmarks BEGIN
  DELETE FROM search_fts WHERE rowid = old.id;
  INSERT OR IGNORE INTO search_queue(bookmark_id) VALUES (old.id);
END;
--> statement-breakpoint
CREATE TRIGGER `search_knowledge_ai` AFTER INSERT ON knowledge BEGIN
  DELETE FROM search_fts WHERE rowid = new.bookmark_id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = new.bookmark_id;
  INSERT OR IGNORE INTO search_queue(bookmark_id) VALUES (new.bookmark_id);
END;
--> statement-breakpoint
CREATE TRIGGER `search_knowledge_au` AFTER UPDATE OF summary, entities ON knowledge BEGIN
  DELETE FROM search_fts WHERE rowid = new.bookmark_id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = new.bookmark_id;
  INSERT OR IGNORE INTO search_queue(bookmark_id) VALUES (new.bookmark_id);
END;
--> statement-breakpoint
CREATE TRIGGER `search_knowledge_ad` AFTER DELETE ON knowledge BEGIN
  DELETE FROM search_fts WHERE rowid = old.bookmark_id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = old.bookmark_id;
  INSERT OR IGNORE INTO search_queue(bookmark_id) VALUES (old.bookmark_id);
END;
--> statement-breakpoint
CREATE TRIGGER `search_bookmark_tags_ai` AFTER INSERT ON bookmark_tags BEGIN
  DELETE FROM search_fts WHERE rowid = new.bookmark_id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = new.bookmark_id;
  INSERT OR IGNORE INTO search_queue(bookmark_id) VALUES (new.bookmark_id);
END;
--> statement-breakpoint
CREATE TRIGGER `search_bookmark_tags_ad` AFTER DELETE ON bookmark_tags BEGIN
  DELETE FROM search_fts WHERE rowid = old.bookmark_id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = old.bookmark_id;
  INSERT OR IGNORE INTO search_queue(bookmark_id) VALUES (old.bookmark_id);
END;
--> statement-breakpoint
CREATE TRIGGER `search_tags_au` AFTER UPDATE OF name ON tags BEGIN
  DELETE FROM search_fts WHERE rowid IN (SELECT bookmark_id FROM bookmark_tags WHERE tag_id = new.id);
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents
     WHERE id IN (SELECT bookmark_id FROM bookmark_tags WHERE tag_id = new.id);
  INSERT OR IGNORE INTO search_queue(bookmark_id) SELECT bookmark_id FROM bookmark_tags WHERE tag_id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `search_media_ai` AFTER INSERT ON media
WHEN new.ocr_text IS NOT NULL OR new.alt_text IS NOT NULL OR new.description IS NOT NULL BEGIN
  DELETE FROM search_fts WHERE rowid = new.bookmark_id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = new.bookmark_id;
  INSERT OR IGNORE INTO search_queue(bookmark_id) VALUES (new.bookmark_id);
END;
--> statement-breakpoint
CREATE TRIGGER `search_media_au` AFTER UPDATE OF ocr_text, alt_text, description, type ON media BEGIN
  DELETE FROM search_fts WHERE rowid = new.bookmark_id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = new.bookmark_id;
  INSERT OR IGNORE INTO search_queue(bookmark_id) VALUES (new.bookmark_id);
END;
--> statement-breakpoint
CREATE TRIGGER `search_media_ad` AFTER DELETE ON media BEGIN
  DELETE FROM search_fts WHERE rowid = old.bookmark_id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = old.bookmark_id;
  INSERT OR IGNORE INTO search_queue(bookmark_id) VALUES (old.bookmark_id);
END;
--> statement-breakpoint
CREATE TRIGGER `search_bookmark_categories_ai` AFTER INSERT ON bookmark_categories BEGIN
  DELETE FROM search_fts WHERE rowid = new.bookmark_id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = new.bookmark_id;
END;
--> statement-breakpoint
CREATE TRIGGER `search_bookmark_categories_ad` AFTER DELETE ON bookmark_categories BEGIN
  DELETE FROM search_fts WHERE rowid = old.bookmark_id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = old.bookmark_id;
END;
--> statement-breakpoint
CREATE TRIGGER `search_categories_au` AFTER UPDATE OF name ON categories BEGIN
  DELETE FROM search_fts WHERE rowid IN (SELECT bookmark_id FROM bookmark_categories WHERE category_id = new.id);
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents
     WHERE id IN (SELECT bookmark_id FROM bookmark_categories WHERE category_id = new.id);
END;
