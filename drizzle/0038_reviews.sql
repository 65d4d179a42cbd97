-- Reviews with size fit (issue 57, docs/reviews.md). A review belongs to one bought line (a delivered order's
-- line: one review a line, `order_line_id` unique); the demo catalogue's reviews alone have none (`source`
-- 'demo'). Nothing shows before a manager approves it. A product's `rating`, `reviews_count` and fit counts
-- are its approved reviews' own, kept by the triggers below (the seed's made-up figures are cleared): a
-- review approved, hidden, edited while approved or taken away recounts its product, which moves the
-- catalogue's version and queues the CDN purge of the product's page (and, through products' own triggers,
-- of its cards where the figures changed). A pending review or a vote moves nothing.
ALTER TABLE "products" ADD COLUMN "fit_small" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "fit_true" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "fit_large" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE "products" SET "rating" = 0, "reviews_count" = 0 WHERE "rating" <> 0 OR "reviews_count" <> 0;
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL REFERENCES "products"("id") ON DELETE CASCADE,
	"order_line_id" integer REFERENCES "order_lines"("id") ON DELETE SET NULL,
	"customer_id" integer REFERENCES "customers"("id") ON DELETE SET NULL,
	"source" text DEFAULT 'customer' NOT NULL,
	"author" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"rating" smallint NOT NULL,
	"fit" text,
	"size_label" text DEFAULT '' NOT NULL,
	"liked" text DEFAULT '' NOT NULL,
	"disliked" text DEFAULT '' NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"photos" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reject_reason" text DEFAULT '' NOT NULL,
	"reply" text DEFAULT '' NOT NULL,
	"useful" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "reviews_line_uq" UNIQUE("order_line_id"),
	CONSTRAINT "reviews_rating_ck" CHECK ("rating" BETWEEN 1 AND 5),
	CONSTRAINT "reviews_fit_ck" CHECK ("fit" IS NULL OR "fit" IN ('small', 'true', 'large')),
	CONSTRAINT "reviews_status_ck" CHECK ("status" IN ('pending', 'approved', 'rejected', 'hidden')),
	CONSTRAINT "reviews_source_ck" CHECK ("source" IN ('customer', 'demo')),
	CONSTRAINT "reviews_useful_ck" CHECK ("useful" >= 0)
);
--> statement-breakpoint
CREATE INDEX "reviews_product_idx" ON "reviews" ("product_id", "published_at" DESC) WHERE "status" = 'approved';
--> statement-breakpoint
CREATE INDEX "reviews_queue_idx" ON "reviews" ("status", "created_at" DESC);
--> statement-breakpoint
CREATE INDEX "reviews_customer_idx" ON "reviews" ("customer_id");
--> statement-breakpoint
CREATE TABLE "review_votes" (
	"review_id" integer NOT NULL REFERENCES "reviews"("id") ON DELETE CASCADE,
	"voter" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_votes_pk" PRIMARY KEY ("review_id", "voter")
);
--> statement-breakpoint
CREATE FUNCTION reviews_recount(p integer) RETURNS void LANGUAGE sql AS $$
  UPDATE products SET (rating, reviews_count, fit_small, fit_true, fit_large) = (
    SELECT coalesce(round(avg(r.rating)::numeric, 2), 0), count(*), count(*) FILTER (WHERE r.fit = 'small'),
           count(*) FILTER (WHERE r.fit = 'true'), count(*) FILTER (WHERE r.fit = 'large')
      FROM reviews r WHERE r.product_id = p AND r.status = 'approved')
   WHERE id = p;
  SELECT cdn_queue(ARRAY['product-' || p]);
$$;
--> statement-breakpoint
CREATE FUNCTION reviews_recount_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM reviews_recount(OLD.product_id); END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.product_id <> OLD.product_id) THEN PERFORM reviews_recount(NEW.product_id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The demo seed writes its products' figures with its reviews (src/lib/seed): no recount per row there.
CREATE TRIGGER "reviews_recount_ins_trg" AFTER INSERT ON "reviews" FOR EACH ROW WHEN (NEW.status = 'approved' AND NEW.source = 'customer') EXECUTE FUNCTION reviews_recount_trg();
--> statement-breakpoint
CREATE TRIGGER "reviews_recount_upd_trg" AFTER UPDATE OF status, rating, fit, size_label, liked, disliked, comment, photos, reply, author, product_id ON "reviews"
  FOR EACH ROW WHEN (OLD.status = 'approved' OR NEW.status = 'approved') EXECUTE FUNCTION reviews_recount_trg();
--> statement-breakpoint
CREATE TRIGGER "reviews_recount_del_trg" AFTER DELETE ON "reviews" FOR EACH ROW WHEN (OLD.status = 'approved') EXECUTE FUNCTION reviews_recount_trg();
