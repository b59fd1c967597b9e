-- Issue 41, point 6: how the last mail to a holder's address went (delivered, failing, bounced), shown to the
-- organiser beside the holder; a bounce (SMTP 5xx) is never retried.
ALTER TABLE "users" ADD COLUMN "email_status" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_status_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_status_detail" text;