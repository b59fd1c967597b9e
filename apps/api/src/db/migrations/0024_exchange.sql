CREATE SEQUENCE "public"."exchange_entry_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "exchange_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"ticket_type_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"status" text NOT NULL,
	"seq" bigint,
	"passed_over" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"offered_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "exchange_settings" (
	"event_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"offer_minutes" integer NOT NULL,
	"order" text NOT NULL,
	"draw_at" timestamp with time zone,
	"draw_seed" text,
	"drawn_at" timestamp with time zone,
	"max_quantity" integer NOT NULL,
	"closes_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exchange_units" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"ticket_type_id" integer NOT NULL,
	"user_ticket_id" integer,
	"seller_user_id" integer,
	"organisation_id" integer,
	"price_cents" integer NOT NULL,
	"currency_code" text NOT NULL,
	"status" text NOT NULL,
	"entry_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "exchange_entries" ADD CONSTRAINT "exchange_entries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_entries" ADD CONSTRAINT "exchange_entries_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_entries" ADD CONSTRAINT "exchange_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_settings" ADD CONSTRAINT "exchange_settings_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_units" ADD CONSTRAINT "exchange_units_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_units" ADD CONSTRAINT "exchange_units_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_units" ADD CONSTRAINT "exchange_units_user_ticket_id_user_tickets_id_fk" FOREIGN KEY ("user_ticket_id") REFERENCES "public"."user_tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_units" ADD CONSTRAINT "exchange_units_seller_user_id_users_id_fk" FOREIGN KEY ("seller_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_units" ADD CONSTRAINT "exchange_units_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_units" ADD CONSTRAINT "exchange_units_entry_id_exchange_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."exchange_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_entries_open_uq" ON "exchange_entries" USING btree ("user_id","ticket_type_id") WHERE status in ('WAITING', 'OFFERED');--> statement-breakpoint
CREATE INDEX "exchange_entries_type_status_seq_idx" ON "exchange_entries" USING btree ("ticket_type_id","status","seq");--> statement-breakpoint
CREATE INDEX "exchange_entries_user_idx" ON "exchange_entries" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_units_live_ticket_uq" ON "exchange_units" USING btree ("user_ticket_id") WHERE status in ('AVAILABLE', 'HELD', 'RESERVED');--> statement-breakpoint
CREATE INDEX "exchange_units_type_status_idx" ON "exchange_units" USING btree ("ticket_type_id","status");--> statement-breakpoint
CREATE INDEX "exchange_units_entry_idx" ON "exchange_units" USING btree ("entry_id");