ALTER TABLE "transactions" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "encoding" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "segments" smallint;