-- A size's change touches its product once per statement instead of once per row. The row trigger's
-- UPDATE of products was a statement of its own, and each one fired the products' statement triggers
-- (the search words collected again, the catalogue version moved): `npm run import -- --prices-stock`
-- changing 19,000 stocks spent 3.5 s of PGlite's time there (docs/performance.md, issue 23).
DROP TRIGGER product_variants_touch_product_trg ON product_variants;
--> statement-breakpoint
DROP FUNCTION product_variants_touch_product();
--> statement-breakpoint
CREATE FUNCTION product_variants_touch_products() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A statement that changed no row (a sold-out guard that failed) touches nothing.
  IF EXISTS (SELECT 1 FROM changed) THEN
    UPDATE products SET updated_at = now() WHERE id IN (SELECT product_id FROM changed);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Transition tables allow one event per trigger: one for updates, one for deletes.
CREATE TRIGGER product_variants_touch_upd_trg AFTER UPDATE ON product_variants REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION product_variants_touch_products();
--> statement-breakpoint
CREATE TRIGGER product_variants_touch_del_trg AFTER DELETE ON product_variants REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION product_variants_touch_products();
--> statement-breakpoint
-- Words are collected from the rows whose searchable text changed, not from every updated row: a price,
-- a stock or a touch of updated_at reads no words.
CREATE OR REPLACE FUNCTION products_collect_changed_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word)
    SELECT DISTINCT w
      FROM changed JOIN before ON before.id = changed.id,
        regexp_split_to_table(lower(changed.search_text), '[^[:alnum:]]+') AS w
      WHERE changed.search_text IS DISTINCT FROM before.search_text AND length(w) >= 3
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER products_words_upd_trg ON products;
--> statement-breakpoint
CREATE TRIGGER products_words_upd_trg AFTER UPDATE ON products REFERENCING OLD TABLE AS before NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION products_collect_changed_words();
