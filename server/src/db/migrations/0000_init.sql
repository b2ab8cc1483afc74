CREATE TABLE "api_credentials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"branch_id" uuid,
	"device_id" uuid,
	"kind" text NOT NULL,
	"secret_hash" "bytea" NOT NULL,
	"hint" text NOT NULL,
	"allowed_origins" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_credentials_secret_hash_unique" UNIQUE("secret_hash"),
	CONSTRAINT "api_credentials_kind_scope" CHECK (
      ("api_credentials"."kind" = 'merchant_key' and "api_credentials"."branch_id" is null and "api_credentials"."device_id" is null)
      or ("api_credentials"."kind" = 'branch_key' and "api_credentials"."branch_id" is not null and "api_credentials"."device_id" is null)
      or ("api_credentials"."kind" = 'device' and "api_credentials"."branch_id" is not null and "api_credentials"."device_id" is not null)
      or ("api_credentials"."kind" = 'client' and "api_credentials"."device_id" is null)),
	CONSTRAINT "api_credentials_hash_len" CHECK (octet_length("api_credentials"."secret_hash") = 32)
);
--> statement-breakpoint
CREATE TABLE "branches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"branch_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "merchants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" integer GENERATED ALWAYS AS IDENTITY (sequence name "merchants_business_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"hmac_secret" text NOT NULL,
	"is_sandbox_demo" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "merchants_business_id_unique" UNIQUE("business_id")
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transaction_number" text NOT NULL,
	"merchant_id" uuid NOT NULL,
	"branch_id" uuid,
	"device_id" uuid,
	"method_type" text NOT NULL,
	"status" smallint NOT NULL,
	"currency" text NOT NULL,
	"amount_cents" bigint,
	"products" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"product_sum_mismatch" boolean DEFAULT false NOT NULL,
	"pos" text,
	"pos_data" jsonb,
	"phone" text,
	"email" text,
	"sms_state" text DEFAULT 'Not requested' NOT NULL,
	"callback_url" text,
	"callback_method" text DEFAULT 'POST' NOT NULL,
	"timeout_at" timestamp with time zone,
	"link_id" text NOT NULL,
	"payment_type" text,
	"confirmation" jsonb,
	"auth_status" text,
	"authorized_cents" bigint DEFAULT 0 NOT NULL,
	"captured_cents" bigint DEFAULT 0 NOT NULL,
	"released_cents" bigint DEFAULT 0 NOT NULL,
	"hold_expires_at" timestamp with time zone,
	"processor" text,
	"supports_close_auth" boolean DEFAULT false NOT NULL,
	"sdk_session_id" uuid,
	"commit_id" text,
	"commit_deadline" timestamp with time zone,
	"approved_cents" bigint,
	"committed_at" timestamp with time zone,
	"processor_reference" text,
	"sequence" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "transactions_transaction_number_unique" UNIQUE("transaction_number"),
	CONSTRAINT "transactions_link_id_unique" UNIQUE("link_id"),
	CONSTRAINT "transactions_commit_id_unique" UNIQUE("commit_id"),
	CONSTRAINT "transactions_status_known" CHECK ("transactions"."status" between 0 and 12),
	CONSTRAINT "transactions_amount_positive" CHECK ("transactions"."amount_cents" is null or "transactions"."amount_cents" > 0),
	CONSTRAINT "transactions_sequence_positive" CHECK ("transactions"."sequence" >= 1),
	CONSTRAINT "transactions_currency_known" CHECK ("transactions"."currency" in ('USD', 'CAD', 'ILS', 'EUR', 'RUB')),
	CONSTRAINT "transactions_auth_counters_non_negative" CHECK ("transactions"."authorized_cents" >= 0 and "transactions"."captured_cents" >= 0 and "transactions"."released_cents" >= 0),
	CONSTRAINT "transactions_auth_no_overdraft" CHECK ("transactions"."captured_cents" + "transactions"."released_cents" <= "transactions"."authorized_cents"),
	CONSTRAINT "transactions_auth_only_for_authorizations" CHECK ("transactions"."auth_status" is null or "transactions"."method_type" = 'authorize')
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" text NOT NULL,
	"transaction_id" uuid NOT NULL,
	"merchant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text NOT NULL,
	"confirmation_number" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payments_payment_id_unique" UNIQUE("payment_id"),
	CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "payment_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token" text NOT NULL,
	"type" text NOT NULL,
	"merchant_id" uuid NOT NULL,
	"branch_id" uuid,
	"transaction_id" uuid NOT NULL,
	"processor" text NOT NULL,
	"processor_reference" text NOT NULL,
	"payment_method" text NOT NULL,
	"last_four_digits" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_tokens_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "transaction_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transaction_id" uuid NOT NULL,
	"merchant_id" uuid NOT NULL,
	"sequence" integer NOT NULL,
	"type" text NOT NULL,
	"payload" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "transaction_events_sequence_unique" UNIQUE("transaction_id","sequence")
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"merchant_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" "bytea" NOT NULL,
	"response_status" integer NOT NULL,
	"response_body" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_merchant_id_key_pk" PRIMARY KEY("merchant_id","key")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"transaction_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"body" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_clock" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"offset_ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "sandbox_clock_single_row" CHECK ("sandbox_clock"."id" = 1),
	CONSTRAINT "sandbox_clock_forward_only" CHECK ("sandbox_clock"."offset_ms" >= 0)
);
--> statement-breakpoint
CREATE TABLE "callback_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"delivery_id" uuid NOT NULL,
	"attempt_no" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"http_status" smallint,
	"error" text,
	"duration_ms" integer,
	"finished_at" timestamp with time zone,
	CONSTRAINT "callback_attempts_no_unique" UNIQUE("delivery_id","attempt_no")
);
--> statement-breakpoint
CREATE TABLE "callback_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"transaction_id" uuid NOT NULL,
	"merchant_id" uuid NOT NULL,
	"sequence" integer NOT NULL,
	"url" text NOT NULL,
	"method" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"schedule_position" smallint DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"window_started_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "callback_deliveries_event_unique" UNIQUE("event_id"),
	CONSTRAINT "callback_deliveries_pending_has_time" CHECK ("callback_deliveries"."state" <> 'pending' or "callback_deliveries"."next_attempt_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "sdk_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"branch_id" uuid,
	"client_credential_id" uuid NOT NULL,
	"token_hash" "bytea" NOT NULL,
	"method_type" text NOT NULL,
	"mode" text NOT NULL,
	"origin" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sdk_sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "api_credentials" ADD CONSTRAINT "api_credentials_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_credentials" ADD CONSTRAINT "api_credentials_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_credentials" ADD CONSTRAINT "api_credentials_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "branches" ADD CONSTRAINT "branches_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_tokens" ADD CONSTRAINT "payment_tokens_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_tokens" ADD CONSTRAINT "payment_tokens_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_tokens" ADD CONSTRAINT "payment_tokens_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_events" ADD CONSTRAINT "transaction_events_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_events" ADD CONSTRAINT "transaction_events_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "callback_attempts" ADD CONSTRAINT "callback_attempts_delivery_id_callback_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."callback_deliveries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "callback_deliveries" ADD CONSTRAINT "callback_deliveries_event_id_transaction_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."transaction_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "callback_deliveries" ADD CONSTRAINT "callback_deliveries_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "callback_deliveries" ADD CONSTRAINT "callback_deliveries_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sdk_sessions" ADD CONSTRAINT "sdk_sessions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sdk_sessions" ADD CONSTRAINT "sdk_sessions_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sdk_sessions" ADD CONSTRAINT "sdk_sessions_client_credential_id_api_credentials_id_fk" FOREIGN KEY ("client_credential_id") REFERENCES "public"."api_credentials"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_credentials_merchant_idx" ON "api_credentials" USING btree ("merchant_id");--> statement-breakpoint
CREATE INDEX "branches_merchant_idx" ON "branches" USING btree ("merchant_id");--> statement-breakpoint
CREATE INDEX "devices_merchant_idx" ON "devices" USING btree ("merchant_id");--> statement-breakpoint
CREATE INDEX "transactions_merchant_created_idx" ON "transactions" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE INDEX "transactions_pending_timeout_idx" ON "transactions" USING btree ("timeout_at") WHERE "transactions"."status" = 1;--> statement-breakpoint
CREATE INDEX "transactions_device_idx" ON "transactions" USING btree ("device_id","created_at");--> statement-breakpoint
CREATE INDEX "transactions_active_hold_idx" ON "transactions" USING btree ("hold_expires_at") WHERE "transactions"."auth_status" = 'active';--> statement-breakpoint
CREATE INDEX "transactions_awaiting_commit_idx" ON "transactions" USING btree ("commit_deadline") WHERE "transactions"."status" = 10;--> statement-breakpoint
CREATE INDEX "payments_transaction_idx" ON "payments" USING btree ("transaction_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_tokens_transaction_idx" ON "payment_tokens" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "transaction_events_merchant_idx" ON "transaction_events" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_merchant_idx" ON "messages" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE INDEX "callback_deliveries_due_idx" ON "callback_deliveries" USING btree ("next_attempt_at") WHERE "callback_deliveries"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "callback_deliveries_transaction_idx" ON "callback_deliveries" USING btree ("transaction_id","sequence");--> statement-breakpoint
CREATE INDEX "sdk_sessions_merchant_idx" ON "sdk_sessions" USING btree ("merchant_id");