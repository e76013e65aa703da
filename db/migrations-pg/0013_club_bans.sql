CREATE TABLE "club_bans" (
	"club_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"until" bigint NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL,
	CONSTRAINT "club_bans_club_id_user_id_pk" PRIMARY KEY("club_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "club_bans" ADD CONSTRAINT "club_bans_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "club_bans" ADD CONSTRAINT "club_bans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Written by `npm run db:generate` from UNCOUNTED_TABLES and UNCOUNTED_COLUMNS (app/utils/db/data-version.server.ts):
-- the data-version triggers of the tables and columns a page shows.
CREATE TRIGGER "club_bans_data_version" AFTER INSERT OR UPDATE OR DELETE ON "club_bans" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
