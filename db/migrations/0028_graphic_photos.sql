ALTER TABLE `posts` ADD `sensitive` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `blur_graphic` integer DEFAULT true NOT NULL;