CREATE TABLE "ticket_scans" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_ticket_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"direction" text NOT NULL,
	"zone" text,
	"day" text NOT NULL,
	"door_key_id" integer,
	"offline" boolean NOT NULL
);
--> statement-breakpoint
ALTER TABLE "door_keys" ADD COLUMN "mode" text DEFAULT 'entry' NOT NULL;--> statement-breakpoint
ALTER TABLE "door_keys" ADD COLUMN "zone" text;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "entry_rules" jsonb;--> statement-breakpoint
ALTER TABLE "ticket_scans" ADD CONSTRAINT "ticket_scans_user_ticket_id_user_tickets_id_fk" FOREIGN KEY ("user_ticket_id") REFERENCES "public"."user_tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_scans" ADD CONSTRAINT "ticket_scans_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_scans" ADD CONSTRAINT "ticket_scans_door_key_id_door_keys_id_fk" FOREIGN KEY ("door_key_id") REFERENCES "public"."door_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_scans_ticket_idx" ON "ticket_scans" USING btree ("user_ticket_id","at");--> statement-breakpoint
CREATE INDEX "ticket_scans_event_idx" ON "ticket_scans" USING btree ("event_id","day");--> statement-breakpoint
INSERT INTO "ticket_scans" ("user_ticket_id", "event_id", "at", "direction", "zone", "day", "door_key_id", "offline")
SELECT ut."id", tt."event_id", ut."event_access_used_at", 'in', NULL,
	to_char(ut."event_access_used_at" AT TIME ZONE e."time_zone", 'YYYY-MM-DD'), NULL, false
FROM "user_tickets" ut
JOIN "ticket_types" tt ON tt."id" = ut."ticket_type_id"
JOIN "events" e ON e."id" = tt."event_id"
WHERE ut."event_access_used_at" IS NOT NULL
ORDER BY ut."event_access_used_at", ut."id";
--> statement-breakpoint
CREATE TRIGGER "ticket_scans_insert_version" AFTER INSERT ON "ticket_scans" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_parent_version"('user_tickets', 'related_version', 'user_ticket_id');
