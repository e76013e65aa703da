ALTER TABLE `notifications` ADD `pushed_at` integer;--> statement-breakpoint
ALTER TABLE `notifications` ADD `mailed_at` integer;--> statement-breakpoint
ALTER TABLE `notifications` ADD `claimed_until` integer;--> statement-breakpoint
ALTER TABLE `notifications` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `notifications` ADD `next_attempt_at` integer;--> statement-breakpoint
ALTER TABLE `notifications` ADD `failed_at` integer;--> statement-breakpoint
CREATE INDEX `notifications_failed` ON `notifications` (`id`) WHERE failed_at IS NOT NULL;