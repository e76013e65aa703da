CREATE TABLE "job_runs" (
	"name" text PRIMARY KEY NOT NULL,
	"runs" integer DEFAULT 0 NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_started_at" bigint,
	"last_finished_at" bigint,
	"last_duration_ms" integer,
	"last_error" text,
	"last_failed_at" bigint
);
