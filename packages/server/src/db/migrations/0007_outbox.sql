-- Durable domain events (events/outbox.ts): written in the transaction of the change that causes them,
-- delivered after commit to each consumer group at least once, in commit order.
-- txid orders events by transaction; a reader only takes events of transactions older than every transaction
-- still running (pg_snapshot_xmin), so an event committed late with a lower id is never skipped.
CREATE TABLE "outbox_events" (
  "id" bigserial PRIMARY KEY,
  "txid" bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint),
  "company_id" integer NOT NULL,
  "type" text NOT NULL,
  "payload" jsonb NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "outbox_events_txid_id_idx" ON "outbox_events" ("txid", "id");
--> statement-breakpoint
CREATE INDEX "outbox_events_created_at_idx" ON "outbox_events" ("created_at");
--> statement-breakpoint
CREATE TABLE "outbox_cursors" (
  "consumer" text PRIMARY KEY,
  "txid" bigint NOT NULL,
  "event_id" bigint NOT NULL,
  "updated_at" timestamptz NOT NULL DEFAULT now()
);
