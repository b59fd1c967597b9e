-- Organisations paid for the tickets they release into their exchange queue (decision 042 "As built (organisation payouts)"):
-- their own payout account, and a payout owed to a holder or to an organisation, never both.
CREATE TABLE "organisation_payout_accounts" (
	"organisation_id" integer PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"external_id" text NOT NULL,
	"country" text,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verified_at" timestamp with time zone,
	CONSTRAINT "organisation_payout_accounts_external_id_unique" UNIQUE("external_id")
);
--> statement-breakpoint
ALTER TABLE "payouts" ALTER COLUMN "seller_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "organisation_id" integer;--> statement-breakpoint
ALTER TABLE "organisation_payout_accounts" ADD CONSTRAINT "organisation_payout_accounts_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payouts_organisation_idx" ON "payouts" USING btree ("organisation_id");--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_one_payee_ck" CHECK (num_nonnulls("payouts"."seller_id", "payouts"."organisation_id") = 1);