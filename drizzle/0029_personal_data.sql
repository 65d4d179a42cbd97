-- Personal data on request (152-ФЗ, issue 54). Each consent given or withdrawn is a row: whose (a customer,
-- or a guest's e-mail or phone), for what (processing personal data, marketing), where (registration,
-- checkout, the buyout request, the newsletter, the dashboard, a mail's footer, the console), under which
-- version of the policy's text, and when. Rows are never changed: the latest of a purpose says where it stands.
CREATE TABLE "consents" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_id" integer REFERENCES "customers"("id") ON DELETE SET NULL,
	"email" text,
	"phone" text,
	"purpose" text NOT NULL,
	"source" text NOT NULL,
	"policy_version" text NOT NULL,
	"given" boolean NOT NULL,
	"order_id" integer REFERENCES "orders"("id") ON DELETE SET NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "consents_customer_idx" ON "consents" ("customer_id", "at");
--> statement-breakpoint
CREATE INDEX "consents_email_idx" ON "consents" (lower("email"), "at");
--> statement-breakpoint
-- A deleted account: its row stays for the orders and ledgers that name it, with nothing personal left.
ALTER TABLE "customers" ADD COLUMN "deleted_at" timestamp with time zone;
