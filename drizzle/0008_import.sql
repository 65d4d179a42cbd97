ALTER TABLE "categories" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "barcode" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "vendor_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "sales_notes" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "import_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "categories_external_uq" ON "categories" USING btree ("external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_external_uq" ON "product_variants" USING btree ("external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_external_uq" ON "products" USING btree ("external_id");