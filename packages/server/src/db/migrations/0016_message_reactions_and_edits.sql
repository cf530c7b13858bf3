-- Reactions and edited messages (issue 21). A reaction belongs to the message it targets (one per sender: the
-- customer, a group participant, or "me" for the company's own reaction; a new emoji replaces it, "" removes
-- the row). An edit keeps the text it replaced in message_edits; messages.edited_at says when the body last
-- changed (messages.is_edited already existed). provider_edit_id makes a redelivered edit a no-op.
ALTER TABLE "messages" ADD COLUMN "edited_at" timestamptz;
--> statement-breakpoint
CREATE TABLE "message_reactions" (
  "id" serial PRIMARY KEY,
  "company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
  "message_id" integer NOT NULL REFERENCES "messages"("id") ON DELETE CASCADE,
  "sender" varchar(100) NOT NULL,
  "emoji" varchar(32) NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX "message_reactions_company_message_sender_uq" ON "message_reactions" ("company_id", "message_id", "sender");
--> statement-breakpoint
CREATE TABLE "message_edits" (
  "id" serial PRIMARY KEY,
  "company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
  "message_id" integer NOT NULL REFERENCES "messages"("id") ON DELETE CASCADE,
  "previous_body" text NOT NULL,
  "provider_edit_id" varchar(128),
  "edited_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "message_edits_company_message_idx" ON "message_edits" ("company_id", "message_id", "edited_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "message_edits_company_message_provider_uq" ON "message_edits" ("company_id", "message_id", "provider_edit_id");
