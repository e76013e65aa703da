CREATE TABLE `upload_locks` (
	`upload_id` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL,
	`release_requested_at` integer
);
