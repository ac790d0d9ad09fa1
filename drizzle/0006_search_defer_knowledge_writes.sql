-- The pipeline writes a knowledge row, 3-6 tags and 1-3 categories per post, and each of those rows
-- rebuilt the post's FTS row inside the writer's transaction (several rebuilds per post: most of
-- semantic_tagging's time). They now only queue the post, as new posts do since 0002; src-main/search
-- re-indexes queued posts in batches before answering a search and in the background.
DROP TRIGGER IF EXISTS `search_knowledge_ai`;
--> statement-breakpoint
CREATE TRIGGER `search_knowledge_ai` AFTER INSERT ON knowledge BEGIN
  INSERT INTO search_fts_queue(bookmark_id) VALUES (new.bookmark_id) ON CONFLICT DO NOTHING;
  INSERT INTO search_queue(bookmark_id) VALUES (new.bookmark_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_knowledge_au`;
--> statement-breakpoint
CREATE TRIGGER `search_knowledge_au` AFTER UPDATE OF summary, entities ON knowledge BEGIN
  INSERT INTO search_fts_queue(bookmark_id) VALUES (new.bookmark_id) ON CONFLICT DO NOTHING;
  INSERT INTO search_queue(bookmark_id) VALUES (new.bookmark_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_bookmark_tags_ai`;
--> statement-breakpoint
CREATE TRIGGER `search_bookmark_tags_ai` AFTER INSERT ON bookmark_tags BEGIN
  INSERT INTO search_fts_queue(bookmark_id) VALUES (new.bookmark_id) ON CONFLICT DO NOTHING;
  INSERT INTO search_queue(bookmark_id) VALUES (new.bookmark_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_bookmark_tags_ad`;
--> statement-breakpoint
CREATE TRIGGER `search_bookmark_tags_ad` AFTER DELETE ON bookmark_tags BEGIN
  INSERT INTO search_fts_queue(bookmark_id) VALUES (old.bookmark_id) ON CONFLICT DO NOTHING;
  INSERT INTO search_queue(bookmark_id) VALUES (old.bookmark_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_bookmark_categories_ai`;
--> statement-breakpoint
CREATE TRIGGER `search_bookmark_categories_ai` AFTER INSERT ON bookmark_categories BEGIN
  INSERT INTO search_fts_queue(bookmark_id) VALUES (new.bookmark_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_bookmark_categories_ad`;
--> statement-breakpoint
CREATE TRIGGER `search_bookmark_categories_ad` AFTER DELETE ON bookmark_categories BEGIN
  INSERT INTO search_fts_queue(bookmark_id) VALUES (old.bookmark_id) ON CONFLICT DO NOTHING;
END;
