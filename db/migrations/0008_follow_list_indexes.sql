DROP INDEX `follows_followee`;--> statement-breakpoint
CREATE INDEX `follows_follower` ON `follows` (`follower_id`,`created_at`,`followee_id`);--> statement-breakpoint
CREATE INDEX `follows_followee` ON `follows` (`followee_id`,`created_at`,`follower_id`);