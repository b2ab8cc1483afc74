CREATE TABLE "card_attempt_windows" (
	"key" text PRIMARY KEY NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "card_attempt_windows_claimed_at_idx" ON "card_attempt_windows" USING btree ("claimed_at");