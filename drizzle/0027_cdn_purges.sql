CREATE TABLE "cdn_origins" (
	"process" text PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cdn_purges" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tag" text NOT NULL,
	"version" bigint NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Cache tags (docs/operations.md "A CDN in front"): product-N its page and API answer; card-N every page
-- showing its card (listings, the home page, related products, search); category-N and brand-N their
-- listing pages; home; brands (the brands page and the home page's popular brands); search (every search
-- page); menu (every page with the header's category menu, that is every catalogue page). The triggers
-- below write, per statement, exactly the tags a change touched: a statement that changes nothing visible
-- (an import of the same feed, the updated_at touch, a sold unit of a size still in stock on a listing)
-- writes nothing or only the product's own page.
-- The catalogue version before this statement's own move of it (the version triggers run after these,
-- by name); 0 before the first move.
CREATE FUNCTION cdn_version() RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM catalog_version
$$;
--> statement-breakpoint
-- The listing tags of these categories and of every category above them (a category's page lists its subtree).
CREATE FUNCTION cdn_category_tags(ids integer[]) RETURNS SETOF text LANGUAGE sql STABLE AS $$
  WITH RECURSIVE up(id, parent_id) AS (
    SELECT id, parent_id FROM categories WHERE id = ANY(ids)
    UNION SELECT c.id, c.parent_id FROM categories c JOIN up ON c.id = up.parent_id
  )
  SELECT 'category-' || id FROM up
$$;
--> statement-breakpoint
CREATE FUNCTION cdn_queue(tags text[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO cdn_purges (tag, version) SELECT DISTINCT t, cdn_version() FROM unnest(tags) AS t WHERE t IS NOT NULL
$$;
--> statement-breakpoint
-- Products. `listed`: what a card shows or where listings place it; `text`: what only its page shows.
-- Popularity is left out: it moves with every order and changes only the popular sort's order, which a
-- shared cache then shows within its max-age.
CREATE FUNCTION products_cdn_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cdn_queue(ARRAY(
    WITH d AS (
      SELECT n.id, o.brand_id AS ob, n.brand_id AS nb, o.category_id AS oc, n.category_id AS nc,
        (o.name, o.slug, o.price, o.price_old, o.brand_id, o.category_id, o.color_id, o.is_active, o.free_delivery, o.rating, o.reviews_count)
          IS DISTINCT FROM (n.name, n.slug, n.price, n.price_old, n.brand_id, n.category_id, n.color_id, n.is_active, n.free_delivery, n.rating, n.reviews_count) AS listed,
        (o.name, o.brand_id, o.category_id, o.color_id, o.is_active, o.description) IS DISTINCT FROM (n.name, n.brand_id, n.category_id, n.color_id, n.is_active, n.description) AS searched,
        o.description IS DISTINCT FROM n.description AS described,
        (o.is_active, o.brand_id) IS DISTINCT FROM (n.is_active, n.brand_id) AS counted
      FROM cdn_old o JOIN cdn_new n USING (id)
    ), changed AS (SELECT * FROM d WHERE listed OR described)
    SELECT 'product-' || id FROM changed
    UNION ALL SELECT 'card-' || id FROM changed WHERE listed
    UNION ALL SELECT 'brand-' || b FROM changed, unnest(ARRAY[ob, nb]) AS b WHERE listed
    UNION ALL SELECT cdn_category_tags(ARRAY(SELECT c FROM changed, unnest(ARRAY[oc, nc]) AS c WHERE listed))
    UNION ALL (SELECT 'home' FROM changed WHERE listed LIMIT 1)
    UNION ALL (SELECT 'search' FROM changed WHERE searched LIMIT 1)
    -- The brands page counts each brand's products.
    UNION ALL (SELECT 'brands' FROM changed WHERE counted LIMIT 1)
  ));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION products_cdn_ins_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cdn_queue(ARRAY(
    SELECT 'product-' || id FROM cdn_rows
    UNION ALL SELECT 'card-' || id FROM cdn_rows
    UNION ALL SELECT 'brand-' || brand_id FROM cdn_rows
    UNION ALL SELECT cdn_category_tags(ARRAY(SELECT category_id FROM cdn_rows))
    UNION ALL (SELECT t FROM cdn_rows, unnest(ARRAY['home', 'search', 'brands']) AS t LIMIT 3)
  ));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER products_cdn_upd_trg AFTER UPDATE ON products REFERENCING OLD TABLE AS cdn_old NEW TABLE AS cdn_new
  FOR EACH STATEMENT EXECUTE FUNCTION products_cdn_upd();
--> statement-breakpoint
CREATE TRIGGER products_cdn_ins_trg AFTER INSERT ON products REFERENCING NEW TABLE AS cdn_rows
  FOR EACH STATEMENT EXECUTE FUNCTION products_cdn_ins_del();
--> statement-breakpoint
CREATE TRIGGER products_cdn_del_trg AFTER DELETE ON products REFERENCING OLD TABLE AS cdn_rows
  FOR EACH STATEMENT EXECUTE FUNCTION products_cdn_ins_del();
--> statement-breakpoint
-- Sizes. Any change shows on the product's page; a size coming into or going out of stock, a new, removed
-- or renamed size also changes listings (the size filter and its counts) and the card.
CREATE FUNCTION product_variants_cdn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cdn_queue(ARRAY(
    WITH d AS (
      SELECT coalesce(n.product_id, o.product_id) AS product_id,
        (o.stock, o.label, o.sort, o.min_item, o.max_item, o.code, o.product_id) IS DISTINCT FROM (n.stock, n.label, n.sort, n.min_item, n.max_item, n.code, n.product_id) AS seen,
        o.id IS NULL OR n.id IS NULL OR o.label IS DISTINCT FROM n.label OR o.product_id IS DISTINCT FROM n.product_id OR (o.stock > 0) <> (n.stock > 0) AS listed
      FROM cdn_old o FULL JOIN cdn_new n USING (id)
    ), changed AS (SELECT DISTINCT d.product_id, bool_or(listed) AS listed FROM d WHERE seen GROUP BY d.product_id),
    shown AS (SELECT p.id, p.brand_id, p.category_id FROM changed JOIN products p ON p.id = changed.product_id WHERE changed.listed)
    SELECT 'product-' || product_id FROM changed
    UNION ALL SELECT 'card-' || id FROM shown
    UNION ALL SELECT 'brand-' || brand_id FROM shown
    UNION ALL SELECT cdn_category_tags(ARRAY(SELECT category_id FROM shown))
  ));
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An INSERT or DELETE has no other transition table: an empty stand-in of the same shape takes its place.
CREATE FUNCTION product_variants_cdn_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cdn_queue(ARRAY(
    SELECT DISTINCT 'product-' || product_id FROM cdn_new
    UNION ALL SELECT DISTINCT 'card-' || product_id FROM cdn_new
    UNION ALL SELECT DISTINCT 'brand-' || p.brand_id FROM cdn_new JOIN products p ON p.id = cdn_new.product_id
    UNION ALL SELECT cdn_category_tags(ARRAY(SELECT p.category_id FROM cdn_new JOIN products p ON p.id = cdn_new.product_id))
  ));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION product_variants_cdn_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cdn_queue(ARRAY(
    SELECT DISTINCT 'product-' || product_id FROM cdn_old
    UNION ALL SELECT DISTINCT 'card-' || product_id FROM cdn_old
    UNION ALL SELECT DISTINCT 'brand-' || p.brand_id FROM cdn_old JOIN products p ON p.id = cdn_old.product_id
    UNION ALL SELECT cdn_category_tags(ARRAY(SELECT p.category_id FROM cdn_old JOIN products p ON p.id = cdn_old.product_id))
  ));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER product_variants_cdn_upd_trg AFTER UPDATE ON product_variants REFERENCING OLD TABLE AS cdn_old NEW TABLE AS cdn_new
  FOR EACH STATEMENT EXECUTE FUNCTION product_variants_cdn();
--> statement-breakpoint
CREATE TRIGGER product_variants_cdn_ins_trg AFTER INSERT ON product_variants REFERENCING NEW TABLE AS cdn_new
  FOR EACH STATEMENT EXECUTE FUNCTION product_variants_cdn_ins();
--> statement-breakpoint
CREATE TRIGGER product_variants_cdn_del_trg AFTER DELETE ON product_variants REFERENCING OLD TABLE AS cdn_old
  FOR EACH STATEMENT EXECUTE FUNCTION product_variants_cdn_del();
--> statement-breakpoint
-- Photos show on the product's page and its card; attributes on its page.
CREATE FUNCTION product_images_cdn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM cdn_queue(ARRAY(
      SELECT 'product-' || n.product_id FROM cdn_old o JOIN cdn_new n USING (id)
        WHERE (o.product_id, o.position, o.url_template, o.widths, o.width, o.height, o.alt, o.color) IS DISTINCT FROM (n.product_id, n.position, n.url_template, n.widths, n.width, n.height, n.alt, n.color)
      UNION ALL SELECT 'card-' || n.product_id FROM cdn_old o JOIN cdn_new n USING (id)
        WHERE (o.product_id, o.position, o.url_template, o.widths, o.width, o.height, o.alt, o.color) IS DISTINCT FROM (n.product_id, n.position, n.url_template, n.widths, n.width, n.height, n.alt, n.color)
    ));
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM cdn_queue(ARRAY(SELECT 'product-' || product_id FROM cdn_new UNION ALL SELECT 'card-' || product_id FROM cdn_new));
  ELSE
    PERFORM cdn_queue(ARRAY(SELECT 'product-' || product_id FROM cdn_old UNION ALL SELECT 'card-' || product_id FROM cdn_old));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER product_images_cdn_upd_trg AFTER UPDATE ON product_images REFERENCING OLD TABLE AS cdn_old NEW TABLE AS cdn_new
  FOR EACH STATEMENT EXECUTE FUNCTION product_images_cdn();
--> statement-breakpoint
CREATE TRIGGER product_images_cdn_ins_trg AFTER INSERT ON product_images REFERENCING NEW TABLE AS cdn_new
  FOR EACH STATEMENT EXECUTE FUNCTION product_images_cdn();
--> statement-breakpoint
CREATE TRIGGER product_images_cdn_del_trg AFTER DELETE ON product_images REFERENCING OLD TABLE AS cdn_old
  FOR EACH STATEMENT EXECUTE FUNCTION product_images_cdn();
--> statement-breakpoint
CREATE FUNCTION product_attributes_cdn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM cdn_queue(ARRAY(SELECT 'product-' || product_id FROM cdn_old));
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM cdn_queue(ARRAY(SELECT 'product-' || product_id FROM cdn_new));
  ELSE
    PERFORM cdn_queue(ARRAY(
      SELECT 'product-' || n.product_id FROM cdn_old o JOIN cdn_new n USING (id) WHERE row_to_json(o)::text IS DISTINCT FROM row_to_json(n)::text
      UNION ALL SELECT 'product-' || o.product_id FROM cdn_old o JOIN cdn_new n USING (id) WHERE o.product_id <> n.product_id
    ));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER product_attributes_cdn_upd_trg AFTER UPDATE ON product_attributes REFERENCING OLD TABLE AS cdn_old NEW TABLE AS cdn_new
  FOR EACH STATEMENT EXECUTE FUNCTION product_attributes_cdn();
--> statement-breakpoint
CREATE TRIGGER product_attributes_cdn_ins_trg AFTER INSERT ON product_attributes REFERENCING NEW TABLE AS cdn_new
  FOR EACH STATEMENT EXECUTE FUNCTION product_attributes_cdn();
--> statement-breakpoint
CREATE TRIGGER product_attributes_cdn_del_trg AFTER DELETE ON product_attributes REFERENCING OLD TABLE AS cdn_old
  FOR EACH STATEMENT EXECUTE FUNCTION product_attributes_cdn();
--> statement-breakpoint
-- Brands: their listing pages, the brands page and the home page's popular brands; a new name shows on
-- every page and card of the brand's products.
CREATE FUNCTION brands_cdn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM cdn_queue(ARRAY(
      WITH changed AS (
        SELECT n.id, (o.name, o.slug, o.name_ru) IS DISTINCT FROM (n.name, n.slug, n.name_ru) AS named
        FROM cdn_old o JOIN cdn_new n USING (id)
        WHERE (o.name, o.slug, o.name_ru, o.country, o.description, o.is_popular) IS DISTINCT FROM (n.name, n.slug, n.name_ru, n.country, n.description, n.is_popular)
      )
      SELECT 'brand-' || id FROM changed
      UNION ALL (SELECT t FROM changed, unnest(ARRAY['brands', 'home']) AS t LIMIT 2)
      UNION ALL SELECT 'product-' || p.id FROM products p JOIN changed ON p.brand_id = changed.id WHERE changed.named
      UNION ALL SELECT 'card-' || p.id FROM products p JOIN changed ON p.brand_id = changed.id WHERE changed.named
      UNION ALL (SELECT 'search' FROM changed WHERE named LIMIT 1)
    ));
  ELSIF EXISTS (SELECT FROM cdn_rows) THEN
    PERFORM cdn_queue(ARRAY['brands', 'home']);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER brands_cdn_upd_trg AFTER UPDATE ON brands REFERENCING OLD TABLE AS cdn_old NEW TABLE AS cdn_new
  FOR EACH STATEMENT EXECUTE FUNCTION brands_cdn();
--> statement-breakpoint
-- Statement triggers fire for statements that touched no row (an import's upsert of known brands): the
-- transition table says whether any was added or removed.
CREATE TRIGGER brands_cdn_ins_trg AFTER INSERT ON brands REFERENCING NEW TABLE AS cdn_rows
  FOR EACH STATEMENT EXECUTE FUNCTION brands_cdn();
--> statement-breakpoint
CREATE TRIGGER brands_cdn_del_trg AFTER DELETE ON brands REFERENCING OLD TABLE AS cdn_rows
  FOR EACH STATEMENT EXECUTE FUNCTION brands_cdn();
--> statement-breakpoint
-- Categories and colours show in the header's menu, breadcrumbs and filters of every catalogue page: a
-- change of one is rare and purges them all (`menu`).
CREATE FUNCTION categories_cdn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM cdn_queue(ARRAY(
      SELECT 'menu' FROM cdn_old o JOIN cdn_new n USING (id) WHERE row_to_json(o)::text IS DISTINCT FROM row_to_json(n)::text LIMIT 1
    ));
  ELSIF EXISTS (SELECT FROM cdn_rows) THEN
    PERFORM cdn_queue(ARRAY['menu']);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER categories_cdn_upd_trg AFTER UPDATE ON categories REFERENCING OLD TABLE AS cdn_old NEW TABLE AS cdn_new
  FOR EACH STATEMENT EXECUTE FUNCTION categories_cdn();
--> statement-breakpoint
CREATE TRIGGER categories_cdn_ins_trg AFTER INSERT ON categories REFERENCING NEW TABLE AS cdn_rows
  FOR EACH STATEMENT EXECUTE FUNCTION categories_cdn();
--> statement-breakpoint
CREATE TRIGGER categories_cdn_del_trg AFTER DELETE ON categories REFERENCING OLD TABLE AS cdn_rows
  FOR EACH STATEMENT EXECUTE FUNCTION categories_cdn();
--> statement-breakpoint
CREATE TRIGGER colors_cdn_upd_trg AFTER UPDATE ON colors REFERENCING OLD TABLE AS cdn_old NEW TABLE AS cdn_new
  FOR EACH STATEMENT EXECUTE FUNCTION categories_cdn();
--> statement-breakpoint
CREATE TRIGGER colors_cdn_ins_trg AFTER INSERT ON colors REFERENCING NEW TABLE AS cdn_rows
  FOR EACH STATEMENT EXECUTE FUNCTION categories_cdn();
--> statement-breakpoint
CREATE TRIGGER colors_cdn_del_trg AFTER DELETE ON colors REFERENCING OLD TABLE AS cdn_rows
  FOR EACH STATEMENT EXECUTE FUNCTION categories_cdn();
--> statement-breakpoint
-- Photos and attributes show on product pages, which every process keeps per catalogue version: a change
-- of them moves the version too, so the pages follow, and their purges (queued under the version before)
-- go out once every process has.
CREATE TRIGGER product_images_version_trg AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_images
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_changed();
--> statement-breakpoint
CREATE TRIGGER product_attributes_version_trg AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_attributes
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_changed();
