ALTER TABLE "messages" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "html" text;--> statement-breakpoint
-- E-mails written before this migration keep the subject they were written for (a queued one is sent with it).
UPDATE "messages" SET "subject" = 'Your payment link' WHERE "channel" = 'email';--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_email_has_subject" CHECK (("messages"."channel" = 'email') = ("messages"."subject" is not null));