-- Issue 41, point 9: a holder can turn reminder e-mails off (the reminder's one-click List-Unsubscribe, RFC 8058,
-- or the panel's settings); null while reminders are on, so every existing holder keeps getting them.
ALTER TABLE "users" ADD COLUMN "reminders_off_at" timestamp with time zone;
