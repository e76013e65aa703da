ALTER TABLE `moderation_cases` ADD `decision` text;--> statement-breakpoint
ALTER TABLE `moderation_cases` ADD `decided_by` text;