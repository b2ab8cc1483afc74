CREATE TABLE "merchant_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"position" bigint GENERATED ALWAYS AS IDENTITY (sequence name "merchant_events_position_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" uuid NOT NULL,
	"type" text NOT NULL,
	"transaction_id" uuid NOT NULL,
	"transaction_event_id" uuid NOT NULL,
	"refund" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"url" text NOT NULL,
	"enabled_events" text[] NOT NULL,
	"description" text,
	"secret" text NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "callback_deliveries" DROP CONSTRAINT "callback_deliveries_event_unique";--> statement-breakpoint
ALTER TABLE "callback_deliveries" ADD COLUMN "endpoint_id" uuid;--> statement-breakpoint
ALTER TABLE "callback_deliveries" ADD COLUMN "merchant_event_id" uuid;--> statement-breakpoint
ALTER TABLE "merchant_events" ADD CONSTRAINT "merchant_events_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchant_events" ADD CONSTRAINT "merchant_events_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchant_events" ADD CONSTRAINT "merchant_events_transaction_event_id_transaction_events_id_fk" FOREIGN KEY ("transaction_event_id") REFERENCES "public"."transaction_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "merchant_events_log_idx" ON "merchant_events" USING btree ("merchant_id","position");--> statement-breakpoint
CREATE INDEX "merchant_events_transaction_event_idx" ON "merchant_events" USING btree ("transaction_event_id");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_merchant_idx" ON "webhook_endpoints" USING btree ("merchant_id") WHERE "webhook_endpoints"."deleted_at" is null;--> statement-breakpoint
ALTER TABLE "callback_deliveries" ADD CONSTRAINT "callback_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "callback_deliveries" ADD CONSTRAINT "callback_deliveries_merchant_event_id_merchant_events_id_fk" FOREIGN KEY ("merchant_event_id") REFERENCES "public"."merchant_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "callback_deliveries_event_unique" ON "callback_deliveries" USING btree ("event_id") WHERE "callback_deliveries"."endpoint_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "callback_deliveries_endpoint_event_unique" ON "callback_deliveries" USING btree ("merchant_event_id","endpoint_id") WHERE "callback_deliveries"."endpoint_id" is not null;--> statement-breakpoint
ALTER TABLE "callback_deliveries" ADD CONSTRAINT "callback_deliveries_endpoint_has_event" CHECK (("callback_deliveries"."endpoint_id" is null) = ("callback_deliveries"."merchant_event_id" is null));