-- The queue reads a learner's first due cards in order (due, then word) from the index, not sorting every due card; the day's new words are counted without reading its reviews (docs/decisions/0019-practice.md).
DROP INDEX "practice_card_due_idx";--> statement-breakpoint
CREATE INDEX "review_log_new_idx" ON "review_log" USING btree ("user_id","day") WHERE "review_log"."card_before" is null;--> statement-breakpoint
CREATE INDEX "practice_card_due_idx" ON "practice_card" USING btree ("user_id","due","word_id");