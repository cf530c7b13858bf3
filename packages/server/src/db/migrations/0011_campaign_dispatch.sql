-- Campaigns (issue 17): what the dispatcher needs beyond the tables of 0000.
-- The campaign row carries its run: why it is paused (an error-catalogue code, shown in the list and report),
-- the pacing clock (messages sent in this run, when the next one may go) and a lease so one process at a time
-- runs it (taken over when its holder stops renewing it).
ALTER TABLE "campaigns" ADD COLUMN "pause_reason" varchar(64);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "send_count" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "next_send_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "run_owner" varchar(64);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "run_lease_until" timestamp with time zone;
--> statement-breakpoint
-- A shipping row keeps a copy of its list item (name, e-mail for the report and the variables), its place in
-- the list (message rotation), the contact it was sent to (a reply confirms) and the messages it produced.
ALTER TABLE "campaign_shippings" ADD COLUMN "position" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "campaign_shippings" ADD COLUMN "name" varchar(100) DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "campaign_shippings" ADD COLUMN "email" varchar(254) DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "campaign_shippings" ADD COLUMN "contact_id" integer REFERENCES "contacts"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "campaign_shippings" ADD COLUMN "message_id" integer REFERENCES "messages"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "campaign_shippings" ADD COLUMN "confirmation_message_id" integer REFERENCES "messages"("id") ON DELETE SET NULL;
--> statement-breakpoint
-- One shipping row per (campaign, list item): starting or restarting twice cannot add a second copy.
CREATE UNIQUE INDEX "campaign_shippings_company_campaign_item_uq" ON "campaign_shippings" ("company_id", "campaign_id", "contact_list_item_id");
--> statement-breakpoint
-- A customer's reply finds the rows waiting for its confirmation.
CREATE INDEX "campaign_shippings_awaiting_confirmation_idx" ON "campaign_shippings" ("company_id", "contact_id") WHERE "status" = 'confirmation';
--> statement-breakpoint
CREATE INDEX "campaign_shippings_message_idx" ON "campaign_shippings" ("message_id") WHERE "message_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "campaign_shippings_confirmation_message_idx" ON "campaign_shippings" ("confirmation_message_id") WHERE "confirmation_message_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "campaign_shippings_contact_idx" ON "campaign_shippings" ("contact_id") WHERE "contact_id" IS NOT NULL;
