-- Try on, keep what fits (issue 55): what the buyer kept of each line when paying at the door (null: all
-- of it, as every order before), and the carrier's delivery result — what it collected, how (cash, card)
-- and when — read back from the carrier and kept with the order.
ALTER TABLE "order_lines" ADD COLUMN "kept" integer;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_result" jsonb;
