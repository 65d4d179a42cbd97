-- Two costs of every write to the catalogue (issue 54: the prices-and-stock pass at 100,000 offers).
-- The product's search vectors were stored generated columns, which PostgreSQL computes again on every
-- UPDATE of the row — a price, a stock's touch of updated_at, a sale — though they depend on the name,
-- the description and the article alone: a prices-and-stock pass of 19,000 sizes spent two thirds of its
-- writing in to_tsvector over descriptions it had not changed (issue 54, docs/performance.md). They are
-- plain columns now, kept by the trigger that keeps search_text, which fires only when a column they are
-- made of is written.
ALTER TABLE "products" ALTER COLUMN "search_vector" DROP EXPRESSION;
--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "name_vector" DROP EXPRESSION;
--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "description_vector" DROP EXPRESSION;
--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "token_vector" DROP EXPRESSION;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION products_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := concat_ws(' ',
    NEW.name,
    (SELECT b.name || ' ' || b.name_ru FROM brands b WHERE b.id = NEW.brand_id),
    (SELECT c.name FROM categories c WHERE c.id = NEW.category_id),
    (SELECT co.name FROM colors co WHERE co.id = NEW.color_id));
  NEW.search_vector := to_tsvector('russian', NEW.search_text);
  NEW.name_vector := to_tsvector('russian', NEW.name);
  NEW.description_vector := to_tsvector('russian', left(NEW.description, 4000));
  NEW.token_vector := to_tsvector('simple', NEW.name || ' ' || regexp_replace(NEW.vendor_code, '[^[:alnum:]]+', ' ', 'g') || ' '
    || regexp_replace(NEW.vendor_code, '[^[:alnum:]]+', '', 'g'));
  RETURN NEW;
END $$;
--> statement-breakpoint
DROP TRIGGER "products_search_text_trg" ON "products";
--> statement-breakpoint
CREATE TRIGGER "products_search_text_trg" BEFORE INSERT OR UPDATE OF name, brand_id, category_id, color_id, description, vendor_code ON "products"
  FOR EACH ROW EXECUTE FUNCTION products_search_text();
--> statement-breakpoint
-- The CDN's outbox (migration 0027) read the catalogue version once per tag queued: a statement that changed
-- 10,000 sizes queued 10,700 tags and read the sequence as often. Once per statement now.
CREATE OR REPLACE FUNCTION cdn_queue(tags text[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO cdn_purges (tag, version)
    SELECT t, v FROM (SELECT DISTINCT t FROM unnest(tags) AS t WHERE t IS NOT NULL) AS queued, (SELECT cdn_version() AS v) AS now
$$;
