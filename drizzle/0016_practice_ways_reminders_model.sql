-- Issue 44 (PRODUCT §13): the ways to practise, the daily reminder, the desired retention and the memory model of practice_settings; the reminders sent (one a learner and day); learner_job, the background work of a learner (their memory model).
CREATE TABLE "learner_job" (
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "learner_job_user_id_kind_pk" PRIMARY KEY("user_id","kind")
);
--> statement-breakpoint
CREATE TABLE "practice_reminder" (
	"user_id" text NOT NULL,
	"day" date NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "practice_reminder_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "ways" jsonb DEFAULT '["flashcard","type","choose","listen","gap"]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "reminder_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "reminder_hour" smallint DEFAULT 18 NOT NULL;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "desired_retention" double precision DEFAULT 0.9 NOT NULL;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "memory_model" jsonb;--> statement-breakpoint
ALTER TABLE "learner_job" ADD CONSTRAINT "learner_job_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practice_reminder" ADD CONSTRAINT "practice_reminder_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "learner_job_due_idx" ON "learner_job" USING btree ("run_after");--> statement-breakpoint
ALTER TABLE "practice_settings" ADD CONSTRAINT "practice_settings_reminder_hour" CHECK ("practice_settings"."reminder_hour" between 0 and 23);--> statement-breakpoint
ALTER TABLE "practice_settings" ADD CONSTRAINT "practice_settings_retention" CHECK ("practice_settings"."desired_retention" between 0.8 and 0.97);