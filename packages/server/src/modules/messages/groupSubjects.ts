/**
 * Group subjects (issue 21, item 2). A group chat's contact is named after the group's subject: the first
 * message stored names it (the provider gives the subject as the chat's display name; a contact still named
 * after its bare id takes it, contacts/identity.ts), and a subject WhatsApp reports changed (Baileys
 * `groups.update`, a `contacts` event with a group address) renames it, as the group's name is WhatsApp's.
 */
import { and, eq, inArray, ne, or } from "drizzle-orm";
import type { AppContext } from "../../context";
import { contactIdentities, contacts } from "../../db/schema";
import type { ChannelEvent } from "../../channels/types";
import { presentContact } from "../contacts/presenter";

export async function renameGroups(ctx: AppContext, companyId: number, event: Extract<ChannelEvent, { type: "contacts" }>): Promise<number> {
  const db = ctx.database.db;
  let renamed = 0;
  for (const { address, name } of event.contacts) {
    const subject = name?.trim().slice(0, 100);
    if (address.kind !== "group" || !subject) continue;
    const rows = await db
      .update(contacts)
      .set({ name: subject, updatedAt: new Date() })
      .where(
        and(
          eq(contacts.companyId, companyId),
          eq(contacts.isGroup, true),
          ne(contacts.name, subject),
          or(
            eq(contacts.number, address.id),
            inArray(
              contacts.id,
              db
                .select({ id: contactIdentities.contactId })
                .from(contactIdentities)
                .where(and(eq(contactIdentities.companyId, companyId), eq(contactIdentities.kind, "group"), eq(contactIdentities.value, address.id))),
            ),
          ),
        ),
      )
      .returning();
    for (const row of rows) ctx.events.publish({ type: "contacts.updated", companyId, contact: presentContact(row) });
    renamed += rows.length;
  }
  return renamed;
}

/** Subscribes to the channel manager's `contacts` events; returns the unsubscribe function. */
export function startGroupSubjects(ctx: AppContext): () => void {
  return ctx.channels.onEvent(async (source, event) => {
    if (event.type === "contacts") await renameGroups(ctx, source.companyId, event);
  });
}
