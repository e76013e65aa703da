ALTER TABLE "moderation_cases" ADD COLUMN "decision" text;--> statement-breakpoint
ALTER TABLE "moderation_cases" ADD COLUMN "decided_by" text;