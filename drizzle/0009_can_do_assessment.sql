-- The self-assessment (decision 0018): can-do statements, which go with their level (ON DELETE
-- CASCADE), and learners' assessments with their answers, which go with the account. New tables only:
-- nothing to rewrite, safe on a running database.
CREATE TABLE "assessment" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "assessment_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"skill_levels" jsonb,
	"overall_level_code" text,
	"first_level_code" text
);
--> statement-breakpoint
CREATE TABLE "assessment_answer" (
	"assessment_id" integer NOT NULL,
	"statement_id" integer NOT NULL,
	"can" boolean NOT NULL,
	"answered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assessment_answer_assessment_id_statement_id_pk" PRIMARY KEY("assessment_id","statement_id")
);
--> statement-breakpoint
CREATE TABLE "can_do_statement" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "can_do_statement_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"level_id" integer NOT NULL,
	"skill" text NOT NULL,
	"position" integer NOT NULL,
	"text_en" text NOT NULL,
	"text_ru" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	"updated_by" text,
	CONSTRAINT "can_do_statement_skill" CHECK ("can_do_statement"."skill" in ('listening', 'reading', 'spoken-interaction', 'spoken-production', 'writing')),
	CONSTRAINT "can_do_statement_position_nonnegative" CHECK ("can_do_statement"."position" >= 0)
);
--> statement-breakpoint
ALTER TABLE "assessment" ADD CONSTRAINT "assessment_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_answer" ADD CONSTRAINT "assessment_answer_assessment_id_assessment_id_fk" FOREIGN KEY ("assessment_id") REFERENCES "public"."assessment"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_answer" ADD CONSTRAINT "assessment_answer_statement_id_can_do_statement_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."can_do_statement"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "can_do_statement" ADD CONSTRAINT "can_do_statement_level_id_language_level_id_fk" FOREIGN KEY ("level_id") REFERENCES "public"."language_level"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "assessment_in_progress_idx" ON "assessment" USING btree ("user_id") WHERE "assessment"."finished_at" is null;--> statement-breakpoint
CREATE INDEX "assessment_user_finished_idx" ON "assessment" USING btree ("user_id","finished_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "assessment_answer_statement_idx" ON "assessment_answer" USING btree ("statement_id");--> statement-breakpoint
CREATE INDEX "can_do_statement_cell_idx" ON "can_do_statement" USING btree ("level_id","skill","position");