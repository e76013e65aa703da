DROP INDEX "notifications_unread";--> statement-breakpoint
ALTER TABLE "moderation_log" ADD COLUMN "subject_id" integer;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "case_id" integer;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_case_id_moderation_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."moderation_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moderation_cases_subject" ON "moderation_cases" USING btree ("subject_id");--> statement-breakpoint
CREATE INDEX "moderation_log_subject" ON "moderation_log" USING btree ("subject_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_case" ON "notifications" USING btree ("case_id","user_id") WHERE case_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "notifications_unread" ON "notifications" USING btree ("user_id","id","post_id","kind","read_at","club_id") WHERE read_at IS NULL;
--> statement-breakpoint
-- The decisions logged before subject_id: whose the target is now (ux-3 U23; a deleted post or comment stays unknown).
UPDATE "moderation_log" SET "subject_id" = "target_id" WHERE "target_type" = 'user';--> statement-breakpoint
UPDATE "moderation_log" SET "subject_id" = (SELECT "author_id" FROM "posts" WHERE "posts"."id" = "moderation_log"."target_id") WHERE "target_type" = 'post';--> statement-breakpoint
UPDATE "moderation_log" SET "subject_id" = (SELECT "author_id" FROM "comments" WHERE "comments"."id" = "moderation_log"."target_id") WHERE "target_type" = 'comment';
--> statement-breakpoint
-- Written by `npm run db:generate` from UNCOUNTED_TABLES and UNCOUNTED_COLUMNS (app/utils/db/data-version.server.ts):
-- the data-version triggers of the tables and columns a page shows.
DROP TRIGGER "notifications_data_version_update" ON "notifications";
--> statement-breakpoint
CREATE TRIGGER "notifications_data_version_update" AFTER UPDATE OF "id", "user_id", "kind", "actor_id", "actor_count", "post_id", "comment_id", "club_id", "detail", "reason", "case_id", "read_at", "created_at" ON "notifications" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
