ALTER TABLE "comments" ADD COLUMN "removed_by" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "removed_by" text;--> statement-breakpoint
-- Hand-written backfill: who removed what was removed before this column (security-3 P3). A club's
-- post or comment whose log holds a "remove" by a member who is not site staff now was removed by
-- the club's staff; every other removal (outside a club, or no such entry) is the site's.
UPDATE posts SET removed_by = CASE WHEN club_id IS NULL OR NOT EXISTS (SELECT 1 FROM moderation_log l JOIN users u ON u.id = l.actor_id WHERE l.target_type = 'post' AND l.target_id = posts.id AND l.action = 'remove' AND u.role NOT IN ('moderator', 'admin')) THEN 'site' ELSE 'club' END WHERE removal_reason IS NOT NULL;
--> statement-breakpoint
UPDATE comments SET removed_by = CASE WHEN (SELECT p.club_id FROM posts p WHERE p.id = comments.post_id) IS NULL OR NOT EXISTS (SELECT 1 FROM moderation_log l JOIN users u ON u.id = l.actor_id WHERE l.target_type = 'comment' AND l.target_id = comments.id AND l.action = 'remove' AND u.role NOT IN ('moderator', 'admin')) THEN 'site' ELSE 'club' END WHERE removal_reason IS NOT NULL;
