CREATE TABLE `field_reports` (
	`post_id` integer PRIMARY KEY NOT NULL,
	`author_id` integer NOT NULL,
	`kind` text NOT NULL,
	`county` text NOT NULL,
	`observed_on` text NOT NULL,
	`rut_phase` text,
	`bucks` integer,
	`does` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`post_id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `field_reports_pulse` ON `field_reports` (`observed_on`,`county`,`author_id`,`post_id`);--> statement-breakpoint
CREATE INDEX `field_reports_county` ON `field_reports` (`county`,`observed_on`);--> statement-breakpoint
CREATE INDEX `field_reports_author` ON `field_reports` (`author_id`,`observed_on`);