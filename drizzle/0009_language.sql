-- Every post gets a language (issue 12): `lang` holds an ISO 639-1 code or null. Importers stored X's
-- own codes as they came (`und`, `qme`, `zxx`, `in` for Indonesian, `iw` for Hebrew, `en-gb`…); they
-- are normalised here, once (only the rows that need it are rewritten). `lang_checked` marks a post
-- whose language was decided (X's code or the detector's answer at import). Posts from before this
-- migration with no usable code keep it null and are detected in the background after start, in small
-- slices (src-main/library/language-upgrade.ts), through the partial index below; the importer fills both.
-- X's codes for "no linguistic content" (media, hashtags, mentions or links only) count as decided.
ALTER TABLE `bookmarks` ADD `lang_checked` integer;--> statement-breakpoint
UPDATE `bookmarks` SET `lang_checked` = CASE WHEN lower(`lang`) IN ('zxx', 'qme', 'qam', 'qht', 'qct', 'qst', 'art') THEN 1 END, `lang` = CASE
    WHEN NOT (lower(`lang`) GLOB '[a-z][a-z]' OR lower(`lang`) GLOB '[a-z][a-z][-_]*') THEN (CASE lower(`lang`) WHEN 'fil' THEN 'tl' ELSE NULL END)
    WHEN substr(lower(`lang`), 1, 2) = 'in' THEN 'id'
    WHEN substr(lower(`lang`), 1, 2) = 'iw' THEN 'he'
    WHEN substr(lower(`lang`), 1, 2) = 'ji' THEN 'yi'
    WHEN substr(lower(`lang`), 1, 2) = 'jw' THEN 'jv'
    ELSE substr(lower(`lang`), 1, 2)
  END
  WHERE `lang` IS NOT NULL AND (NOT `lang` GLOB '[a-z][a-z]' OR `lang` IN ('in', 'iw', 'ji', 'jw'));--> statement-breakpoint
CREATE INDEX `bookmarks_lang_created_idx` ON `bookmarks` (`lang`,`post_created_at`);--> statement-breakpoint
CREATE INDEX `bookmarks_lang_unchecked_idx` ON `bookmarks` (`id`) WHERE lang IS NULL AND lang_checked IS NULL;
