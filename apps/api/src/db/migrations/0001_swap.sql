CREATE TABLE "swap_pairs" (
	"id" serial PRIMARY KEY NOT NULL,
	"from_ticket_type_id" integer NOT NULL,
	"to_ticket_type_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "swaps" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"swap_pair_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"swap_type" text NOT NULL,
	"difference_cents" integer NOT NULL,
	"currency_code" text NOT NULL,
	"status" text NOT NULL,
	"redirect_url" text,
	"paid_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "swap_pairs" ADD CONSTRAINT "swap_pairs_from_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("from_ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_pairs" ADD CONSTRAINT "swap_pairs_to_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("to_ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swaps" ADD CONSTRAINT "swaps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swaps" ADD CONSTRAINT "swaps_swap_pair_id_swap_pairs_id_fk" FOREIGN KEY ("swap_pair_id") REFERENCES "public"."swap_pairs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "swap_pairs_uq" ON "swap_pairs" USING btree ("from_ticket_type_id","to_ticket_type_id");--> statement-breakpoint
CREATE INDEX "swaps_pair_status_idx" ON "swaps" USING btree ("swap_pair_id","status");