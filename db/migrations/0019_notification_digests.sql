CREATE TABLE `notification_digests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`mode` text NOT NULL,
	`since` integer NOT NULL,
	`until` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`claimed_until` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`sent_at` integer,
	`failed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_digests_user_until` ON `notification_digests` (`user_id`,`until`);--> statement-breakpoint
CREATE INDEX `notification_digests_pending` ON `notification_digests` (`id`) WHERE sent_at IS NULL AND failed_at IS NULL;