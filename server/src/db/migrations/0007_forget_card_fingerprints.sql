-- Until now a request's fingerprint (request_hash) was a SHA-256 of its whole body, card included: with the payment
-- link and the last four digits, the card could be recovered from it. From this version no fingerprint is a function of
-- card data (http/idempotency.ts), expired keys are deleted by the expiry worker (through the index made here), and the
-- fingerprints already taken over a card are deleted below.
--
-- Which: those of every key filed by a payment link ("link:<link id> <key>", POST /pay/:linkId) or an SDK session
-- ("session:<session id> <key>", its payments), the two places a consumer's card is sent. The fingerprint is set to
-- null, which the service reads as "the key alone recognises its request" until the key expires (within 24 hours): a
-- retry still gets its answer (which holds no card data) and never pays a second time, as it could if the rows were
-- deleted. The keys of merchant credentials keep their fingerprints: no merchant request carries a card, except the
-- sandbox terminal's tap, whose card is one of the sandbox's public test numbers, not anyone's card; forgetting them
-- all would let a capture retried under its key during the next day run twice.
ALTER TABLE "idempotency_keys" ALTER COLUMN "request_hash" DROP NOT NULL;--> statement-breakpoint
UPDATE "idempotency_keys" SET "request_hash" = NULL WHERE "key" LIKE 'link:%' OR "key" LIKE 'session:%';--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_at_idx" ON "idempotency_keys" USING btree ("expires_at");