CREATE TABLE "card_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject" text NOT NULL,
	"client_address" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "card_attempts_subject_idx" ON "card_attempts" USING btree ("subject","attempted_at");--> statement-breakpoint
CREATE INDEX "card_attempts_address_idx" ON "card_attempts" USING btree ("client_address","attempted_at");--> statement-breakpoint
CREATE INDEX "card_attempts_attempted_at_idx" ON "card_attempts" USING btree ("attempted_at");