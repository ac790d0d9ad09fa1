-- A counter that moves when anything the library's lists, counts, stats or mind map read changes, so
-- their caches survive the search index's background writes (which touch none of these tables).
-- New posts and their media bump it once per import from the importer, not per row (see
-- bumpLibraryVersion); every other change is caught here. Not in schema.ts: drizzle never diffs it.
CREATE TABLE `library_version` (`id` integer PRIMARY KEY NOT NULL, `n` integer NOT NULL);
--> statement-breakpoint
INSERT INTO `library_version` (`id`, `n`) VALUES (1, 0);
--> statement-breakpoint
CREATE TRIGGER `library_version_bookmarks_au` AFTER UPDATE ON bookmarks BEGIN UPDATE library_version SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `library_version_bookmarks_ad` AFTER DELETE ON bookmarks BEGIN UPDATE library_version SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `library_version_media_au` AFTER UPDATE OF bookmark_id, type ON media BEGIN UPDATE library_version SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `library_version_media_ad` AFTER DELETE ON media BEGIN UPDATE library_version SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `library_version_bc_ai` AFTER INSERT ON bookmark_categories BEGIN UPDATE library_version SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `library_version_bc_au` AFTER UPDATE ON bookmark_categories BEGIN UPDATE library_version SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `library_version_bc_ad` AFTER DELETE ON bookmark_categories BEGIN UPDATE library_version SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `library_version_categories_ai` AFTER INSERT ON categories BEGIN UPDATE library_version SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `library_version_categories_au` AFTER UPDATE ON categories BEGIN UPDATE library_version SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `library_version_categories_ad` AFTER DELETE ON categories BEGIN UPDATE library_version SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `library_version_bt_ai` AFTER INSERT ON bookmark_tags BEGIN UPDATE library_version SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `library_version_bt_ad` AFTER DELETE ON bookmark_tags BEGIN UPDATE library_version SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `library_version_tags_au` AFTER UPDATE ON tags BEGIN UPDATE library_version SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `library_version_tags_ad` AFTER DELETE ON tags BEGIN UPDATE library_version SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `library_version_knowledge_ai` AFTER INSERT ON knowledge BEGIN UPDATE library_version SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `library_version_knowledge_au` AFTER UPDATE ON knowledge BEGIN UPDATE library_version SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `library_version_knowledge_ad` AFTER DELETE ON knowledge BEGIN UPDATE library_version SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `library_version_history_ai` AFTER INSERT ON import_history BEGIN UPDATE library_version SET n = n + 1 WHERE id = 1; END;
--> statement-breakpoint
-- Dashboard figures: media per type from an index instead of reading every media row.
CREATE INDEX IF NOT EXISTS `library_media_type_idx` ON `media` (`type`);
