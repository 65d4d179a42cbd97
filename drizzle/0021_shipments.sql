CREATE TABLE "carrier_intakes" (
	"intake_date" date PRIMARY KEY NOT NULL,
	"carrier" text NOT NULL,
	"carrier_uuid" text,
	"shipments" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"order_id" integer PRIMARY KEY NOT NULL,
	"carrier" text NOT NULL,
	"state" text DEFAULT 'registering' NOT NULL,
	"carrier_uuid" text,
	"number" text,
	"status" text,
	"seen" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"intake_date" date,
	"polled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shipments_carrier_uuid_idx" ON "shipments" USING btree ("carrier_uuid");--> statement-breakpoint
CREATE INDEX "shipments_polled_idx" ON "shipments" USING btree ("polled_at");