CREATE TABLE "organisation_api_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "organisation_api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "latitude" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "longitude" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "benefits" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "primary_color" text;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "help_center_url" text;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "app_url" text;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "organisation_id" integer;--> statement-breakpoint
UPDATE "ticket_types" SET "organisation_id" = "events"."organisation_id" FROM "events" WHERE "events"."id" = "ticket_types"."event_id";--> statement-breakpoint
ALTER TABLE "ticket_types" ALTER COLUMN "organisation_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "user_tickets" ADD COLUMN "organisation_id" integer;--> statement-breakpoint
UPDATE "user_tickets" SET "organisation_id" = "ticket_types"."organisation_id" FROM "ticket_types" WHERE "ticket_types"."id" = "user_tickets"."ticket_type_id";--> statement-breakpoint
ALTER TABLE "user_tickets" ALTER COLUMN "organisation_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "user_tickets" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "user_tickets" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organisation_api_keys" ADD CONSTRAINT "organisation_api_keys_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "organisation_api_keys_prefix_idx" ON "organisation_api_keys" USING btree ("prefix");--> statement-breakpoint
CREATE INDEX "organisation_api_keys_org_idx" ON "organisation_api_keys" USING btree ("organisation_id");--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_tickets" ADD CONSTRAINT "user_tickets_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "benefits_type_external_uq" ON "benefits" USING btree ("ticket_type_id","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "events_org_external_uq" ON "events" USING btree ("organisation_id","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_types_org_external_uq" ON "ticket_types" USING btree ("organisation_id","external_id");--> statement-breakpoint
CREATE INDEX "user_tickets_type_idx" ON "user_tickets" USING btree ("ticket_type_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_tickets_org_external_uq" ON "user_tickets" USING btree ("organisation_id","external_id");