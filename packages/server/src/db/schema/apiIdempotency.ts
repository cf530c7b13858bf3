import { index, integer, jsonb, pgTable, serial, timestamp, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { connections } from "./connections";
import { companies } from "./core";

/** `Idempotency-Key`s of the send API (migration 0009): reserved before the send, the first response after it. */
export const apiIdempotencyKeys = pgTable(
  "api_idempotency_keys",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    connectionId: integer("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    /** SHA-256 (hex) of the token the key came with: a regenerated token starts afresh. */
    tokenHash: varchar("token_hash", { length: 64 }).notNull(),
    key: varchar("key", { length: 200 }).notNull(),
    /** Null while the first request is still running. */
    statusCode: integer("status_code"),
    response: jsonb("response"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("api_idempotency_keys_token_key_uq").on(t.companyId, t.tokenHash, t.key),
    index("api_idempotency_keys_created_at_idx").on(t.createdAt),
  ],
);
