-- Send API (issue 19): `Idempotency-Key` of POST /api/messages/send. A key is reserved (status_code null) before
-- the send and holds the first response afterwards; the same key with the same token within 24 h answers that
-- response again instead of sending twice. token_hash (SHA-256 of the token) ties a key to the token it came
-- with, so a regenerated token starts afresh. Rows older than 24 h are purged by the send API's hourly job.
CREATE TABLE "api_idempotency_keys" (
  "id" serial PRIMARY KEY,
  "company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
  "connection_id" integer NOT NULL REFERENCES "connections"("id") ON DELETE CASCADE,
  "token_hash" varchar(64) NOT NULL,
  "key" varchar(200) NOT NULL,
  "status_code" integer,
  "response" jsonb,
  "created_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX "api_idempotency_keys_token_key_uq" ON "api_idempotency_keys" ("company_id", "token_hash", "key");
--> statement-breakpoint
CREATE INDEX "api_idempotency_keys_created_at_idx" ON "api_idempotency_keys" ("created_at");
