-- products.search_text = product name + brand (Latin and Cyrillic spellings) + category + colour, kept by the
-- database so every way of writing a product (seed, import, admin) stays searchable.
CREATE OR REPLACE FUNCTION products_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := concat_ws(' ',
    NEW.name,
    (SELECT b.name || ' ' || b.name_ru FROM brands b WHERE b.id = NEW.brand_id),
    (SELECT c.name FROM categories c WHERE c.id = NEW.category_id),
    (SELECT co.name FROM colors co WHERE co.id = NEW.color_id));
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER products_search_text_trg BEFORE INSERT OR UPDATE OF name, brand_id, category_id, color_id ON products
  FOR EACH ROW EXECUTE FUNCTION products_search_text();
--> statement-breakpoint
-- A renamed brand or category renames what its products are found by.
CREATE OR REPLACE FUNCTION brands_touch_products() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products SET name = name WHERE brand_id = NEW.id;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER brands_touch_products_trg AFTER UPDATE OF name, name_ru ON brands
  FOR EACH ROW EXECUTE FUNCTION brands_touch_products();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION categories_touch_products() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products SET name = name WHERE category_id = NEW.id;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER categories_touch_products_trg AFTER UPDATE OF name ON categories
  FOR EACH ROW EXECUTE FUNCTION categories_touch_products();
--> statement-breakpoint
-- The vocabulary for typo correction grows with every statement that writes products (one insert per
-- statement through a transition table, so a bulk import pays once per batch, not once per row).
-- Words are never removed: a stale word only ever corrects a query to something that finds nothing.
CREATE OR REPLACE FUNCTION products_collect_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word)
    SELECT DISTINCT w FROM changed, regexp_split_to_table(lower(changed.search_text), '[^[:alnum:]]+') AS w
    WHERE length(w) >= 3
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER products_words_ins_trg AFTER INSERT ON products REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION products_collect_words();
--> statement-breakpoint
CREATE TRIGGER products_words_upd_trg AFTER UPDATE ON products REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION products_collect_words();
--> statement-breakpoint
-- Every change to what listings show moves this sequence on; each server process compares it with the
-- version its catalogue index was built from and rebuilds when it differs (docs/decisions/007).
-- A sequence, not a counter row: concurrent orders never wait on each other to bump it.
CREATE SEQUENCE catalog_version;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION catalog_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('catalog_version');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER products_version_trg AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_changed();
--> statement-breakpoint
CREATE TRIGGER product_variants_version_trg AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_variants
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_changed();
--> statement-breakpoint
CREATE TRIGGER brands_version_trg AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON brands
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_changed();
--> statement-breakpoint
CREATE TRIGGER categories_version_trg AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON categories
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_changed();
--> statement-breakpoint
CREATE TRIGGER colors_version_trg AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON colors
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_changed();
--> statement-breakpoint
UPDATE products SET name = name;
