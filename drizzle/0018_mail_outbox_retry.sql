ALTER TABLE "mail_outbox" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
-- Mail already tried counts one attempt; a failed one is then due for a retry at once.
UPDATE "mail_outbox" SET "attempts" = 1 WHERE "sent_at" IS NOT NULL OR "error" IS NOT NULL;
