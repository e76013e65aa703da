CREATE TABLE "field_reports" (
	"post_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"kind" text NOT NULL,
	"county" text NOT NULL,
	"observed_on" text NOT NULL,
	"rut_phase" text,
	"bucks" integer,
	"does" integer,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL,
	CONSTRAINT "field_reports_post_id_pk" PRIMARY KEY("post_id")
);
--> statement-breakpoint
ALTER TABLE "field_reports" ADD CONSTRAINT "field_reports_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "field_reports" ADD CONSTRAINT "field_reports_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "field_reports_pulse" ON "field_reports" USING btree ("observed_on","county","author_id","post_id");--> statement-breakpoint
CREATE INDEX "field_reports_county" ON "field_reports" USING btree ("county","observed_on");--> statement-breakpoint
CREATE INDEX "field_reports_author" ON "field_reports" USING btree ("author_id","observed_on");
--> statement-breakpoint
-- Written by `npm run db:generate` from UNCOUNTED_TABLES and UNCOUNTED_COLUMNS (app/utils/db/data-version.server.ts):
-- the data-version triggers of the tables and columns a page shows.
CREATE TRIGGER "field_reports_data_version" AFTER INSERT OR UPDATE OR DELETE ON "field_reports" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
