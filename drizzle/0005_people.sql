-- Trigram indexes for the people search (PostgreSQL's contrib; trusted, so the database owner may create it;
-- PGlite loads it in db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "last_sign_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "last_active_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "user_created_at_idx" ON "user" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "user_last_sign_in_at_idx" ON "user" USING btree ("last_sign_in_at" DESC NULLS LAST,"id" DESC);--> statement-breakpoint
CREATE INDEX "user_last_active_at_idx" ON "user" USING btree ("last_active_at");--> statement-breakpoint
CREATE INDEX "user_name_sort_idx" ON "user" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "user_email_sort_idx" ON "user" USING btree ("email","id");--> statement-breakpoint
CREATE INDEX "user_name_prefix_idx" ON "user" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "user_email_prefix_idx" ON "user" USING btree (lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "user_name_trgm_idx" ON "user" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "user_email_trgm_idx" ON "user" USING gin (lower("email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "user_admin_idx" ON "user" USING btree ("id") WHERE "user"."role" = 'admin';--> statement-breakpoint
CREATE INDEX "user_disabled_idx" ON "user" USING btree ("id") WHERE "user"."banned";--> statement-breakpoint
CREATE INDEX "user_unconfirmed_idx" ON "user" USING btree ("id") WHERE not "user"."email_verified";--> statement-breakpoint
-- The accounts that signed in before these columns existed: from their sessions still kept.
UPDATE "user" SET
  "last_sign_in_at" = (SELECT max("created_at") FROM "session" WHERE "session"."user_id" = "user"."id"),
  "last_active_at" = (SELECT max("updated_at") FROM "session" WHERE "session"."user_id" = "user"."id");