CREATE TABLE "incoming_shares" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" integer,
	"title" text,
	"text" text,
	"url" text,
	"files" jsonb NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "incoming_shares" ADD CONSTRAINT "incoming_shares_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "incoming_shares_created" ON "incoming_shares" USING btree ("created_at");