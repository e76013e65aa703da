-- Hand-written (drizzle-kit does not model triggers). Bookkeeping is not content (CONTRACT.md §11,
-- docs/decisions/0066-after-commit-and-bookkeeping.md): a delivery marking rows sent, a fan-out's
-- cursor and the site's keys change no page, so they no longer move the data version; before, every
-- delivery emptied every visitor page and ETag. Reading a notification (read_at) and every other column
-- still counts: a member's bell shows it.
DROP TRIGGER "notifications_data_version" ON "notifications";--> statement-breakpoint
CREATE TRIGGER "notifications_data_version" AFTER INSERT OR DELETE ON "notifications" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();--> statement-breakpoint
CREATE TRIGGER "notifications_data_version_update" AFTER UPDATE OF "id", "user_id", "kind", "actor_id", "actor_count", "post_id", "comment_id", "club_id", "detail", "reason", "read_at", "created_at" ON "notifications" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();--> statement-breakpoint
DROP TRIGGER "notification_fanouts_data_version" ON "notification_fanouts";--> statement-breakpoint
DROP TRIGGER "site_keys_data_version" ON "site_keys";
