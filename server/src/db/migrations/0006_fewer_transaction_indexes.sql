ALTER TABLE "transactions" DROP CONSTRAINT "transactions_commit_id_unique";--> statement-breakpoint
DROP INDEX "transactions_merchant_created_idx";--> statement-breakpoint
DROP INDEX "transactions_device_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_commit_id_unique" ON "transactions" USING btree ("commit_id") WHERE "transactions"."commit_id" is not null;--> statement-breakpoint
CREATE INDEX "transactions_sdk_session_idx" ON "transactions" USING btree ("sdk_session_id","created_at") WHERE "transactions"."sdk_session_id" is not null;--> statement-breakpoint
CREATE INDEX "transactions_device_idx" ON "transactions" USING btree ("device_id","created_at") WHERE "transactions"."device_id" is not null;