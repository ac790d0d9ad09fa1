-- An UPSERT on a table whose UPDATE trigger queues a post overrides the trigger's own conflict policy
-- (SQLite applies the outer statement's ON CONFLICT to the trigger body), so `INSERT OR IGNORE` into
-- the search queues failed with "UNIQUE constraint failed: search_queue.bookmark_id" whenever the post
-- was already queued. An upsert clause inside the trigger is not overridden.
DROP TRIGGER IF EXISTS `search_bookmark_tags_ad`;
--> statement-breakpoint
CREATE TRIGGER `search_bookmark_tags_ad` AFTER DELETE ON bookmark_tags BEGIN
  DELETE FROM search_fts WHERE rowid = old.bookmark_id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = old.bookmark_id;
  INSERT INTO search_queue(bookmark_id) VALUES (old.bookmark_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_bookmark_tags_ai`;
--> statement-breakpoint
CREATE TRIGGER `search_bookmark_tags_ai` AFTER INSERT ON bookmark_tags BEGIN
  DELETE FROM search_fts WHERE rowid = new.bookmark_id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = new.bookmark_id;
  INSERT INTO search_queue(bookmark_id) VALUES (new.bookmark_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_bookmarks_ad`;
--> statement-breakpoint
CREATE TRIGGER `search_bookmarks_ad` AFTER DELETE ON bookmarks BEGIN
  DELETE FROM search_fts WHERE rowid = old.id;
  INSERT INTO search_queue(bookmark_id) VALUES (old.id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_bookmarks_ai`;
--> statement-breakpoint
CREATE TRIGGER `search_bookmarks_ai` AFTER INSERT ON bookmarks BEGIN
  INSERT INTO search_fts_queue(bookmark_id) VALUES (new.id) ON CONFLICT DO NOTHING;
  INSERT INTO search_queue(bookmark_id) VALUES (new.id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_bookmarks_au`;
--> statement-breakpoint
CREATE TRIGGER `search_bookmarks_au` AFTER UPDATE OF text, author_handle, author_name, urls, quoted ON bookmarks BEGIN
  DELETE FROM search_fts WHERE rowid = old.id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = new.id;
  INSERT INTO search_queue(bookmark_id) VALUES (new.id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_knowledge_ad`;
--> statement-breakpoint
CREATE TRIGGER `search_knowledge_ad` AFTER DELETE ON knowledge BEGIN
  DELETE FROM search_fts WHERE rowid = old.bookmark_id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = old.bookmark_id;
  INSERT INTO search_queue(bookmark_id) VALUES (old.bookmark_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_knowledge_ai`;
--> statement-breakpoint
CREATE TRIGGER `search_knowledge_ai` AFTER INSERT ON knowledge BEGIN
  DELETE FROM search_fts WHERE rowid = new.bookmark_id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = new.bookmark_id;
  INSERT INTO search_queue(bookmark_id) VALUES (new.bookmark_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_knowledge_au`;
--> statement-breakpoint
CREATE TRIGGER `search_knowledge_au` AFTER UPDATE OF summary, entities ON knowledge BEGIN
  DELETE FROM search_fts WHERE rowid = new.bookmark_id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = new.bookmark_id;
  INSERT INTO search_queue(bookmark_id) VALUES (new.bookmark_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_media_ad`;
--> statement-breakpoint
CREATE TRIGGER `search_media_ad` AFTER DELETE ON media BEGIN
  DELETE FROM search_fts WHERE rowid = old.bookmark_id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = old.bookmark_id;
  INSERT INTO search_queue(bookmark_id) VALUES (old.bookmark_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_media_ai`;
--> statement-breakpoint
CREATE TRIGGER `search_media_ai` AFTER INSERT ON media
WHEN new.ocr_text IS NOT NULL OR new.alt_text IS NOT NULL OR new.description IS NOT NULL BEGIN
  INSERT INTO search_fts_queue(bookmark_id) VALUES (new.bookmark_id) ON CONFLICT DO NOTHING;
  INSERT INTO search_queue(bookmark_id) VALUES (new.bookmark_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_media_au`;
--> statement-breakpoint
CREATE TRIGGER `search_media_au` AFTER UPDATE OF ocr_text, alt_text, description, type ON media BEGIN
  DELETE FROM search_fts WHERE rowid = new.bookmark_id;
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents WHERE id = new.bookmark_id;
  INSERT INTO search_queue(bookmark_id) VALUES (new.bookmark_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_tags_au`;
--> statement-breakpoint
CREATE TRIGGER `search_tags_au` AFTER UPDATE OF name ON tags BEGIN
  DELETE FROM search_fts WHERE rowid IN (SELECT bookmark_id FROM bookmark_tags WHERE tag_id = new.id);
  INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents
     WHERE id IN (SELECT bookmark_id FROM bookmark_tags WHERE tag_id = new.id);
  INSERT INTO search_queue(bookmark_id) SELECT bookmark_id FROM bookmark_tags WHERE tag_id = new.id ON CONFLICT DO NOTHING;
END;
