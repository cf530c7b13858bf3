import { index, integer, pgTable, primaryKey, serial, text, uniqueIndex, uuid, varchar } from "drizzle-orm/pg-core";
import { companies, timestamps, users } from "./core";

/** Internal chat between users of one company. */
export const chats = pgTable(
  "chats",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    uuid: uuid("uuid").notNull().defaultRandom(),
    title: varchar("title", { length: 200 }).notNull().default(""),
    ownerId: integer("owner_id").references(() => users.id, { onDelete: "set null" }),
    lastMessage: text("last_message").notNull().default(""),
    ...timestamps,
  },
  (t) => [uniqueIndex("chats_uuid_uq").on(t.uuid), index("chats_company_updated_idx").on(t.companyId, t.updatedAt, t.id)],
);

export const chatUsers = pgTable(
  "chat_users",
  {
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    chatId: integer("chat_id")
      .notNull()
      .references(() => chats.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    unreads: integer("unreads").notNull().default(0),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.chatId, t.userId] }), index("chat_users_company_user_idx").on(t.companyId, t.userId)],
);

export const chatMessages = pgTable(
  "chat_messages",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    chatId: integer("chat_id")
      .notNull()
      .references(() => chats.id, { onDelete: "cascade" }),
    /** Kept (sender shown as unknown) when the user is deleted. */
    senderId: integer("sender_id").references(() => users.id, { onDelete: "set null" }),
    message: text("message").notNull().default(""),
    mediaPath: varchar("media_path", { length: 500 }),
    mediaName: varchar("media_name", { length: 255 }),
    ...timestamps,
  },
  (t) => [index("chat_messages_company_chat_created_idx").on(t.companyId, t.chatId, t.createdAt, t.id)],
);
