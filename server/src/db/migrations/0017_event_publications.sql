CREATE TABLE "event_publications" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"notice" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_publications" ADD CONSTRAINT "event_publications_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_publications_created_idx" ON "event_publications" USING btree ("created_at");