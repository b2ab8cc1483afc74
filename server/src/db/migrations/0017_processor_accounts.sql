CREATE TABLE "processor_accounts" (
	"merchant_id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"hint" text NOT NULL,
	"sealed_credentials" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "processor_accounts_kind" CHECK ("processor_accounts"."kind" in ('stripe', 'adyen'))
);
--> statement-breakpoint
ALTER TABLE "processor_accounts" ADD CONSTRAINT "processor_accounts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;