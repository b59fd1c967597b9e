-- The ticket listing's cache (tickets.service.ts, decision 036) keeps each ticket's listing row and reuses it while the
-- versions (xmin) of the ticket's, its type's and its event's rows are the ones it was read at. The rows the item shows
-- beside those (held benefits, resale entries, the type's benefits) bump a counter on their parent row here, so that
-- every change to them, by any code path, makes a new version of the parent. A parent row made or already changed by
-- the same transaction is left alone: its version is already new (xmin is that transaction), and no cache can hold it.
ALTER TABLE "ticket_types" ADD COLUMN "benefits_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_tickets" ADD COLUMN "related_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE FUNCTION "bump_user_ticket_related_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE "user_tickets" SET "related_version" = "related_version" + 1
    WHERE "id" IN (SELECT "user_ticket_id" FROM "new_rows") AND xmin <> pg_current_xact_id()::xid;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "user_tickets" SET "related_version" = "related_version" + 1
    WHERE "id" IN (SELECT "user_ticket_id" FROM "old_rows") AND xmin <> pg_current_xact_id()::xid;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "bump_ticket_type_benefits_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE "ticket_types" SET "benefits_version" = "benefits_version" + 1
    WHERE "id" IN (SELECT "ticket_type_id" FROM "new_rows") AND xmin <> pg_current_xact_id()::xid;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "ticket_types" SET "benefits_version" = "benefits_version" + 1
    WHERE "id" IN (SELECT "ticket_type_id" FROM "old_rows") AND xmin <> pg_current_xact_id()::xid;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "user_ticket_benefits_insert_version" AFTER INSERT ON "user_ticket_benefits" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_user_ticket_related_version"();--> statement-breakpoint
CREATE TRIGGER "user_ticket_benefits_update_version" AFTER UPDATE ON "user_ticket_benefits" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_user_ticket_related_version"();--> statement-breakpoint
CREATE TRIGGER "user_ticket_benefits_delete_version" AFTER DELETE ON "user_ticket_benefits" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_user_ticket_related_version"();--> statement-breakpoint
CREATE TRIGGER "resale_listing_tickets_insert_version" AFTER INSERT ON "resale_listing_tickets" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_user_ticket_related_version"();--> statement-breakpoint
CREATE TRIGGER "resale_listing_tickets_update_version" AFTER UPDATE ON "resale_listing_tickets" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_user_ticket_related_version"();--> statement-breakpoint
CREATE TRIGGER "resale_listing_tickets_delete_version" AFTER DELETE ON "resale_listing_tickets" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_user_ticket_related_version"();--> statement-breakpoint
CREATE TRIGGER "benefits_insert_version" AFTER INSERT ON "benefits" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_ticket_type_benefits_version"();--> statement-breakpoint
CREATE TRIGGER "benefits_update_version" AFTER UPDATE ON "benefits" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_ticket_type_benefits_version"();--> statement-breakpoint
CREATE TRIGGER "benefits_delete_version" AFTER DELETE ON "benefits" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_ticket_type_benefits_version"();
