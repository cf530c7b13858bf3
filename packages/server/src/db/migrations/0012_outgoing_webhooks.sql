-- Outgoing webhooks per company (issue 19): admins subscribe URLs to domain events; each matching event becomes
-- one delivery row per webhook, sent by the job runner with retries. The delivery row is the log the admin page
-- shows (last status code and response) and what "resend" sends again.
CREATE TABLE "webhooks" (
  "id" serial PRIMARY KEY,
  "company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
  "url" varchar(2000) NOT NULL,
  "events" jsonb NOT NULL DEFAULT '[]'::jsonb,
  "secret" varchar(100) NOT NULL,
  "active" boolean NOT NULL DEFAULT true,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "webhooks_company_idx" ON "webhooks" ("company_id");
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
  "id" serial PRIMARY KEY,
  "company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
  "webhook_id" integer NOT NULL REFERENCES "webhooks"("id") ON DELETE CASCADE,
  "source_event_id" varchar(40) NOT NULL,
  "event" varchar(40) NOT NULL,
  "subject_id" integer,
  "payload" jsonb NOT NULL,
  "status" varchar(20) NOT NULL DEFAULT 'pending',
  "attempts" integer NOT NULL DEFAULT 0,
  "last_status_code" integer,
  "last_response" text,
  "last_error" text,
  "last_attempt_at" timestamptz,
  "delivered_at" timestamptz,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- The outbox delivers at least once: one delivery per webhook and outbox event.
CREATE UNIQUE INDEX "webhook_deliveries_source_uq" ON "webhook_deliveries" ("webhook_id", "source_event_id");
--> statement-breakpoint
-- ticket.created is sent once per webhook and ticket.
CREATE UNIQUE INDEX "webhook_deliveries_ticket_created_uq" ON "webhook_deliveries" ("webhook_id", "subject_id") WHERE "event" = 'ticket.created';
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_company_webhook_idx" ON "webhook_deliveries" ("company_id", "webhook_id", "id");
