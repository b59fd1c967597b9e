-- Issue 41, point 9: no remote resource in a mail. An organisation's logo travels in its e-mails as an inline PNG,
-- fetched and drawn by a background job (providers/mail/mail-logo.ts) and kept with the URL it came from.
CREATE TABLE "organisation_logos" (
	"organisation_id" integer PRIMARY KEY NOT NULL,
	"source_url" text NOT NULL,
	"png" "bytea" NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organisation_logos" ADD CONSTRAINT "organisation_logos_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;