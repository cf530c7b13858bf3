import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";

/** Timestamps every table carries. */
export const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

export const plans = pgTable(
  "plans",
  {
    id: serial("id").primaryKey(),
    name: varchar("name", { length: 100 }).notNull(),
    users: integer("users").notNull().default(0),
    connections: integer("connections").notNull().default(0),
    queues: integer("queues").notNull().default(0),
    /** Monthly price in BRL. */
    value: numeric("value", { precision: 10, scale: 2, mode: "number" }).notNull().default(0),
    ...timestamps,
  },
  (t) => [uniqueIndex("plans_name_uq").on(sql`lower(${t.name})`)],
);

export const companies = pgTable(
  "companies",
  {
    id: serial("id").primaryKey(),
    name: varchar("name", { length: 100 }).notNull(),
    email: varchar("email", { length: 254 }).notNull().default(""),
    phone: varchar("phone", { length: 30 }).notNull().default(""),
    planId: integer("plan_id").references(() => plans.id, { onDelete: "set null" }),
    status: boolean("status").notNull().default(true),
    campaignsEnabled: boolean("campaigns_enabled").notNull().default(true),
    /** Calendar date the subscription is paid until (company time zone). */
    dueDate: date("due_date", { mode: "string" }),
    recurrence: varchar("recurrence", { length: 12 }).notNull().default("MENSAL"),
    timeZone: varchar("time_zone", { length: 64 }).notNull().default("America/Sao_Paulo"),
    billingName: varchar("billing_name", { length: 200 }),
    addressZipCode: varchar("address_zip_code", { length: 20 }),
    addressStreet: varchar("address_street", { length: 200 }),
    addressState: varchar("address_state", { length: 50 }),
    addressCity: varchar("address_city", { length: 100 }),
    addressDistrict: varchar("address_district", { length: 100 }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("companies_name_uq").on(sql`lower(${t.name})`),
    index("companies_due_date_idx").on(t.dueDate),
    index("companies_plan_idx").on(t.planId),
  ],
);

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: varchar("name", { length: 50 }).notNull(),
    email: varchar("email", { length: 254 }).notNull(),
    passwordHash: text("password_hash").notNull(),
    profile: varchar("profile", { length: 10 }).notNull().default("user"),
    super: boolean("super").notNull().default(false),
    /** 'enable' lets the user be notified of pending tickets (spec §3). */
    allTicket: varchar("all_ticket", { length: 10 }).notNull().default("disable"),
    online: boolean("online").notNull().default(false),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
    /** Interface language picked in the user menu ('pt' | 'en' | 'es'); null until picked (issue 16). */
    language: varchar("language", { length: 5 }),
    ...timestamps,
  },
  (t) => [
    // Login is by email across all companies, so an email names one account.
    uniqueIndex("users_email_uq").on(t.email),
    index("users_company_name_idx").on(t.companyId, t.name, t.id),
    // Finds the platform (super users') company, whose userCreation setting opens or closes sign-up.
    index("users_super_idx")
      .on(t.id)
      .where(sql`${t.super}`),
  ],
);

/** One row per login (device). The refresh token itself is never stored, only its HMAC. */
export const refreshSessions = pgTable(
  "refresh_sessions",
  {
    id: uuid("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    /** The hash the last rotation replaced: presenting it again means the token was stolen. */
    previousTokenHash: text("previous_token_hash"),
    userAgent: varchar("user_agent", { length: 300 }).notNull().default(""),
    ip: varchar("ip", { length: 64 }).notNull().default(""),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index("refresh_sessions_company_user_idx").on(t.companyId, t.userId)],
);

export const settings = pgTable(
  "settings",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    key: varchar("key", { length: 64 }).notNull(),
    value: text("value").notNull().default(""),
    ...timestamps,
  },
  (t) => [uniqueIndex("settings_company_key_uq").on(t.companyId, t.key)],
);

/** Platform-wide help videos (no company). */
export const helps = pgTable("helps", {
  id: serial("id").primaryKey(),
  title: varchar("title", { length: 200 }).notNull(),
  description: text("description").notNull().default(""),
  video: varchar("video", { length: 100 }).notNull().default(""),
  link: varchar("link", { length: 500 }),
  ...timestamps,
});

/** Weekly opening hours shape shared by company and queue schedules. */
export interface WeeklySlot {
  weekday: string;
  weekdayEn: string;
  startTime: string;
  endTime: string;
}

export const queues = pgTable(
  "queues",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: varchar("name", { length: 50 }).notNull(),
    color: varchar("color", { length: 9 }).notNull(),
    greetingMessage: text("greeting_message").notNull().default(""),
    complationMessage: text("complation_message").notNull().default(""),
    outOfHoursMessage: text("out_of_hours_message").notNull().default(""),
    ratingMessage: text("rating_message").notNull().default(""),
    schedules: jsonb("schedules").$type<WeeklySlot[]>().notNull().default([]),
    orderQueue: integer("order_queue"),
    ...timestamps,
  },
  (t) => [uniqueIndex("queues_company_name_uq").on(t.companyId, t.name), uniqueIndex("queues_company_color_uq").on(t.companyId, t.color)],
);

export const userQueues = pgTable(
  "user_queues",
  {
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    queueId: integer("queue_id")
      .notNull()
      .references(() => queues.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.queueId] }), index("user_queues_company_queue_idx").on(t.companyId, t.queueId)],
);
