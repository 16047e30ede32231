CREATE TABLE "practice_card" (
	"user_id" text NOT NULL,
	"word_id" integer NOT NULL,
	"due" timestamp with time zone NOT NULL,
	"stability" double precision NOT NULL,
	"difficulty" double precision NOT NULL,
	"elapsed_days" integer NOT NULL,
	"scheduled_days" integer NOT NULL,
	"learning_steps" integer NOT NULL,
	"reps" integer NOT NULL,
	"lapses" integer NOT NULL,
	"state" smallint NOT NULL,
	"last_review" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "practice_card_user_id_word_id_pk" PRIMARY KEY("user_id","word_id")
);
--> statement-breakpoint
CREATE TABLE "practice_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"new_words_per_day" integer DEFAULT 10 NOT NULL,
	"daily_goal" integer DEFAULT 20 NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"fsrs_parameters" jsonb NOT NULL,
	"bridged_days" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "practice_settings_new_words" CHECK ("practice_settings"."new_words_per_day" between 0 and 100),
	CONSTRAINT "practice_settings_goal" CHECK ("practice_settings"."daily_goal" between 1 and 1000)
);
--> statement-breakpoint
CREATE TABLE "review_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "review_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text NOT NULL,
	"word_id" integer,
	"client_id" text NOT NULL,
	"rating" smallint NOT NULL,
	"state" smallint NOT NULL,
	"due" timestamp with time zone NOT NULL,
	"stability" double precision NOT NULL,
	"difficulty" double precision NOT NULL,
	"elapsed_days" integer NOT NULL,
	"last_elapsed_days" integer NOT NULL,
	"scheduled_days" integer NOT NULL,
	"learning_steps" integer NOT NULL,
	"review" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"day" date NOT NULL,
	"goal" integer NOT NULL,
	"card_before" jsonb,
	"card_after" jsonb NOT NULL,
	"undone_at" timestamp with time zone,
	CONSTRAINT "review_log_rating" CHECK ("review_log"."rating" between 1 and 4)
);
--> statement-breakpoint
CREATE TABLE "word" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "word_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"level_id" integer NOT NULL,
	"language" text NOT NULL,
	"text" text NOT NULL,
	"translation_en" text NOT NULL,
	"translation_ru" text NOT NULL,
	"example" text,
	"part_of_speech" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	"updated_by" text,
	CONSTRAINT "word_language_iso639_1" CHECK ("word"."language" ~ '^[a-z]{2}$')
);
--> statement-breakpoint
ALTER TABLE "practice_card" ADD CONSTRAINT "practice_card_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practice_card" ADD CONSTRAINT "practice_card_word_id_word_id_fk" FOREIGN KEY ("word_id") REFERENCES "public"."word"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD CONSTRAINT "practice_settings_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_log" ADD CONSTRAINT "review_log_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_log" ADD CONSTRAINT "review_log_word_id_word_id_fk" FOREIGN KEY ("word_id") REFERENCES "public"."word"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "word" ADD CONSTRAINT "word_level_id_language_level_id_fk" FOREIGN KEY ("level_id") REFERENCES "public"."language_level"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "practice_card_due_idx" ON "practice_card" USING btree ("user_id","due");--> statement-breakpoint
CREATE INDEX "practice_card_word_idx" ON "practice_card" USING btree ("word_id");--> statement-breakpoint
CREATE UNIQUE INDEX "review_log_client_idx" ON "review_log" USING btree ("user_id","client_id");--> statement-breakpoint
CREATE INDEX "review_log_day_idx" ON "review_log" USING btree ("user_id","day");--> statement-breakpoint
CREATE INDEX "review_log_latest_idx" ON "review_log" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "review_log_word_idx" ON "review_log" USING btree ("word_id");--> statement-breakpoint
CREATE UNIQUE INDEX "word_language_text_idx" ON "word" USING btree ("language",lower("text"),coalesce("part_of_speech", ''));--> statement-breakpoint
CREATE INDEX "word_level_idx" ON "word" USING btree ("level_id","id");