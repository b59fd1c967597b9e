CREATE TABLE "ticket_imports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"status" text NOT NULL,
	"event_ids" jsonb NOT NULL,
	"actor" jsonb NOT NULL,
	"rows_total" integer NOT NULL,
	"head_rows" integer,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"rows" jsonb,
	"errors" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ticket_imports" ADD CONSTRAINT "ticket_imports_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_imports_org_status_idx" ON "ticket_imports" USING btree ("organisation_id","status");