ALTER TABLE "sessions" ADD COLUMN "family_id" text NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "family_expires_at" timestamp with time zone NOT NULL;--> statement-breakpoint
CREATE INDEX "sessions_family_idx" ON "sessions" USING btree ("family_id");