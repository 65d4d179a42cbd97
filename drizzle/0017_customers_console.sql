-- The console's customers (issue 24): an admin's words on a manual credit or debit, a blocked login, and
-- search by name, e-mail or the phone's digits through trigrams.
ALTER TABLE "balance_ledger" ADD COLUMN "note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bonus_ledger" ADD COLUMN "note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "blocked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(name || ' ' || surname || ' ' || patronymic || ' ' || email || ' ' || regexp_replace(phone, '\D', '', 'g'))) STORED;--> statement-breakpoint
CREATE INDEX "customers_search_trgm_idx" ON "customers" USING gin ("search_text" gin_trgm_ops);
