CREATE TABLE `resumable_uploads` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` integer NOT NULL,
	`finishing` integer DEFAULT false NOT NULL,
	`media_id` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`media_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `resumable_uploads_owner` ON `resumable_uploads` (`owner_id`);--> statement-breakpoint
CREATE INDEX `resumable_uploads_created` ON `resumable_uploads` (`created_at`);