ALTER TABLE "notifications" ADD COLUMN "pushed_at" bigint;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "mailed_at" bigint;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "claimed_until" bigint;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "next_attempt_at" bigint;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "failed_at" bigint;--> statement-breakpoint
CREATE INDEX "notifications_failed" ON "notifications" USING btree ("id") WHERE failed_at IS NOT NULL;