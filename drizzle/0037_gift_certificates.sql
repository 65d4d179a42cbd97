-- Gift certificates (issue 56, docs/promotions.md "Gift certificates"). A certificate is bought as an order
-- of its own (`orders.kind` = 'certificate': no goods, nothing to ship) whose payment is an advance; it is
-- made 'active' with its balance when that order is paid. An order of goods spends certificates under their
-- rows' locks: each use is a row, the balance falls by it, and the CHECK keeps it from ever going below 0
-- whatever the code does. A cancelled order or a refund gives a use back by raising `returned` (never above
-- the use) and the balance by as much, so a give-back that runs twice gives nothing the second time.
CREATE TABLE "gift_nominals" (
	"amount" integer PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gift_nominals_amount_ck" CHECK ("amount" >= 10000 AND "amount" <= 50000000)
);
--> statement-breakpoint
INSERT INTO "gift_nominals" ("amount") VALUES (300000), (500000), (1000000), (2000000), (3000000);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "kind" text DEFAULT 'goods' NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_kind_ck" CHECK ("kind" IN ('goods', 'certificate'));
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "certificate_used" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE TABLE "gift_certificates" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"order_id" integer NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
	"nominal" integer NOT NULL,
	"balance" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"recipient_email" text NOT NULL,
	"recipient_name" text DEFAULT '' NOT NULL,
	"sender_name" text DEFAULT '' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"expires_at" timestamp with time zone,
	"activated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gift_certificates_code_uq" UNIQUE("code"),
	CONSTRAINT "gift_certificates_status_ck" CHECK ("status" IN ('pending', 'active', 'void')),
	CONSTRAINT "gift_certificates_balance_ck" CHECK ("balance" >= 0 AND "balance" <= "nominal")
);
--> statement-breakpoint
CREATE INDEX "gift_certificates_order_idx" ON "gift_certificates" ("order_id");
--> statement-breakpoint
CREATE TABLE "gift_certificate_uses" (
	"id" serial PRIMARY KEY NOT NULL,
	"certificate_id" integer NOT NULL REFERENCES "gift_certificates"("id") ON DELETE CASCADE,
	"order_id" integer NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
	"position" integer NOT NULL,
	"amount" integer NOT NULL,
	"returned" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gift_certificate_uses_amount_ck" CHECK ("amount" > 0 AND "returned" >= 0 AND "returned" <= "amount")
);
--> statement-breakpoint
CREATE INDEX "gift_certificate_uses_certificate_idx" ON "gift_certificate_uses" ("certificate_id");
--> statement-breakpoint
CREATE INDEX "gift_certificate_uses_order_idx" ON "gift_certificate_uses" ("order_id");
