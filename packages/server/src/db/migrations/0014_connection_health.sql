-- Connection health center (issue 21): every status change of a WhatsApp connection with the reason it was
-- mapped to (logged out, replaced, bad session, unreachable…), and the alerts sent to the company's admins
-- when a connection stayed out of CONNECTED for longer than the company's setting. The timeline, the time
-- connected over 24 h / 7 days and the last error of GET /api/whatsapp/:id/health are read from here.
CREATE TABLE "connection_events" (
  "id" serial PRIMARY KEY,
  "company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
  "connection_id" integer NOT NULL REFERENCES "connections"("id") ON DELETE CASCADE,
  "kind" varchar(10) NOT NULL DEFAULT 'status',
  "status" varchar(20) NOT NULL,
  "reason" varchar(40),
  "detail" varchar(300),
  "retries" integer NOT NULL DEFAULT 0,
  "created_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "connection_events_company_connection_created_idx" ON "connection_events" ("company_id", "connection_id", "created_at");
