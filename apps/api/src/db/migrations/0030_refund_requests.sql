CREATE TABLE "refund_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"organisation_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"user_ticket_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"decline_reason" text,
	"reference" text,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "rescheduled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "refund_policy" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "refund_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "refund_deadline" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "reschedule_threshold_minutes" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_user_ticket_id_user_tickets_id_fk" FOREIGN KEY ("user_ticket_id") REFERENCES "public"."user_tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refund_requests_pending_uq" ON "refund_requests" USING btree ("user_ticket_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "refund_requests_org_status_idx" ON "refund_requests" USING btree ("organisation_id","status","created_at");--> statement-breakpoint
CREATE INDEX "refund_requests_ticket_idx" ON "refund_requests" USING btree ("user_ticket_id");