-- Issue 39, item 7: an audit entry keeps its actor's label (the API key's prefix, the member's e-mail) as it was when
-- the entry was written, so it still names who acted after the member deletes their account (decision 032). Entries
-- written before carry the label read now; those of accounts already erased keep none (their e-mail is gone).
ALTER TABLE "audit_log" ADD COLUMN "actor_label" text;--> statement-breakpoint
UPDATE "audit_log" SET "actor_label" = "organisation_api_keys"."prefix" FROM "organisation_api_keys" WHERE "audit_log"."actor_kind" = 'api_key' AND "organisation_api_keys"."id" = "audit_log"."actor_id";--> statement-breakpoint
UPDATE "audit_log" SET "actor_label" = "users"."email" FROM "users" WHERE "audit_log"."actor_kind" = 'console_member' AND "users"."id" = "audit_log"."actor_id" AND "users"."deleted_at" IS NULL;
