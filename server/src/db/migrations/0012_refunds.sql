CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"refund_id" text NOT NULL,
	"transaction_id" uuid NOT NULL,
	"merchant_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"description" text,
	"failure_code" text,
	"processor_request_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "refunds_refund_id_unique" UNIQUE("refund_id"),
	CONSTRAINT "refunds_processor_request_id_unique" UNIQUE("processor_request_id"),
	CONSTRAINT "refunds_amount_positive" CHECK ("refunds"."amount_cents" > 0),
	CONSTRAINT "refunds_status_known" CHECK ("refunds"."status" in ('pending', 'succeeded', 'failed')),
	CONSTRAINT "refunds_failure_has_code" CHECK (("refunds"."status" = 'failed') = ("refunds"."failure_code" is not null))
);
--> statement-breakpoint
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_status_known";--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "refunded_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "refunds_in_flight_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_processor_request_id_processor_requests_id_fk" FOREIGN KEY ("processor_request_id") REFERENCES "public"."processor_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_transaction_idx" ON "refunds" USING btree ("transaction_id","created_at");--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_refunds_non_negative" CHECK ("transactions"."refunded_cents" >= 0 and "transactions"."refunds_in_flight_cents" >= 0);--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_refunds_within_settled" CHECK ("transactions"."refunded_cents" + "transactions"."refunds_in_flight_cents" <= (case when "transactions"."method_type" = 'authorize' then "transactions"."captured_cents" else coalesce("transactions"."amount_cents", 0) end));--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_status_known" CHECK ("transactions"."status" between 0 and 14);