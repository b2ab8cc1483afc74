CREATE TABLE "acquirer_reference_locks" (
	"processor" text NOT NULL,
	"reference" text NOT NULL,
	CONSTRAINT "acquirer_reference_locks_processor_reference_pk" PRIMARY KEY("processor","reference")
);
--> statement-breakpoint
CREATE TABLE "processor_notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"processor" text NOT NULL,
	"reference" text NOT NULL,
	"event" text NOT NULL,
	"success" boolean NOT NULL,
	"payment_reference" text,
	"amount_cents" bigint,
	"currency" text,
	"reason" text,
	"received_at" timestamp with time zone NOT NULL,
	"applied_at" timestamp with time zone,
	"processor_request_id" uuid
);
--> statement-breakpoint
ALTER TABLE "processor_requests" ADD COLUMN "pending_reference" text;--> statement-breakpoint
ALTER TABLE "processor_notifications" ADD CONSTRAINT "processor_notifications_processor_request_id_processor_requests_id_fk" FOREIGN KEY ("processor_request_id") REFERENCES "public"."processor_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "processor_notifications_once_idx" ON "processor_notifications" USING btree ("processor","reference","event","success");--> statement-breakpoint
CREATE INDEX "processor_notifications_unapplied_idx" ON "processor_notifications" USING btree ("processor","reference") WHERE "processor_notifications"."applied_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "processor_requests_pending_reference_idx" ON "processor_requests" USING btree ("pending_reference") WHERE "processor_requests"."pending_reference" is not null;