ALTER TABLE "word" ADD COLUMN "practised" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The deck cards their owners already have a practice card of (docs/decisions/0032-decks.md).
UPDATE "word" SET "practised" = true WHERE "deck_id" IS NOT NULL AND EXISTS (SELECT 1 FROM "practice_card" WHERE "practice_card"."word_id" = "word"."id");--> statement-breakpoint
CREATE INDEX "word_deck_new_idx" ON "word" USING btree ("deck_id","id") WHERE "word"."deck_id" is not null and not "word"."practised";
