CREATE TABLE `released_usernames` (
	`username` text NOT NULL,
	`released_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `released_usernames_nocase` ON `released_usernames` ("username" COLLATE NOCASE);