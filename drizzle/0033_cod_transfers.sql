-- Money taken at the door, reconciled (issue 55): each order's cash-on-delivery money as the carrier's
-- registers say it was transferred to the shop — which register, when, what was taken, what the carrier
-- kept as its fee and what it transferred. One row per order: a register read again marks nothing twice.
CREATE TABLE "cod_transfers" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
	"carrier" text NOT NULL,
	"registry" text NOT NULL,
	"paid_on" date,
	"payment_order" text,
	"collected" integer NOT NULL,
	"commission" integer NOT NULL,
	"transferred" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cod_transfers_order_uq" UNIQUE("order_id")
);
