CREATE TABLE "order_returns" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"idempotence_key" text NOT NULL,
	"amount" integer NOT NULL,
	"units" jsonb NOT NULL,
	"lines" jsonb NOT NULL,
	"status" text DEFAULT 'refunding' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_returns_idempotence_key_unique" UNIQUE("idempotence_key")
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"kind" text NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text,
	"idempotence_key" text NOT NULL,
	"amount" integer NOT NULL,
	"lines" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipts_idempotence_key_unique" UNIQUE("idempotence_key")
);
--> statement-breakpoint
CREATE TABLE "test_receipts" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"idempotence_key" text NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"items" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_receipts_idempotence_key_unique" UNIQUE("idempotence_key")
);
--> statement-breakpoint
DROP INDEX "order_marks_sold_uq";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "receipt_mode" text DEFAULT 'full_payment' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_returns" ADD CONSTRAINT "order_returns_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_returns_order_idx" ON "order_returns" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "receipts_order_idx" ON "receipts" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "receipts_status_idx" ON "receipts" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "order_marks_sold_uq" ON "order_marks" USING btree ("gtin","serial") WHERE status <> 'returned';