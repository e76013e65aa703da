ALTER TABLE `notification_fanouts` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `notification_fanouts` ADD `next_attempt_at` integer;--> statement-breakpoint
ALTER TABLE `notification_fanouts` ADD `failed_at` integer;