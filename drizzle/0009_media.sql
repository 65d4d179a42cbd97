ALTER TABLE "product_images" ADD COLUMN "color" text;--> statement-breakpoint
ALTER TABLE "product_images" ADD COLUMN "source_url" text;--> statement-breakpoint
CREATE INDEX "product_images_source_idx" ON "product_images" USING btree ("source_url");