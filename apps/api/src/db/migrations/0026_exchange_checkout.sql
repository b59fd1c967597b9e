-- The exchange queue's checkout (decision 042 "As built (checkout)"): an offered entry carries its order id, provider session,
-- total and currency; a payout is owed for a resale order or for one exchange unit (a returned ticket sold), never both.
ALTER TABLE "payouts" ALTER COLUMN "order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "exchange_entries" ADD COLUMN "order_id" uuid;--> statement-breakpoint
ALTER TABLE "exchange_entries" ADD COLUMN "checkout_session_id" text;--> statement-breakpoint
ALTER TABLE "exchange_entries" ADD COLUMN "checkout_url" text;--> statement-breakpoint
ALTER TABLE "exchange_entries" ADD COLUMN "total_cents" integer;--> statement-breakpoint
ALTER TABLE "exchange_entries" ADD COLUMN "currency_code" text;--> statement-breakpoint
ALTER TABLE "exchange_entries" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "exchange_unit_id" integer;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_exchange_unit_id_exchange_units_id_fk" FOREIGN KEY ("exchange_unit_id") REFERENCES "public"."exchange_units"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_entries" ADD CONSTRAINT "exchange_entries_order_id_unique" UNIQUE("order_id");--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_exchange_unit_id_unique" UNIQUE("exchange_unit_id");--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_one_sale_ck" CHECK (num_nonnulls("payouts"."order_id", "payouts"."exchange_unit_id") = 1);