-- Full-text search over post title, content and tags (external-content FTS5 table over posts).
-- Kept in sync by triggers; counter updates (likes, comments, shares) do not touch it.
CREATE VIRTUAL TABLE `posts_fts` USING fts5(title, content, tags, content='posts', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
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
