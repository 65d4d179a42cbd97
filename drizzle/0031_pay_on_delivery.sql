-- Payment on delivery (issue 55): the carrier's fee for collecting the money, when the shop passes it on
-- to the buyer (COD_FEE_PERCENT), is part of the order's total and kept apart so that the receipt and the
-- amounts the carrier collects show it as its own service. Orders paid so are counted by their ends
-- (delivered or refused at the door) per customer and per e-mail: the refusals index serves that count.
ALTER TABLE "orders" ADD COLUMN "cod_fee" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE INDEX "orders_on_delivery_email_idx" ON "orders" (lower("contact_email")) WHERE "payment_method" = 'on_delivery';
