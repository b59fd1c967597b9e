-- A ticket returned to an exchange queue (decision 042) shows no move on the ticket listing and says it is returned;
-- the listing's cache (decision 036) reuses a ticket's row while its version holds, so every change of the ticket's
-- exchange units (returned, withdrawn, reserved, sold) bumps the ticket's counter, as migration 0017 does for its
-- resale entries. A release's units name no ticket and bump nothing.
CREATE TRIGGER "exchange_units_insert_version" AFTER INSERT ON "exchange_units" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_parent_version"('user_tickets', 'related_version', 'user_ticket_id');--> statement-breakpoint
CREATE TRIGGER "exchange_units_update_version" AFTER UPDATE ON "exchange_units" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_parent_version"('user_tickets', 'related_version', 'user_ticket_id');--> statement-breakpoint
CREATE TRIGGER "exchange_units_delete_version" AFTER DELETE ON "exchange_units" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_parent_version"('user_tickets', 'related_version', 'user_ticket_id');
