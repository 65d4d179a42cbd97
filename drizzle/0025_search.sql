CREATE TABLE "brand_aliases" (
	"id" serial PRIMARY KEY NOT NULL,
	"alias" text NOT NULL,
	"brand_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "brand_aliases_alias_unique" UNIQUE("alias")
);
--> statement-breakpoint
CREATE TABLE "search_synonyms" (
	"id" serial PRIMARY KEY NOT NULL,
	"terms" text[] NOT NULL,
	"one_way" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "name_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('russian', name)) STORED;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "token_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', name || ' ' || regexp_replace(vendor_code, '[^[:alnum:]]+', ' ', 'g') || ' ' || regexp_replace(vendor_code, '[^[:alnum:]]+', '', 'g'))) STORED;--> statement-breakpoint
ALTER TABLE "brand_aliases" ADD CONSTRAINT "brand_aliases_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;