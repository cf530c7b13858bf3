import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
import { connections } from "./connections";
import { contacts } from "./contacts";
import { companies, queues, timestamps, users } from "./core";
import { queueOptions } from "./queueOptions";

export const tickets = pgTable(
  "tickets",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    /** Public id used in /tickets/{uuid}. */
    uuid: uuid("uuid").notNull().defaultRandom(),
    /** pending | open | closed */
    status: varchar("status", { length: 10 }).notNull().default("pending"),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    queueId: integer("queue_id").references(() => queues.id, { onDelete: "set null" }),
    connectionId: integer("connection_id").references(() => connections.id, { onDelete: "set null" }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    isGroup: boolean("is_group").notNull().default(false),
    /** True while the queue/option menu bot is talking to the customer. */
    chatbot: boolean("chatbot").notNull().default(false),
    queueOptionId: integer("queue_option_id").references(() => queueOptions.id, { onDelete: "set null" }),
    code: varchar("code", { length: 50 }),
    lastMessage: text("last_message").notNull().default(""),
    unreadMessages: integer("unread_messages").notNull().default(0),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("tickets_uuid_uq").on(t.uuid),
    // Keyset pagination of the ticket list (updated_at desc, id desc) per tab/filter.
    index("tickets_company_status_updated_idx").on(t.companyId, t.status, t.updatedAt, t.id),
    // The search tab and 'all visible' lists have no status to lead with.
    index("tickets_company_updated_idx").on(t.companyId, t.updatedAt, t.id),
    index("tickets_company_queue_status_updated_idx").on(t.companyId, t.queueId, t.status, t.updatedAt, t.id),
    index("tickets_company_user_status_updated_idx").on(t.companyId, t.userId, t.status, t.updatedAt, t.id),
    index("tickets_company_contact_connection_status_idx").on(t.companyId, t.contactId, t.connectionId, t.status),
    // ERR_OTHER_OPEN_TICKET as a constraint: concurrent inbound messages cannot open two live tickets.
    uniqueIndex("tickets_company_contact_connection_active_uq")
      .on(t.companyId, t.contactId, t.connectionId)
      .where(sql`${t.status} <> 'closed'`),
  ],
);

/** One row per attendance cycle (accepted → closed); the dashboard and ratings read only this. */
export const attendanceCycles = pgTable(
  "attendance_cycles",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    connectionId: integer("connection_id").references(() => connections.id, { onDelete: "set null" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    queueId: integer("queue_id").references(() => queues.id, { onDelete: "set null" }),
    queuedAt: timestamp("queued_at", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    ratingAt: timestamp("rating_at", { withTimezone: true }),
    chatbotAt: timestamp("chatbot_at", { withTimezone: true }),
    rated: boolean("rated").notNull().default(false),
    rating: integer("rating"),
    /** The rating prompt went out (resolve with userRating enabled); the next answers are rating attempts. */
    ratingRequestedAt: timestamp("rating_requested_at", { withTimezone: true }),
    /** Invalid answers to the rating prompt so far (the bot gives up after a few). */
    ratingAttempts: integer("rating_attempts").notNull().default(0),
    /** The out-of-hours message went out in this cycle (sent at most once per cycle). */
    outOfHoursSentAt: timestamp("out_of_hours_sent_at", { withTimezone: true }),
    /** The contact's first attendance cycle: a lead on the dashboard. */
    firstOfContact: boolean("first_of_contact").notNull().default(false),
    ...timestamps,
  },
  (t) => [
    check("attendance_cycles_rating_ck", sql`${t.rating} between 1 and 3`),
    // The dashboard's ranges (modules/dashboard/service.ts) read these indexes alone (index-only scans).
    index("attendance_cycles_company_finished_idx").on(t.companyId, t.finishedAt, t.startedAt, t.userId, t.queueId, t.rating),
    index("attendance_cycles_company_waiting_idx")
      .on(t.companyId, t.queuedAt)
      .where(sql`${t.startedAt} is null and ${t.finishedAt} is null`),
    index("attendance_cycles_company_in_progress_idx")
      .on(t.companyId, t.startedAt)
      .where(sql`${t.finishedAt} is null and ${t.startedAt} is not null`),
    index("attendance_cycles_company_created_idx").on(t.companyId, t.createdAt),
    index("attendance_cycles_company_ticket_idx").on(t.companyId, t.ticketId),
    // The cycle in progress is found-or-created; at most one per ticket.
    uniqueIndex("attendance_cycles_company_ticket_open_uq")
      .on(t.companyId, t.ticketId)
      .where(sql`${t.finishedAt} is null`),
  ],
);

/**
 * Per company-local day and attendant (0 = none), the sums of the attendance cycles (migration 0008): kept by
 * triggers on attendance_cycles in the same transaction, rebuilt when the company's time zone changes. The
 * dashboard sums these rows for a period instead of scanning its cycles.
 */
export const attendanceDaily = pgTable(
  "attendance_daily",
  {
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    userId: integer("user_id").notNull().default(0),
    finished: integer("finished").notNull().default(0),
    served: integer("served").notNull().default(0),
    supportMs: bigint("support_ms", { mode: "number" }).notNull().default(0),
    ratings: integer("ratings").notNull().default(0),
    ratingSum: integer("rating_sum").notNull().default(0),
    started: integer("started").notNull().default(0),
    waited: integer("waited").notNull().default(0),
    waitMs: bigint("wait_ms", { mode: "number" }).notNull().default(0),
    leads: integer("leads").notNull().default(0),
  },
  (t) => [primaryKey({ name: "attendance_daily_pk", columns: [t.companyId, t.day, t.userId] })],
);

export const ticketNotes = pgTable(
  "ticket_notes",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    note: text("note").notNull(),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    index("ticket_notes_company_ticket_created_idx").on(t.companyId, t.ticketId, t.createdAt, t.id),
    index("ticket_notes_company_contact_created_idx").on(t.companyId, t.contactId, t.createdAt, t.id),
  ],
);
