ALTER TABLE "notification_fanouts" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_fanouts" ADD COLUMN "next_attempt_at" bigint;--> statement-breakpoint
ALTER TABLE "notification_fanouts" ADD COLUMN "failed_at" bigint;