CREATE TABLE "payout_accounts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"external_id" text NOT NULL,
	"country" text,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verified_at" timestamp with time zone,
	CONSTRAINT "payout_accounts_external_id_unique" UNIQUE("external_id")
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"seller_id" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency_code" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payouts_order_id_unique" UNIQUE("order_id")
);
--> statement-breakpoint
CREATE TABLE "resale_listing_tickets" (
	"listing_id" integer NOT NULL,
	"user_ticket_id" integer NOT NULL,
	"status" text NOT NULL,
	CONSTRAINT "resale_listing_tickets_listing_id_user_ticket_id_pk" PRIMARY KEY("listing_id","user_ticket_id")
);
--> statement-breakpoint
CREATE TABLE "resale_listings" (
	"id" serial PRIMARY KEY NOT NULL,
	"seller_id" integer NOT NULL,
	"ticket_type_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"sold_quantity" integer DEFAULT 0 NOT NULL,
	"price_cents" integer NOT NULL,
	"fee_cents" integer NOT NULL,
	"currency_code" text NOT NULL,
	"status" text NOT NULL,
	"share_token" text NOT NULL,
	"idempotency_key" text,
	"listed_at" timestamp with time zone NOT NULL,
	"sold_at" timestamp with time zone,
	"delisted_at" timestamp with time zone,
	CONSTRAINT "resale_listings_share_token_unique" UNIQUE("share_token")
);
--> statement-breakpoint
CREATE TABLE "resale_order_tickets" (
	"order_id" uuid NOT NULL,
	"user_ticket_id" integer NOT NULL,
	CONSTRAINT "resale_order_tickets_order_id_user_ticket_id_pk" PRIMARY KEY("order_id","user_ticket_id")
);
--> statement-breakpoint
CREATE TABLE "resale_orders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"listing_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"buyer_email" text NOT NULL,
	"locale" text NOT NULL,
	"total_cents" integer NOT NULL,
	"fee_cents" integer NOT NULL,
	"currency_code" text NOT NULL,
	"status" text NOT NULL,
	"idempotency_key" text,
	"checkout_session_id" text,
	"code_hash" text,
	"redeemed_at" timestamp with time zone,
	"redeemed_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "resale_orders_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "resale_orders_code_hash_unique" UNIQUE("code_hash")
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payout_accounts" ADD CONSTRAINT "payout_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_order_id_resale_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."resale_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_listing_tickets" ADD CONSTRAINT "resale_listing_tickets_listing_id_resale_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."resale_listings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_listing_tickets" ADD CONSTRAINT "resale_listing_tickets_user_ticket_id_user_tickets_id_fk" FOREIGN KEY ("user_ticket_id") REFERENCES "public"."user_tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_listings" ADD CONSTRAINT "resale_listings_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_listings" ADD CONSTRAINT "resale_listings_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_order_tickets" ADD CONSTRAINT "resale_order_tickets_order_id_resale_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."resale_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_order_tickets" ADD CONSTRAINT "resale_order_tickets_user_ticket_id_user_tickets_id_fk" FOREIGN KEY ("user_ticket_id") REFERENCES "public"."user_tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_orders" ADD CONSTRAINT "resale_orders_listing_id_resale_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."resale_listings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_orders" ADD CONSTRAINT "resale_orders_redeemed_by_users_id_fk" FOREIGN KEY ("redeemed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "resale_listing_tickets_live_uq" ON "resale_listing_tickets" USING btree ("user_ticket_id") WHERE status = 'LISTED';--> statement-breakpoint
CREATE UNIQUE INDEX "resale_listings_idem_uq" ON "resale_listings" USING btree ("seller_id","idempotency_key");