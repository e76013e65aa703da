CREATE TABLE `club_event_jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`kind` text NOT NULL,
	`actor_id` integer,
	`due_at` integer NOT NULL,
	`cursor` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`done_at` integer,
	`failed_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `club_events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `club_event_jobs_event_kind` ON `club_event_jobs` (`event_id`,`kind`);--> statement-breakpoint
CREATE INDEX `club_event_jobs_pending` ON `club_event_jobs` (`due_at`,`id`) WHERE done_at IS NULL;--> statement-breakpoint
CREATE TABLE `club_event_rsvps` (
	`event_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`status` text NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`event_id`, `user_id`),
	FOREIGN KEY (`event_id`) REFERENCES `club_events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `club_event_rsvps_event_status` ON `club_event_rsvps` (`event_id`,`status`,`updated_at`);--> statement-breakpoint
CREATE TABLE `club_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`club_id` integer NOT NULL,
	`created_by_id` integer,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`location` text,
	`starts_at` integer NOT NULL,
	`ends_at` integer,
	`cancelled_at` integer,
	`going` integer DEFAULT 0 NOT NULL,
	`maybe` integer DEFAULT 0 NOT NULL,
	`sequence` integer DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `club_events_club_starts` ON `club_events` (`club_id`,`starts_at`,`id`);--> statement-breakpoint
ALTER TABLE `clubs` ADD `time_zone` text;--> statement-breakpoint
ALTER TABLE `notifications` ADD `event_id` integer REFERENCES club_events(id);--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_event` ON `notifications` (`event_id`,`user_id`,`kind`) WHERE event_id IS NOT NULL;