-- Payments that go back (issue 46, decision 044): a ticket's reason for not admitting beside the organiser's revoke,
-- the provider's payment id on paid orders and offers (how a refund or dispute finds them), the refunds and disputes
-- recorded, and the payments that match no order as they stand (flagged for the operator).
CREATE TABLE "payment_mismatches" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_event_id" text NOT NULL,
	"kind" text,
	"order_id" uuid,
	"session_id" text,
	"payment_intent_id" text,
	"amount_cents" integer,
	"currency_code" text,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolution" text,
	CONSTRAINT "payment_mismatches_provider_event_id_unique" UNIQUE("provider_event_id")
);
--> statement-breakpoint
CREATE TABLE "payment_reversals" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"order_id" uuid NOT NULL,
	"provider_ref" text NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "exchange_entries" ADD COLUMN "payment_intent_id" text;--> statement-breakpoint
ALTER TABLE "resale_orders" ADD COLUMN "payment_intent_id" text;--> statement-breakpoint
ALTER TABLE "user_tickets" ADD COLUMN "revoked_reason" text;--> statement-breakpoint
CREATE INDEX "payment_mismatches_open_idx" ON "payment_mismatches" USING btree ("created_at") WHERE resolved_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_reversals_ref_uq" ON "payment_reversals" USING btree ("provider_ref");--> statement-breakpoint
CREATE INDEX "payment_reversals_order_idx" ON "payment_reversals" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "exchange_entries" ADD CONSTRAINT "exchange_entries_payment_intent_id_unique" UNIQUE("payment_intent_id");--> statement-breakpoint
ALTER TABLE "resale_orders" ADD CONSTRAINT "resale_orders_payment_intent_id_unique" UNIQUE("payment_intent_id");