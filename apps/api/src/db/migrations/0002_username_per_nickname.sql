ALTER TABLE "users" DROP CONSTRAINT "users_username_suffix_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_uq" ON "users" USING btree (lower("nickname"),"username_suffix");