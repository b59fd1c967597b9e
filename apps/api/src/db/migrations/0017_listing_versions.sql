-- The ticket listing's cache (tickets.service.ts, decision 036) keeps each ticket's listing row and reuses it while the
-- versions (xmin) of the ticket's, its type's and its event's rows are the ones it was read at. The rows the item shows
-- beside those (held benefits, resale entries, the type's benefits) bump a counter on their parent row here, so that
-- every change to them, by any code path, makes a new version of the parent. A parent row made or already changed by
-- the same transaction is left alone: its version is already new (xmin is that transaction), and no cache can hold it.
ALTER TABLE "ticket_types" ADD COLUMN "benefits_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_tickets" ADD COLUMN "related_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- bump_parent_version(parent table, its counter column, the changed table's column naming the parent row).
CREATE FUNCTION "bump_parent_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bump text := format('UPDATE %I SET %I = %I + 1 WHERE "id" IN (SELECT %I FROM %%I) AND xmin <> pg_current_xact_id()::xid',
    TG_ARGV[0], TG_ARGV[1], TG_ARGV[1], TG_ARGV[2]);
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN EXECUTE format(bump, 'new_rows'); END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN EXECUTE format(bump, 'old_rows'); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "user_ticket_benefits_insert_version" AFTER INSERT ON "user_ticket_benefits" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_parent_version"('user_tickets', 'related_version', 'user_ticket_id');--> statement-breakpoint
CREATE TRIGGER "user_ticket_benefits_update_version" AFTER UPDATE ON "user_ticket_benefits" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_parent_version"('user_tickets', 'related_version', 'user_ticket_id');--> statement-breakpoint
CREATE TRIGGER "user_ticket_benefits_delete_version" AFTER DELETE ON "user_ticket_benefits" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_parent_version"('user_tickets', 'related_version', 'user_ticket_id');--> statement-breakpoint
CREATE TRIGGER "resale_listing_tickets_insert_version" AFTER INSERT ON "resale_listing_tickets" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_parent_version"('user_tickets', 'related_version', 'user_ticket_id');--> statement-breakpoint
CREATE TRIGGER "resale_listing_tickets_update_version" AFTER UPDATE ON "resale_listing_tickets" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_parent_version"('user_tickets', 'related_version', 'user_ticket_id');--> statement-breakpoint
CREATE TRIGGER "resale_listing_tickets_delete_version" AFTER DELETE ON "resale_listing_tickets" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_parent_version"('user_tickets', 'related_version', 'user_ticket_id');--> statement-breakpoint
CREATE TRIGGER "benefits_insert_version" AFTER INSERT ON "benefits" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_parent_version"('ticket_types', 'benefits_version', 'ticket_type_id');--> statement-breakpoint
CREATE TRIGGER "benefits_update_version" AFTER UPDATE ON "benefits" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_parent_version"('ticket_types', 'benefits_version', 'ticket_type_id');--> statement-breakpoint
CREATE TRIGGER "benefits_delete_version" AFTER DELETE ON "benefits" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_parent_version"('ticket_types', 'benefits_version', 'ticket_type_id');
