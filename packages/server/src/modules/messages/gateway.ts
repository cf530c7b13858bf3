import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context";
import type { DbOrTx } from "../../db/client";
import { contactIdentities, contacts } from "../../db/schema";
import { ChannelError, type ChannelAddress, type ChannelSession } from "../../channels/types";

interface SessionSource {
  session(companyId: number, connectionId: number): ChannelSession;
}

/** The live WhatsApp session of a connection, through the channel manager on the context. */
export function sessionFor(ctx: AppContext, companyId: number, connectionId: number | null): ChannelSession {
  const channels = (ctx as unknown as { channels?: SessionSource }).channels;
  if (!channels || connectionId === null) throw new ChannelError("NOT_CONNECTED");
  return channels.session(companyId, connectionId);
}

const KIND_PREFERENCE: ChannelAddress["kind"][] = ["phone", "wa_lid", "cloud_id"];

/** How to address a contact on WhatsApp: its group id, else its phone, else another identity. */
export async function addressOfContact(db: DbOrTx, companyId: number, contactId: number): Promise<ChannelAddress> {
  const [contact] = await db
    .select({ number: contacts.number, isGroup: contacts.isGroup, name: contacts.name })
    .from(contacts)
    .where(and(eq(contacts.id, contactId), eq(contacts.companyId, companyId)))
    .limit(1);
  if (!contact) throw new ChannelError("INVALID_NUMBER");
  const identities = await db
    .select({ kind: contactIdentities.kind, value: contactIdentities.value })
    .from(contactIdentities)
    .where(and(eq(contactIdentities.companyId, companyId), eq(contactIdentities.contactId, contactId)));
  if (contact.isGroup) {
    const group = identities.find((i) => i.kind === "group");
    return { id: group?.value ?? contact.number ?? "", kind: "group" };
  }
  for (const kind of KIND_PREFERENCE) {
    const found = identities.find((i) => i.kind === kind);
    if (found) {
      const alternates = identities
        .filter((i) => i !== found && KIND_PREFERENCE.includes(i.kind as ChannelAddress["kind"]))
        .map((i) => ({ kind: i.kind as "phone" | "wa_lid" | "cloud_id", id: i.value }));
      return { id: found.value, kind, alternates };
    }
  }
  if (contact.number) return { id: contact.number, kind: "phone" };
  throw new ChannelError("INVALID_NUMBER");
}
