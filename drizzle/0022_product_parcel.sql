ALTER TABLE "products" ADD COLUMN "weight_g" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "length_cm" smallint;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "width_cm" smallint;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "height_cm" smallint;