ALTER TABLE "events" ADD COLUMN "pass_reveal_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "transfers_close_at" timestamp with time zone;