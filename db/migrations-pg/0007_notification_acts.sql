CREATE TABLE "notification_acts" (
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"actor_id" integer NOT NULL,
	"subject" text NOT NULL,
	"told_at" bigint NOT NULL,
	CONSTRAINT "notification_acts_user_id_kind_actor_id_subject_pk" PRIMARY KEY("user_id","kind","actor_id","subject")
);
--> statement-breakpoint
DROP INDEX "notifications_unread";--> statement-breakpoint
ALTER TABLE "notification_acts" ADD CONSTRAINT "notification_acts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_acts" ADD CONSTRAINT "notification_acts_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_acts_told" ON "notification_acts" USING btree ("told_at");--> statement-breakpoint
CREATE INDEX "notifications_unread" ON "notifications" USING btree ("user_id","id","post_id","kind","read_at") WHERE read_at IS NULL;