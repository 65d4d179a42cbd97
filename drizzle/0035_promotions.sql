-- Promotions and their codes (issue 56, docs/promotions.md). A promotion's rule, what it applies to and its
-- cap are the engine's input as they are (jsonb, checked by the console's schema). Uses are counted on the
-- promotion and on the code under their rows' locks, so a limit holds under concurrent checkouts; a
-- cancelled or unpaid order gives each of its uses back once (released_at set by one conditional UPDATE).
-- A use names every key its buyer is known by (the account; a guest's e-mail and phone), so a per-customer
-- limit counts a guest who comes back with the same phone and another e-mail.
CREATE TABLE "promotions" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"rule" jsonb NOT NULL,
	"target" jsonb NOT NULL,
	"cap" integer,
	"needs_code" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"limit_total" integer,
	"limit_per_customer" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotions_status_ck" CHECK ("status" IN ('active', 'paused', 'archived')),
	CONSTRAINT "promotions_cap_ck" CHECK ("cap" IS NULL OR "cap" > 0),
	CONSTRAINT "promotions_uses_ck" CHECK ("uses" >= 0 AND ("limit_total" IS NULL OR "uses" <= "limit_total"))
);
--> statement-breakpoint
CREATE TABLE "promotion_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"promotion_id" integer NOT NULL REFERENCES "promotions"("id") ON DELETE CASCADE,
	"code" text NOT NULL,
	"limit_total" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotion_codes_code_uq" UNIQUE("code"),
	CONSTRAINT "promotion_codes_uses_ck" CHECK ("uses" >= 0 AND ("limit_total" IS NULL OR "uses" <= "limit_total"))
);
--> statement-breakpoint
CREATE INDEX "promotion_codes_promotion_idx" ON "promotion_codes" ("promotion_id");
--> statement-breakpoint
CREATE TABLE "promotion_uses" (
	"id" serial PRIMARY KEY NOT NULL,
	"promotion_id" integer NOT NULL REFERENCES "promotions"("id") ON DELETE CASCADE,
	"code_id" integer REFERENCES "promotion_codes"("id") ON DELETE SET NULL,
	"order_id" integer NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
	"customer_keys" text[] NOT NULL,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "promotion_uses_customer_idx" ON "promotion_uses" USING gin ("customer_keys") WHERE "released_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "promotion_uses_order_idx" ON "promotion_uses" ("order_id");
--> statement-breakpoint
CREATE TABLE "order_promotions" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
	"promotion_id" integer REFERENCES "promotions"("id") ON DELETE SET NULL,
	"name" text NOT NULL,
	"class" text NOT NULL,
	"code" text,
	"amount" integer NOT NULL,
	"lines" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "order_promotions_order_idx" ON "order_promotions" ("order_id");
--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "promo_discount" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "promo_discount" integer DEFAULT 0 NOT NULL;
