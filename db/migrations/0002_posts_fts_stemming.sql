-- Search should find "hunting" when a member types "hunt" (and "bucks" for "buck"): rebuild the
-- full-text index with the Porter stemmer in front of unicode61. Same columns, same triggers.
DROP TRIGGER IF EXISTS `posts_fts_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `posts_fts_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `posts_fts_update`;
--> statement-breakpoint
DROP TABLE IF EXISTS `posts_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `posts_fts` USING fts5(title, content, tags, content='posts', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO posts_fts(posts_fts) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `posts_fts_insert` AFTER INSERT ON `posts` BEGIN
  INSERT INTO posts_fts(rowid, title, content, tags) VALUES (new.id, new.title, new.content, coalesce(new.tags, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `posts_fts_delete` AFTER DELETE ON `posts` BEGIN
  INSERT INTO posts_fts(posts_fts, rowid, title, content, tags) VALUES ('delete', old.id, old.title, old.content, coalesce(old.tags, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `posts_fts_update` AFTER UPDATE OF title, content, tags ON `posts` BEGIN
  INSERT INTO posts_fts(posts_fts, rowid, title, content, tags) VALUES ('delete', old.id, old.title, old.content, coalesce(old.tags, ''));
  INSERT INTO posts_fts(rowid, title, content, tags) VALUES (new.id, new.title, new.content, coalesce(new.tags, ''));
END;
