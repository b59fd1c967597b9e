ALTER TABLE "login_requests" ADD COLUMN "locale" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "user_ticket_benefits" ADD COLUMN "unlocked_by" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_ticket_benefits" ADD CONSTRAINT "user_ticket_benefits_unlocked_by_users_id_fk" FOREIGN KEY ("unlocked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
UPDATE "user_ticket_benefits" SET "unlocked_by" = (SELECT "holder_id" FROM "user_tickets" WHERE "user_tickets"."id" = "user_ticket_benefits"."user_ticket_id") WHERE "unlocked_at" IS NOT NULL;
