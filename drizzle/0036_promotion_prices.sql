-- Sale prices on the storefront (issue 56, docs/promotions.md "Prices shown"). The catalogue's index prices
-- cards, product pages, filters and sorting with the automatic promotions in force when it is built, so a
-- change to what they take, or to when they run, moves the catalogue's version like any price's change, and
-- purges every catalogue answer from a CDN in front (`shop`: a sale on everything touches every card). A use
-- counted on a promotion (an order with a code) moves nothing.
CREATE FUNCTION promotions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Queued at the version before this move, as the catalogue's own triggers do (migration 0027).
  PERFORM cdn_queue(ARRAY['shop']);
  PERFORM catalog_version_move();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER promotions_prices_ins_trg AFTER INSERT ON promotions FOR EACH ROW WHEN (NOT NEW.needs_code)
  EXECUTE FUNCTION promotions_changed();
--> statement-breakpoint
CREATE TRIGGER promotions_prices_upd_trg AFTER UPDATE ON promotions FOR EACH ROW
  WHEN (NOT (OLD.needs_code AND NEW.needs_code)
        AND (OLD.rule, OLD.target, OLD.cap, OLD.needs_code, OLD.status, OLD.starts_at, OLD.ends_at)
            IS DISTINCT FROM (NEW.rule, NEW.target, NEW.cap, NEW.needs_code, NEW.status, NEW.starts_at, NEW.ends_at))
  EXECUTE FUNCTION promotions_changed();
--> statement-breakpoint
CREATE TRIGGER promotions_prices_del_trg AFTER DELETE ON promotions FOR EACH ROW WHEN (NOT OLD.needs_code)
  EXECUTE FUNCTION promotions_changed();
--> statement-breakpoint
-- A sale that starts or ends at its time writes nothing: the clock below is read every few seconds by one
-- process (the housekeeping job `promotion-clock`), and a start or an end that passed since the last
-- reading moves the version and purges as an edit would. The clock only moves forward.
CREATE TABLE "promotion_clock" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotion_clock_one_ck" CHECK ("id" = 1)
);
--> statement-breakpoint
INSERT INTO promotion_clock (id) VALUES (1);
--> statement-breakpoint
CREATE FUNCTION promotions_tick() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  last timestamptz;
  passed integer;
BEGIN
  SELECT checked_at INTO last FROM promotion_clock WHERE id = 1 FOR UPDATE;
  IF last >= now() THEN RETURN 0; END IF;
  UPDATE promotion_clock SET checked_at = now() WHERE id = 1;
  SELECT count(*) INTO passed FROM promotions
   WHERE NOT needs_code AND status = 'active'
     AND ((starts_at > last AND starts_at <= now()) OR (ends_at > last AND ends_at <= now()));
  IF passed > 0 THEN
    PERFORM cdn_queue(ARRAY['shop']);
    PERFORM catalog_version_move();
  END IF;
  RETURN passed;
END $$;
