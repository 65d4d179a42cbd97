-- The managers' console's order list at 100,000 orders (issue 24): newest first, per status, and search by
-- name, e-mail or the phone's digits through trigrams (pg_trgm, migration 0001).
CREATE INDEX IF NOT EXISTS "orders_created_idx" ON "orders" USING btree ("created_at" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_status_created_idx" ON "orders" USING btree ("status", "created_at" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_search_trgm_idx" ON "orders" USING gin ((lower(contact_name || ' ' || contact_email || ' ' || regexp_replace(contact_phone, '\D', '', 'g'))) gin_trgm_ops);
