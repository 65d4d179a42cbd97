ALTER TABLE "products" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- products.updated_at says when a product last changed (sitemaps' lastmod, the product feed): every update
-- of the row moves it, and so does a change of its variants (stock, limits). Not on INSERT of variants:
-- they are written with their product (whose default is now()), and a seed of 400,000 variants would
-- otherwise update their products 400,000 times.
CREATE OR REPLACE FUNCTION products_touch_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER products_updated_at_trg BEFORE UPDATE ON products
  FOR EACH ROW EXECUTE FUNCTION products_touch_updated_at();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_variants_touch_product() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products SET updated_at = now() WHERE id = COALESCE(NEW.product_id, OLD.product_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER product_variants_touch_product_trg AFTER UPDATE OR DELETE ON product_variants
  FOR EACH ROW EXECUTE FUNCTION product_variants_touch_product();
