import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { connections } from "./connections";
import { contactListItems, contactLists } from "./contactLists";
import { contacts } from "./contacts";
import { companies, timestamps } from "./core";
import { messages } from "./messages";

export const campaigns = pgTable(
  "campaigns",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: varchar("name", { length: 100 }).notNull(),
    message1: text("message1").notNull().default(""),
    message2: text("message2").notNull().default(""),
    message3: text("message3").notNull().default(""),
    message4: text("message4").notNull().default(""),
    message5: text("message5").notNull().default(""),
    confirmationMessage1: text("confirmation_message1").notNull().default(""),
    confirmationMessage2: text("confirmation_message2").notNull().default(""),
    confirmationMessage3: text("confirmation_message3").notNull().default(""),
    confirmationMessage4: text("confirmation_message4").notNull().default(""),
    confirmationMessage5: text("confirmation_message5").notNull().default(""),
    /** INATIVA | PROGRAMADA | EM_ANDAMENTO | CANCELADA | FINALIZADA */
    status: varchar("status", { length: 20 }).notNull().default("INATIVA"),
    confirmation: boolean("confirmation").notNull().default(false),
    scheduledAt: timestamp("scheduled_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    connectionId: integer("connection_id").references(() => connections.id, { onDelete: "set null" }),
    contactListId: integer("contact_list_id").references(() => contactLists.id, { onDelete: "set null" }),
    mediaPath: varchar("media_path", { length: 500 }),
    mediaName: varchar("media_name", { length: 255 }),
    /** Why a running campaign is not sending (an error-catalogue code); null while it sends (0011). */
    pauseReason: varchar("pause_reason", { length: 64 }),
    /** Messages sent in this run (pacing: the longer pause after every `longerIntervalAfter`). */
    sendCount: integer("send_count").notNull().default(0),
    /** The earliest time the next message may go (pacing, kept across job runs). */
    nextSendAt: timestamp("next_send_at", { withTimezone: true }),
    /** The process running the campaign now and until when (renewed while it runs). */
    runOwner: varchar("run_owner", { length: 64 }),
    runLeaseUntil: timestamp("run_lease_until", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    // Job runner: PROGRAMADA campaigns that are due, across tenants.
    index("campaigns_status_scheduled_idx").on(t.status, t.scheduledAt),
    index("campaigns_company_created_idx").on(t.companyId, t.createdAt, t.id),
  ],
);

/** One row per recipient; a job row claimed with SKIP LOCKED, idempotency key written before the provider call. */
export const campaignShippings = pgTable(
  "campaign_shippings",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    campaignId: integer("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    /** Kept as history if the list item is deleted; `number` is copied. */
    contactListItemId: integer("contact_list_item_id").references(() => contactListItems.id, {
      onDelete: "set null",
    }),
    number: varchar("number", { length: 50 }).notNull(),
    /** The item's place in the list (1-based): message variants rotate by it (0011). */
    position: integer("position").notNull().default(0),
    name: varchar("name", { length: 100 }).notNull().default(""),
    email: varchar("email", { length: 254 }).notNull().default(""),
    /** The contact the messages went to (a reply from it confirms). */
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    messageId: integer("message_id").references(() => messages.id, { onDelete: "set null" }),
    confirmationMessageId: integer("confirmation_message_id").references(() => messages.id, { onDelete: "set null" }),
    message: text("message").notNull().default(""),
    confirmationMessage: text("confirmation_message").notNull().default(""),
    /** null = no answer yet. */
    confirmation: boolean("confirmation"),
    confirmationRequestedAt: timestamp("confirmation_requested_at", { withTimezone: true }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    /** pending | requesting | confirmation | confirmed | sending | delivered | failed (modules/campaigns/dispatcher.ts) */
    status: varchar("status", { length: 20 }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    idempotencyKey: varchar("idempotency_key", { length: 100 }).notNull(),
    providerMessageId: varchar("provider_message_id", { length: 128 }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("campaign_shippings_company_idempotency_key_uq").on(t.companyId, t.idempotencyKey),
    uniqueIndex("campaign_shippings_company_campaign_item_uq").on(t.companyId, t.campaignId, t.contactListItemId),
    index("campaign_shippings_awaiting_confirmation_idx")
      .on(t.companyId, t.contactId)
      .where(sql`${t.status} = 'confirmation'`),
    index("campaign_shippings_message_idx")
      .on(t.messageId)
      .where(sql`${t.messageId} is not null`),
    index("campaign_shippings_confirmation_message_idx")
      .on(t.confirmationMessageId)
      .where(sql`${t.confirmationMessageId} is not null`),
    index("campaign_shippings_contact_idx")
      .on(t.contactId)
      .where(sql`${t.contactId} is not null`),
    // Claim loop (next pending of a campaign) and the campaign report.
    index("campaign_shippings_company_campaign_status_idx").on(t.companyId, t.campaignId, t.status, t.id),
    // Deleting a contact list nulls shippings item by item; this keeps each lookup indexed.
    index("campaign_shippings_item_idx")
      .on(t.contactListItemId)
      .where(sql`${t.contactListItemId} is not null`),
  ],
);

/** messageInterval, longerIntervalAfter, greaterInterval, variables; value is JSON text. */
export const campaignSettings = pgTable(
  "campaign_settings",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    key: varchar("key", { length: 64 }).notNull(),
    value: text("value").notNull().default(""),
    ...timestamps,
  },
  (t) => [uniqueIndex("campaign_settings_company_key_uq").on(t.companyId, t.key)],
);
