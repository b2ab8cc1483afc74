DROP INDEX "transactions_device_idx";--> statement-breakpoint
ALTER TABLE "branches" ADD COLUMN "callback_url" text;--> statement-breakpoint
ALTER TABLE "branches" ADD COLUMN "callback_method" text DEFAULT 'POST' NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "callback_url" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "callback_method" text DEFAULT 'POST' NOT NULL;--> statement-breakpoint
CREATE INDEX "transactions_merchant_created_idx" ON "transactions" USING btree ("merchant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "transactions_branch_created_idx" ON "transactions" USING btree ("merchant_id","branch_id","created_at","id") WHERE "transactions"."branch_id" is not null;--> statement-breakpoint
CREATE INDEX "transactions_confirmation_number_idx" ON "transactions" USING btree (("confirmation" ->> 'confirmationNumber')) WHERE "transactions"."confirmation" ->> 'confirmationNumber' is not null;--> statement-breakpoint
CREATE INDEX "transactions_last_four_idx" ON "transactions" USING btree ("merchant_id",("confirmation" ->> 'lastFourDigits'),"created_at","id") WHERE "transactions"."confirmation" ->> 'lastFourDigits' is not null;--> statement-breakpoint
CREATE INDEX "payments_confirmation_number_idx" ON "payments" USING btree ("confirmation_number") WHERE "payments"."confirmation_number" is not null;--> statement-breakpoint
CREATE INDEX "transactions_device_idx" ON "transactions" USING btree ("device_id","created_at","id") WHERE "transactions"."device_id" is not null;