-- The console's search at 100,000 orders (issue 24): a surname matching thousands of orders rechecked the
-- expression (regexp_replace per row) for each; the stored column is rechecked as plain text instead.
ALTER TABLE "orders" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(contact_name || ' ' || contact_email || ' ' || regexp_replace(contact_phone, '\D', '', 'g'))) STORED;
--> statement-breakpoint
DROP INDEX IF EXISTS "orders_search_trgm_idx";
--> statement-breakpoint
CREATE INDEX "orders_search_trgm_idx" ON "orders" USING gin ("search_text" gin_trgm_ops);
