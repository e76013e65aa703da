DROP INDEX `notifications_unread`;--> statement-breakpoint
ALTER TABLE `notifications` ADD `case_id` integer REFERENCES moderation_cases(id) ON DELETE cascade;--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_case` ON `notifications` (`case_id`,`user_id`) WHERE case_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `notifications_unread` ON `notifications` (`user_id`,`id`,`post_id`,`kind`,`read_at`,`club_id`) WHERE read_at IS NULL;--> statement-breakpoint
ALTER TABLE `moderation_log` ADD `subject_id` integer;--> statement-breakpoint
CREATE INDEX `moderation_log_subject` ON `moderation_log` (`subject_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `moderation_cases_subject` ON `moderation_cases` (`subject_id`);
--> statement-breakpoint
-- The decisions logged before subject_id: whose the target is now (ux-3 U23; a deleted post or comment stays unknown).
UPDATE `moderation_log` SET `subject_id` = `target_id` WHERE `target_type` = 'user';--> statement-breakpoint
UPDATE `moderation_log` SET `subject_id` = (SELECT `author_id` FROM `posts` WHERE `posts`.`id` = `moderation_log`.`target_id`) WHERE `target_type` = 'post';--> statement-breakpoint
UPDATE `moderation_log` SET `subject_id` = (SELECT `author_id` FROM `comments` WHERE `comments`.`id` = `moderation_log`.`target_id`) WHERE `target_type` = 'comment';
