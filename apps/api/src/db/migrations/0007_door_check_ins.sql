CREATE TABLE "door_check_ins" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"holder_id" integer,
	"scanned_at" timestamp with time zone NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"admitted_ids" integer[] NOT NULL,
	"conflicts" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "door_check_ins" ADD CONSTRAINT "door_check_ins_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "door_check_ins" ADD CONSTRAINT "door_check_ins_holder_id_users_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "door_check_ins_event_idx" ON "door_check_ins" USING btree ("event_id","synced_at");