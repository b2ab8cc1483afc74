CREATE TABLE "authentications" (
	"id" text PRIMARY KEY NOT NULL,
	"transaction_id" uuid NOT NULL,
	"merchant_id" uuid NOT NULL,
	"sdk_session_id" uuid,
	"processor_reference" text NOT NULL,
	"request_key" text NOT NULL,
	"operation" text NOT NULL,
	"action_url" text,
	"installments" smallint DEFAULT 1 NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_status_known";--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "max_installments" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "last_decline_code" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "last_decline_processor_code" text;--> statement-breakpoint
ALTER TABLE "sdk_sessions" ADD COLUMN "max_installments" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "card_attempts" ADD COLUMN "authentication_id" text;--> statement-breakpoint
ALTER TABLE "authentications" ADD CONSTRAINT "authentications_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authentications" ADD CONSTRAINT "authentications_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "authentications_open_idx" ON "authentications" USING btree ("expires_at") WHERE "authentications"."state" in ('pending', 'completing');--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_status_known" CHECK ("transactions"."status" between 0 and 15);