CREATE TABLE "carrier_cache" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "carrier_cache_expires_idx" ON "carrier_cache" USING btree ("expires_at");