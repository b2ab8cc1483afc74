ALTER TABLE "processor_requests" DROP CONSTRAINT "processor_requests_amount_positive";--> statement-breakpoint
ALTER TABLE "processor_requests" ALTER COLUMN "transaction_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "processor_requests" ALTER COLUMN "processor_reference" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "processor_requests" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "processor_requests" ADD COLUMN "retried_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "processor_requests_needs_review_idx" ON "processor_requests" USING btree ("created_at") WHERE "processor_requests"."state" = 'needs_review';--> statement-breakpoint
ALTER TABLE "processor_requests" ADD CONSTRAINT "processor_requests_redoable_has_method" CHECK ("processor_requests"."operation" in ('sale', 'authorize', 'charge_token') or ("processor_requests"."transaction_id" is not null and "processor_requests"."processor_reference" is not null));--> statement-breakpoint
ALTER TABLE "processor_requests" ADD CONSTRAINT "processor_requests_amount_positive" CHECK ("processor_requests"."amount_cents" > 0 or ("processor_requests"."amount_cents" = 0 and "processor_requests"."operation" = 'authorize'));