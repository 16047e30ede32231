CREATE TABLE "deck" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "deck_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"language" text NOT NULL,
	"description" text,
	"practise_daily" boolean DEFAULT true NOT NULL,
	"anki_id" bigint,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deck_name_length" CHECK (char_length("deck"."name") between 1 and 100),
	CONSTRAINT "deck_language_iso639_1" CHECK ("deck"."language" ~ '^[a-z]{2}$')
);
--> statement-breakpoint
CREATE TABLE "deck_note" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "deck_note_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"deck_id" integer NOT NULL,
	"user_id" text NOT NULL,
	"guid" text NOT NULL,
	"kind" text DEFAULT 'basic' NOT NULL,
	"fields" jsonb,
	"notes" text,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"image" text,
	"audio" text,
	"anki_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_job" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"size" bigint NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"result" jsonb,
	"error" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "import_upload" (
	"job_id" text NOT NULL,
	"part" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "import_upload_job_id_part_pk" PRIMARY KEY("job_id","part")
);
--> statement-breakpoint
CREATE TABLE "learner_media" (
	"user_id" text NOT NULL,
	"hash" text NOT NULL,
	"type" text NOT NULL,
	"size" integer NOT NULL,
	"name" text NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "learner_media_user_id_hash_pk" PRIMARY KEY("user_id","hash")
);
--> statement-breakpoint
DROP INDEX "word_language_text_idx";--> statement-breakpoint
ALTER TABLE "word" ALTER COLUMN "level_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "practice_card" ADD COLUMN "suspended" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "word" ADD COLUMN "deck_id" integer;--> statement-breakpoint
ALTER TABLE "word" ADD COLUMN "note_id" integer;--> statement-breakpoint
ALTER TABLE "word" ADD COLUMN "ordinal" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "word" ADD COLUMN "front_html" text;--> statement-breakpoint
ALTER TABLE "word" ADD COLUMN "back_html" text;--> statement-breakpoint
ALTER TABLE "deck" ADD CONSTRAINT "deck_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deck_note" ADD CONSTRAINT "deck_note_deck_id_deck_id_fk" FOREIGN KEY ("deck_id") REFERENCES "public"."deck"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deck_note" ADD CONSTRAINT "deck_note_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_job" ADD CONSTRAINT "import_job_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_upload" ADD CONSTRAINT "import_upload_job_id_import_job_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."import_job"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learner_media" ADD CONSTRAINT "learner_media_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deck_user_idx" ON "deck" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "deck_user_anki_idx" ON "deck" USING btree ("user_id","anki_id") WHERE "deck"."anki_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "deck_note_guid_idx" ON "deck_note" USING btree ("user_id","guid");--> statement-breakpoint
CREATE INDEX "deck_note_deck_idx" ON "deck_note" USING btree ("deck_id","id");--> statement-breakpoint
CREATE INDEX "import_job_user_idx" ON "import_job" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "import_job_waiting_idx" ON "import_job" USING btree ("created_at") WHERE "import_job"."status" in ('queued', 'running');--> statement-breakpoint
ALTER TABLE "word" ADD CONSTRAINT "word_deck_id_deck_id_fk" FOREIGN KEY ("deck_id") REFERENCES "public"."deck"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "word" ADD CONSTRAINT "word_note_id_deck_note_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."deck_note"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "word_deck_idx" ON "word" USING btree ("deck_id","id") WHERE "word"."deck_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "word_note_idx" ON "word" USING btree ("note_id","ordinal") WHERE "word"."note_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "word_language_text_idx" ON "word" USING btree ("language",lower("text"),coalesce("part_of_speech", '')) WHERE "word"."level_id" is not null;--> statement-breakpoint
ALTER TABLE "word" ADD CONSTRAINT "word_course_or_deck" CHECK (("word"."level_id" is null) <> ("word"."deck_id" is null and "word"."note_id" is null));