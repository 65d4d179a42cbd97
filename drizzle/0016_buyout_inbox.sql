-- The buyout requests inbox of the console (issue 24): who took a request, when it last changed, and the
-- inbox per status, newest first.
ALTER TABLE "buyout_requests" ADD COLUMN "taken_by" integer;--> statement-breakpoint
ALTER TABLE "buyout_requests" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "buyout_requests" ADD CONSTRAINT "buyout_requests_taken_by_operators_id_fk" FOREIGN KEY ("taken_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "buyout_requests_status_idx" ON "buyout_requests" USING btree ("status","id");