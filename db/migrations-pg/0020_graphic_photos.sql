ALTER TABLE "posts" ADD COLUMN "sensitive" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "blur_graphic" boolean DEFAULT true NOT NULL;