CREATE TABLE "order_marks" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"line_id" integer NOT NULL,
	"unit" smallint NOT NULL,
	"gtin" text NOT NULL,
	"serial" text NOT NULL,
	"code" text NOT NULL,
	"status" text DEFAULT 'sold' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"returned_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "marked" boolean;--> statement-breakpoint
ALTER TABLE "order_marks" ADD CONSTRAINT "order_marks_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_marks" ADD CONSTRAINT "order_marks_line_id_order_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."order_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_marks_unit_uq" ON "order_marks" USING btree ("line_id","unit");--> statement-breakpoint
CREATE UNIQUE INDEX "order_marks_sold_uq" ON "order_marks" USING btree ("gtin","serial") WHERE status = 'sold';--> statement-breakpoint
CREATE INDEX "order_marks_order_idx" ON "order_marks" USING btree ("order_id");