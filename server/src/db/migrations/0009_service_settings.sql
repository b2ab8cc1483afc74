CREATE TABLE "service_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"public_base_url" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "service_settings_single_row" CHECK ("service_settings"."id" = 1)
);
