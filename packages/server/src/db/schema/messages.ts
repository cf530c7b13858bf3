import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, varchar, type AnyPgColumn } from "drizzle-orm/pg-core";
import { connections } from "./connections";
import { contacts } from "./contacts";
import { companies, timestamps } from "./core";
import { foldIndexExpression } from "../search";
import { tickets } from "./tickets";

/** Keyed by our own id; the provider's id is only unique within its connection (reference keyed on it globally). */
export const messages = pgTable(
  "messages",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    connectionId: integer("connection_id").references(() => connections.id, { onDelete: "set null" }),
    /** WhatsApp key id / wamid; null until an outbound message is accepted by the provider. */
    providerMessageId: varchar("provider_message_id", { length: 128 }),
    /** Client-supplied key for POST /messages and the send API, so a retried request sends once. */
    idempotencyKey: varchar("idempotency_key", { length: 100 }),
    remoteJid: varchar("remote_jid", { length: 100 }),
    /** Sender inside a group. */
    participant: varchar("participant", { length: 100 }),
    body: text("body").notNull().default(""),
    fromMe: boolean("from_me").notNull().default(false),
    mediaType: varchar("media_type", { length: 30 }).notNull().default("chat"),
    mediaUrl: varchar("media_url", { length: 500 }),
    mediaPath: varchar("media_path", { length: 500 }),
    mediaName: varchar("media_name", { length: 255 }),
    mimeType: varchar("mime_type", { length: 100 }),
    quotedMsgId: integer("quoted_msg_id").references((): AnyPgColumn => messages.id, { onDelete: "set null" }),
    read: boolean("read").notNull().default(false),
    /** 0 pending, 1 sent, 2 delivered, 3 read, 4/5 played. */
    ack: integer("ack").notNull().default(0),
    isDeleted: boolean("is_deleted").notNull().default(false),
    isEdited: boolean("is_edited").notNull().default(false),
    /** When the body was last replaced by an edit (issue 21); earlier texts are in message_edits. */
    editedAt: timestamp("edited_at", { withTimezone: true }),
    /** Outbound delivery: pending | sent | failed. */
    status: varchar("status", { length: 10 }).notNull().default("sent"),
    /** Raw provider payload, server-side only. */
    dataJson: jsonb("data_json"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("messages_company_connection_provider_id_uq").on(t.companyId, t.connectionId, t.providerMessageId),
    uniqueIndex("messages_company_idempotency_key_uq").on(t.companyId, t.idempotencyKey),
    index("messages_company_ticket_created_idx").on(t.companyId, t.ticketId, t.createdAt, t.id),
    index("messages_company_contact_created_idx").on(t.companyId, t.contactId, t.createdAt, t.id),
    // Without it every deleted message would scan the table to null its quotes.
    index("messages_quoted_msg_idx")
      .on(t.quotedMsgId)
      .where(sql`${t.quotedMsgId} is not null`),
    // Replies waiting for their connection (modules/messages/sendQueue.ts; few rows carry the marker).
    index("messages_queued_idx")
      .on(t.companyId, t.connectionId, t.id)
      .where(sql`(${t.dataJson}->>'queued') is not null`),
    // Ticket search by message text (db/search.ts).
    index("messages_body_trgm_idx").using("gin", foldIndexExpression(t.body)),
  ],
);

/**
 * Reactions to a message (issue 21): one per sender — the customer's chat id, a group participant's id, or
 * "me" for the company's own reaction. A new emoji from the same sender replaces it; "" deletes the row.
 */
export const messageReactions = pgTable(
  "message_reactions",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    messageId: integer("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    sender: varchar("sender", { length: 100 }).notNull(),
    emoji: varchar("emoji", { length: 32 }).notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("message_reactions_company_message_sender_uq").on(t.companyId, t.messageId, t.sender)],
);

/** The texts an edited message had before (issue 21), each with the time it was replaced. */
export const messageEdits = pgTable(
  "message_edits",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    messageId: integer("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    previousBody: text("previous_body").notNull(),
    /** The provider's id of the edit itself, when it has one: a redelivered edit is recognised. */
    providerEditId: varchar("provider_edit_id", { length: 128 }),
    editedAt: timestamp("edited_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("message_edits_company_message_idx").on(t.companyId, t.messageId, t.editedAt),
    uniqueIndex("message_edits_company_message_provider_uq").on(t.companyId, t.messageId, t.providerEditId),
  ],
);
