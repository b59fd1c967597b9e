CREATE TABLE "ticket_reminders" (
	"user_ticket_id" integer NOT NULL,
	"event_starts_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ticket_reminders_user_ticket_id_event_starts_at_pk" PRIMARY KEY("user_ticket_id","event_starts_at")
);
--> statement-breakpoint
ALTER TABLE "ticket_reminders" ADD CONSTRAINT "ticket_reminders_user_ticket_id_user_tickets_id_fk" FOREIGN KEY ("user_ticket_id") REFERENCES "public"."user_tickets"("id") ON DELETE no action ON UPDATE no action;