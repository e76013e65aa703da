-- Hand-written (drizzle-kit does not model these); issue 25, CONTRACT.md §9.
--
-- (a) Search: a stored tsvector over title, content and tags with English stemming (the stand-in for
-- SQLite's FTS5 posts_fts with the Porter stemmer), kept by PostgreSQL itself, and its GIN index.
-- Not in db/schema-pg.ts on purpose: only hand-written search SQL reads it, and drizzle never writes it.
ALTER TABLE "posts" ADD COLUMN "search" tsvector GENERATED ALWAYS AS (to_tsvector('english', coalesce("title", '') || ' ' || coalesce("content", '') || ' ' || coalesce("tags"::text, ''))) STORED;
--> statement-breakpoint
CREATE INDEX "posts_search" ON "posts" USING gin ("search");
--> statement-breakpoint
-- (b) The data version: one number that moves on every committed write to a table a page shows, so
-- every app node can tell (by reading last_value, or on a NOTIFY) that its caches may be stale.
-- Statement-level triggers: one nextval per statement, however many rows it touches. rate_limits and
-- link_previews are left out (no page's cache depends on them), and so are the sessions columns a
-- request refreshes as it is used (last_seen_at, expires_at), or every visit would bump it.
CREATE SEQUENCE "data_version";
--> statement-breakpoint
CREATE FUNCTION "data_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('data_version');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "users_data_version" AFTER INSERT OR UPDATE OR DELETE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "clubs_data_version" AFTER INSERT OR UPDATE OR DELETE ON "clubs" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "posts_data_version" AFTER INSERT OR UPDATE OR DELETE ON "posts" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "post_tags_data_version" AFTER INSERT OR UPDATE OR DELETE ON "post_tags" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "media_data_version" AFTER INSERT OR UPDATE OR DELETE ON "media" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "likes_data_version" AFTER INSERT OR UPDATE OR DELETE ON "likes" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "comments_data_version" AFTER INSERT OR UPDATE OR DELETE ON "comments" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "shares_data_version" AFTER INSERT OR UPDATE OR DELETE ON "shares" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "follows_data_version" AFTER INSERT OR UPDATE OR DELETE ON "follows" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "club_members_data_version" AFTER INSERT OR UPDATE OR DELETE ON "club_members" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "join_requests_data_version" AFTER INSERT OR UPDATE OR DELETE ON "join_requests" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "invites_data_version" AFTER INSERT OR UPDATE OR DELETE ON "invites" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "password_resets_data_version" AFTER INSERT OR UPDATE OR DELETE ON "password_resets" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "released_usernames_data_version" AFTER INSERT OR UPDATE OR DELETE ON "released_usernames" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "idempotency_keys_data_version" AFTER INSERT OR UPDATE OR DELETE ON "idempotency_keys" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "resumable_uploads_data_version" AFTER INSERT OR UPDATE OR DELETE ON "resumable_uploads" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "sessions_data_version" AFTER INSERT OR DELETE ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "sessions_data_version_update" AFTER UPDATE OF "id", "token_hash", "user_id", "device", "created_at" ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
