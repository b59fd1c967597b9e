-- Cancelling an event (issue 46, decision 045): when, the organiser's words to the holders, and the cancel run's
-- progress (the last ticket whose holder was told; null once done).
ALTER TABLE "events" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "cancel_cursor" integer;