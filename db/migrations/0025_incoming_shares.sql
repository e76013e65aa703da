CREATE TABLE `incoming_shares` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` integer,
	`title` text,
	`text` text,
	`url` text,
	`files` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `incoming_shares_created` ON `incoming_shares` (`created_at`);