CREATE TABLE `notification_acts` (
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`actor_id` integer NOT NULL,
	`subject` text NOT NULL,
	`told_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `kind`, `actor_id`, `subject`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notification_acts_told` ON `notification_acts` (`told_at`);--> statement-breakpoint
DROP INDEX `notifications_unread`;--> statement-breakpoint
CREATE INDEX `notifications_unread` ON `notifications` (`user_id`,`id`,`post_id`,`kind`,`read_at`) WHERE read_at IS NULL;