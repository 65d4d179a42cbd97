-- Returns through the carrier (issue 55): a delivered order's client return made with its carrier (CDEK's
-- clientReturn), and the shop's refusal of a parcel before it is handed over (CDEK's refusal) — when each
-- was asked, so neither is asked twice and the pages can say it.
ALTER TABLE "shipments" ADD COLUMN "return_requested_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "refused_at" timestamp with time zone;
