import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { companies, queues, timestamps } from "./core";

/** A WhatsApp number (the reference's `Whatsapps`). Credentials live in connection_auth, never here. */
export const connections = pgTable(
  "connections",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: varchar("name", { length: 50 }).notNull(),
    /** qrcode | PAIRING | OPENING | CONNECTED | DISCONNECTED | TIMEOUT (spec §4). */
    status: varchar("status", { length: 20 }).notNull().default("DISCONNECTED"),
    qrcode: text("qrcode").notNull().default(""),
    retries: integer("retries").notNull().default(0),
    isDefault: boolean("is_default").notNull().default(false),
    greetingMessage: text("greeting_message").notNull().default(""),
    complationMessage: text("complation_message").notNull().default(""),
    outOfHoursMessage: text("out_of_hours_message").notNull().default(""),
    ratingMessage: text("rating_message").notNull().default(""),
    farewellMessage: text("farewell_message").notNull().default(""),
    /** External send-API token; looked up before any tenant is known, hence globally unique. */
    token: varchar("token", { length: 128 }),
    /** The spec's field (default 'beta'); informational only. */
    provider: varchar("provider", { length: 20 }).notNull().default("beta"),
    /** Provider implementation: simulator | baileys | cloud-api. */
    channel: varchar("channel", { length: 20 }).notNull().default("simulator"),
    /** Minutes before a pending ticket moves to sendIdQueue; 0 = off. */
    timeSendQueue: integer("time_send_queue").notNull().default(0),
    /** Target queue id for the timed transfer; 0 = none (spec default), so not a foreign key. */
    sendIdQueue: integer("send_id_queue").notNull().default(0),
    /** Number of the paired account (digits), learnt on connect. */
    number: varchar("number", { length: 30 }),
    /** Provider-side account id (Cloud API phone_number_id) to route webhooks to this row. */
    providerAccountId: varchar("provider_account_id", { length: 64 }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("connections_company_name_uq").on(t.companyId, t.name),
    uniqueIndex("connections_token_uq").on(t.token),
    // At most one default connection per company.
    uniqueIndex("connections_company_default_uq")
      .on(t.companyId)
      .where(sql`${t.isDefault}`),
    // One webhook target per provider account, whatever the tenant.
    uniqueIndex("connections_channel_account_uq").on(t.channel, t.providerAccountId),
  ],
);

export const connectionQueues = pgTable(
  "connection_queues",
  {
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    connectionId: integer("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    queueId: integer("queue_id")
      .notNull()
      .references(() => queues.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.queueId] }), index("connection_queues_company_queue_idx").on(t.companyId, t.queueId)],
);

/** Baileys auth state. Secret: never serialised to any client (reference defect 10). */
export const connectionAuth = pgTable("connection_auth", {
  connectionId: integer("connection_id")
    .primaryKey()
    .references(() => connections.id, { onDelete: "cascade" }),
  companyId: integer("company_id")
    .notNull()
    .references(() => companies.id, { onDelete: "cascade" }),
  /** AuthenticationCreds (BufferJSON-encoded); null until initAuthCreds() runs. */
  creds: jsonb("creds"),
  /** SignalKeyStore as { [type]: { [id]: value } } (BufferJSON-encoded). */
  keys: jsonb("keys").$type<Record<string, Record<string, unknown>>>().notNull().default({}),
  ...timestamps,
});

/** Single-owner rule: the process holding an unexpired lease is the only one running the session. */
export const connectionLeases = pgTable("connection_leases", {
  connectionId: integer("connection_id")
    .primaryKey()
    .references(() => connections.id, { onDelete: "cascade" }),
  companyId: integer("company_id")
    .notNull()
    .references(() => companies.id, { onDelete: "cascade" }),
  ownerId: varchar("owner_id", { length: 100 }).notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  /** A REST command (start | restart | newqr | stop) relayed to the owning process, which clears it once applied. */
  command: varchar("command", { length: 20 }),
  ...timestamps,
});

/**
 * Baileys Signal key store, one row per key (channels.md §2.2): `keys.set` writes only the keys it
 * names, in one transaction, instead of rewriting one large JSON document. Secret, like connection_auth.
 */
export const connectionAuthKeys = pgTable(
  "connection_auth_keys",
  {
    connectionId: integer("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    /** pre-key | session | sender-key | app-state-sync-key | lid-mapping | device-list | tctoken … */
    type: varchar("type", { length: 40 }).notNull(),
    keyId: varchar("key_id", { length: 300 }).notNull(),
    /** BufferJSON-encoded value. */
    value: jsonb("value").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.type, t.keyId] })],
);

/**
 * A connection's health timeline (issue 21): one row per status change (`kind` status) with its mapped reason,
 * and one per alert sent to the admins (`kind` alert). Read by GET /whatsapp/:id/health.
 */
export const connectionEvents = pgTable(
  "connection_events",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    connectionId: integer("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    kind: varchar("kind", { length: 10 }).notNull().default("status"),
    status: varchar("status", { length: 20 }).notNull(),
    reason: varchar("reason", { length: 40 }),
    detail: varchar("detail", { length: 300 }),
    retries: integer("retries").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("connection_events_company_connection_created_idx").on(t.companyId, t.connectionId, t.createdAt)],
);
