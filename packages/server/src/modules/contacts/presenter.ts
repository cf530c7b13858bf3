import { asc, inArray } from "drizzle-orm";
import type { ContactDTO, ContactExtraInfoDTO } from "@balcao/shared";
import type { DbOrTx } from "../../db/client";
import { contactExtraInfo, contacts } from "../../db/schema";

type ContactRow = typeof contacts.$inferSelect;

/** The wire shape of a contact (REST and the `contact` socket event alike). */
export function presentContact(c: ContactRow, extraInfo?: ContactExtraInfoDTO[]): ContactDTO {
  return {
    id: c.id,
    companyId: c.companyId,
    name: c.name,
    number: c.number,
    email: c.email,
    profilePicUrl: c.profilePicUrl,
    isGroup: c.isGroup,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    ...(extraInfo && { extraInfo }),
  };
}

/** Contacts with their extra info rows, in one batched query. */
export async function presentContactsWithExtraInfo(db: DbOrTx, rows: ContactRow[]): Promise<ContactDTO[]> {
  if (rows.length === 0) return [];
  const info = await db
    .select({ id: contactExtraInfo.id, contactId: contactExtraInfo.contactId, name: contactExtraInfo.name, value: contactExtraInfo.value })
    .from(contactExtraInfo)
    .where(
      inArray(
        contactExtraInfo.contactId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(contactExtraInfo.id));
  const byContact = new Map<number, ContactExtraInfoDTO[]>();
  for (const i of info) {
    const list = byContact.get(i.contactId) ?? [];
    list.push({ id: i.id, name: i.name, value: i.value });
    byContact.set(i.contactId, list);
  }
  return rows.map((r) => presentContact(r, byContact.get(r.id) ?? []));
}

export async function presentContactWithExtraInfo(db: DbOrTx, row: ContactRow): Promise<ContactDTO> {
  const [dto] = await presentContactsWithExtraInfo(db, [row]);
  return dto!;
}
