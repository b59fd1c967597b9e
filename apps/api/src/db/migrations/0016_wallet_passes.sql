CREATE TABLE "wallet_apple_registrations" (
	"device_library_identifier" text NOT NULL,
	"serial_number" text NOT NULL,
	"push_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_apple_registrations_device_library_identifier_serial_number_pk" PRIMARY KEY("device_library_identifier","serial_number")
);
--> statement-breakpoint
CREATE TABLE "wallet_passes" (
	"serial_number" text PRIMARY KEY NOT NULL,
	"user_ticket_id" integer NOT NULL,
	"holder_id" integer NOT NULL,
	"authentication_token" text NOT NULL,
	"totp_secret" text NOT NULL,
	"google_object_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"voided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "wallet_apple_registrations" ADD CONSTRAINT "wallet_apple_registrations_serial_number_wallet_passes_serial_number_fk" FOREIGN KEY ("serial_number") REFERENCES "public"."wallet_passes"("serial_number") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD CONSTRAINT "wallet_passes_user_ticket_id_user_tickets_id_fk" FOREIGN KEY ("user_ticket_id") REFERENCES "public"."user_tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD CONSTRAINT "wallet_passes_holder_id_users_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wallet_apple_registrations_serial_idx" ON "wallet_apple_registrations" USING btree ("serial_number");--> statement-breakpoint
CREATE INDEX "wallet_passes_ticket_idx" ON "wallet_passes" USING btree ("user_ticket_id");