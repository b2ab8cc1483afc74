CREATE TABLE "processor_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_key" text NOT NULL,
	"transaction_id" uuid NOT NULL,
	"merchant_id" uuid NOT NULL,
	"operation" text NOT NULL,
	"processor_reference" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"idempotency_key" text,
	"state" text DEFAULT 'in_flight' NOT NULL,
	"outcome" text,
	"response_status" smallint,
	"response_body" text,
	"attempts" integer DEFAULT 1 NOT NULL,
	"lease_expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "processor_requests_request_key_unique" UNIQUE("request_key"),
	CONSTRAINT "processor_requests_amount_positive" CHECK ("processor_requests"."amount_cents" > 0),
	CONSTRAINT "processor_requests_done_has_outcome" CHECK ("processor_requests"."state" <> 'done' or ("processor_requests"."outcome" is not null and "processor_requests"."completed_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_auth_counters_non_negative";--> statement-breakpoint
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_auth_no_overdraft";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ALTER COLUMN "response_status" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ALTER COLUMN "response_body" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "capture_pending_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "commit_in_flight_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "processor_requests" ADD CONSTRAINT "processor_requests_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processor_requests" ADD CONSTRAINT "processor_requests_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "processor_requests_in_flight_idx" ON "processor_requests" USING btree ("lease_expires_at") WHERE "processor_requests"."state" = 'in_flight';--> statement-breakpoint
CREATE INDEX "processor_requests_transaction_idx" ON "processor_requests" USING btree ("transaction_id");--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_auth_counters_non_negative" CHECK ("transactions"."authorized_cents" >= 0 and "transactions"."captured_cents" >= 0 and "transactions"."released_cents" >= 0 and "transactions"."capture_pending_cents" >= 0);--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_auth_no_overdraft" CHECK ("transactions"."captured_cents" + "transactions"."released_cents" + "transactions"."capture_pending_cents" <= "transactions"."authorized_cents");