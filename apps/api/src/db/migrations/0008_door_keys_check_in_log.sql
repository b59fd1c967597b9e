CREATE TABLE "check_in_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"door_key_id" integer,
	"device_id" text,
	"holder_id" integer,
	"scanned_at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verdict" text NOT NULL,
	"offline" boolean NOT NULL,
	"user_ticket_ids" integer[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "door_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"event_ids" integer[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "door_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
ALTER TABLE "check_in_log" ADD CONSTRAINT "check_in_log_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_log" ADD CONSTRAINT "check_in_log_door_key_id_door_keys_id_fk" FOREIGN KEY ("door_key_id") REFERENCES "public"."door_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_log" ADD CONSTRAINT "check_in_log_holder_id_users_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "door_keys" ADD CONSTRAINT "door_keys_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "check_in_log_event_idx" ON "check_in_log" USING btree ("event_id","scanned_at");--> statement-breakpoint
CREATE INDEX "check_in_log_scanned_idx" ON "check_in_log" USING btree ("scanned_at");--> statement-breakpoint
CREATE INDEX "check_in_log_tickets_idx" ON "check_in_log" USING gin ("user_ticket_ids");--> statement-breakpoint
CREATE INDEX "door_keys_prefix_idx" ON "door_keys" USING btree ("prefix");--> statement-breakpoint
CREATE INDEX "door_keys_org_idx" ON "door_keys" USING btree ("organisation_id");