-- Issue 44 (PRODUCT §13), the daily reminder: when it was turned on (it goes within 5 minutes of that when its hour has begun), the language of its email (the learner's interface language at their last save), and an index for the sweep's look-up of the learners whose hour has come.
ALTER TABLE "practice_settings" ADD COLUMN "reminder_set_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "mail_locale" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
CREATE INDEX "practice_settings_reminder_idx" ON "practice_settings" USING btree ("time_zone","reminder_hour") WHERE "practice_settings"."reminder_enabled";
