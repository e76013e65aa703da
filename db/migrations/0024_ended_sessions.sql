CREATE TABLE `ended_sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`reason` text NOT NULL,
	`ended_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ended_sessions_user` ON `ended_sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `ended_sessions_ended` ON `ended_sessions` (`ended_at`);