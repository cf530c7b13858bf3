/**
 * Contact identity (reference/channels.md §3): a contact is a person; the ids WhatsApp knows them by
 * (phone digits, LID, Cloud API user id, group id) are rows of contact_identities, unique per company.
 * Inbound resolution order: (1) the provider's primary id, (2) the alternates of the same event,
 * (3) for Brazil (+55) only, the other form of a mobile number (with/without the 9th digit),
 * (4) the contacts.number column (contacts created before/without identities), else (5) a new contact.
 * Every identity learnt on the way is attached to the contact found.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { brazilNinthDigitVariants, normalizePhoneNumber } from "@balcao/shared";
import type { ChannelAddress } from "../../channels/types";
import { isUniqueViolation, type DbOrTx } from "../../db/client";
import { contactIdentities, contacts } from "../../db/schema";
import { cteFields, statement } from "../../db/statement";

export type ContactRow = typeof contacts.$inferSelect;
export type IdentityKind = ChannelAddress["kind"];

export interface IdentityInput {
  kind: IdentityKind;
  value: string;
}

/** Canonical stored value of an identity: digits for phones, trimmed lower-case for the rest. */
export function identityValue(kind: IdentityKind, id: string): string {
  if (kind === "phone") return id.replace(/@.*$/, "").replace(/\D/g, "");
  return id.trim().toLowerCase();
}

/** "kind:value": an identity as one string, as `contactCandidates` lists the ones each contact owns (`matched`). */
const keyOf = (identity: IdentityInput) => `${identity.kind}:${identity.value}`;

function identitiesOf(chat: ChannelAddress): IdentityInput[] {
  const all: IdentityInput[] = [{ kind: chat.kind, value: identityValue(chat.kind, chat.id) }];
  for (const alt of chat.alternates ?? []) all.push({ kind: alt.kind, value: identityValue(alt.kind, alt.id) });
  const seen = new Set<string>();
  return all.filter((i) => {
    const key = keyOf(i);
    if (!i.value || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Every contact an inbound address may belong to, in one round trip (issue 20: every inbound message starts
 * here): those owning one of the wanted identities (the address's own, then a Brazilian phone's 9th-digit
 * variants), with the wanted ones each owns (`matched`, "kind:value"), and those whose number column holds one of
 * the candidate numbers. One text for any count (arrays), named, so each pooled connection plans it once.
 * Its shape keeps the plan linear without statistics (a new company's tables): the candidate ids are an array
 * computed once, and kinds and values are plain index conditions; a pair of the kinds × values cross product
 * may come back (`matched` lists what each owns, and the caller takes exact pairs only). The sub-select names the
 * outer row's table: drizzle writes a select list's columns unqualified, and a bare "id" there would be the
 * identity's.
 */
const contactCandidates = statement((tx) => {
  const companyId = sql.placeholder("companyId");
  const wanted = sql`ci.company_id = ${companyId} and ci.kind = any(${sql.placeholder("kinds")}::text[]) and ci.value = any(${sql.placeholder("values")}::text[])`;
  return tx
    .select({
      contact: contacts,
      matched: sql<
        string[]
      >`array(select ci.kind || ':' || ci.value from ${contactIdentities} ci where ${wanted} and ci.contact_id = ${contacts}.id)`,
    })
    .from(contacts)
    .where(
      and(
        eq(contacts.companyId, companyId),
        sql`${contacts.id} = any(array(
          select ci.contact_id from ${contactIdentities} ci where ${wanted}
          union all
          select n.id from ${contacts} n
          where n.company_id = ${companyId} and n.number = any(${sql.placeholder("numbers")}::text[]) and n.is_group = ${sql.placeholder("isGroup")}))`,
      ),
    )
    .prepare("inbound_contact_candidates");
});

/**
 * A new contact with its identities, in one statement (issue 20; a savepoint, two inserts and its release
 * before). `attached` below the identities' count: another transaction holds one of them (committed, or
 * committing first): the caller undoes this contact and takes theirs.
 */
const createContact = statement((tx) => {
  const created = tx.$with("created_contact").as(
    tx
      .insert(contacts)
      .values({
        companyId: sql.placeholder("companyId"),
        name: sql.placeholder("name"),
        number: sql.placeholder("number"),
        isGroup: sql.placeholder("isGroup"),
      })
      .onConflictDoNothing()
      .returning(),
  );
  const attached = tx.$with("attached_identities", {}).as(
    sql`insert into ${contactIdentities} (company_id, contact_id, kind, value, connection_id, source)
      select c.company_id, c.id, u.kind, u.value, ${sql.placeholder("connectionId")}, 'inbound'
      from created_contact c, unnest(${sql.placeholder("kinds")}::text[], ${sql.placeholder("values")}::text[]) as u(kind, value)
      on conflict do nothing returning 1 as n`,
  );
  return tx
    .with(created, attached)
    .select({ contact: cteFields(created), attached: sql<number>`(select count(*) from attached_identities)::int` })
    .from(created)
    .prepare("inbound_create_contact");
});

async function contactById(tx: DbOrTx, companyId: number, id: number): Promise<ContactRow | undefined> {
  const [row] = await tx
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, id)))
    .limit(1);
  return row;
}

interface Found {
  contact: ContactRow;
  complete: boolean;
}

/** Phone digits with their 9th-digit variant (Brazil only), the given forms first. */
function phoneCandidates(phones: string[]): { exact: string[]; variants: string[] } {
  const exact = [...new Set(phones)];
  const variants = [...new Set(exact.flatMap((p) => brazilNinthDigitVariants(p)))].filter((v) => !exact.includes(v));
  return { exact, variants };
}

/**
 * Attaches identities to a contact; ones already owned (by it or by another contact) are left alone.
 * Merging two contacts that turn out to share an identity is not done here (it needs an audit trail).
 */
export async function attachIdentities(
  tx: DbOrTx,
  companyId: number,
  contactId: number,
  list: IdentityInput[],
  options: { connectionId?: number | null; source: string; verified?: boolean },
): Promise<void> {
  if (list.length === 0) return;
  await tx
    .insert(contactIdentities)
    .values(
      list.map((i) => ({
        companyId,
        contactId,
        kind: i.kind,
        value: i.value,
        connectionId: options.connectionId ?? null,
        source: options.source,
        verifiedAt: options.verified ? new Date() : null,
      })),
    )
    .onConflictDoNothing();
}

/** Sets contacts.number from a learnt phone when the contact has none and no other contact holds it. */
async function fillNumber(tx: DbOrTx, contact: ContactRow, phone: string | undefined): Promise<ContactRow> {
  if (contact.number || !phone) return contact;
  try {
    const [row] = await tx.transaction(async (sp) =>
      sp
        .update(contacts)
        .set({ number: phone, updatedAt: new Date() })
        .where(and(eq(contacts.id, contact.id), sql`${contacts.number} is null`))
        .returning(),
    );
    return row ?? contact;
  } catch (err) {
    if (isUniqueViolation(err)) return contact;
    throw err;
  }
}

/**
 * Finds or creates the contact behind an inbound chat address (see the resolution order above).
 * Safe under concurrency: the unique indexes on identities and numbers decide, and a loser re-reads.
 * `handle` may be the database (a transaction is opened) or an open transaction.
 */
export async function resolveInboundContact(
  handle: DbOrTx,
  companyId: number,
  connectionId: number,
  chat: ChannelAddress,
  pushName?: string,
): Promise<{ contact: typeof contacts.$inferSelect; created: boolean }> {
  // A contact that loses a race is deleted again, which only its own transaction may do unseen.
  if (!(handle instanceof PgTransaction)) return handle.transaction((tx) => resolveInboundContact(tx, companyId, connectionId, chat, pushName));
  const tx = handle;
  const learnt = identitiesOf(chat);
  if (learnt.length === 0) throw new Error("resolveInboundContact: empty chat address");
  const isGroup = chat.kind === "group";
  const phones = learnt.filter((i) => i.kind === "phone").map((i) => i.value);
  const groupId = isGroup ? learnt[0]!.value : undefined;
  const displayName = (pushName ?? chat.pushName ?? "").trim().slice(0, 100);

  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await findExisting(tx, companyId, learnt, phones, groupId);
    if (existing) {
      const found = existing.contact;
      // A known person writing again (the usual message) has nothing new to attach: no write (issue 20).
      if (!existing.complete) await attachIdentities(tx, companyId, found.id, learnt, { connectionId, source: "inbound" });
      let contact = await fillNumber(tx, found, phones[0]);
      contact = await refreshPlaceholderName(tx, contact, displayName);
      return { contact, created: false };
    }
    const number = groupId ?? phones[0] ?? null;
    const [row] = await createContact(tx).execute({
      companyId,
      name: displayName || number || learnt[0]!.value.slice(0, 100),
      number,
      isGroup,
      connectionId,
      kinds: learnt.map((i) => i.kind),
      values: learnt.map((i) => i.value),
    });
    if (row && row.attached === learnt.length) return { contact: row.contact, created: true };
    // Another message created the same person meanwhile (its number or one of its identities): undo ours (its
    // identities go with it) and take theirs on the next turn.
    if (row) await tx.delete(contacts).where(eq(contacts.id, row.contact.id));
  }
  throw new Error("resolveInboundContact: could not settle a concurrent creation");
}

/** The contact of the first candidate, in the resolution order above (one round trip for all of them). */
async function findExisting(
  tx: DbOrTx,
  companyId: number,
  learnt: IdentityInput[],
  phones: string[],
  groupId: string | undefined,
): Promise<Found | undefined> {
  const { exact, variants } = groupId ? { exact: [], variants: [] } : phoneCandidates(phones);
  const wanted = [...learnt, ...variants.map((value) => ({ kind: "phone" as const, value }))];
  const rows = await contactCandidates(tx).execute({
    companyId,
    kinds: wanted.map((i) => i.kind),
    values: wanted.map((i) => i.value),
    numbers: groupId ? [groupId] : [...exact, ...variants],
    isGroup: Boolean(groupId),
  });
  if (rows.length === 0) return undefined;
  const owner = (i: IdentityInput) => rows.find((r) => r.matched.includes(keyOf(i)));
  // (1) primary, then (2) alternates.
  for (const identity of learnt) {
    const hit = owner(identity);
    if (hit) return { contact: hit.contact, complete: learnt.every((i) => hit.matched.includes(keyOf(i))) };
  }
  // (3) the 9th-digit variant of a Brazilian phone.
  for (const value of variants) {
    const hit = owner({ kind: "phone", value });
    if (hit) return { contact: hit.contact, complete: false };
  }
  // (4) contacts that only have the number column (created by imports or other modules), or a group's id.
  for (const number of groupId ? [groupId] : [...exact, ...variants]) {
    const hit = rows.find((r) => r.contact.number === number && r.contact.isGroup === Boolean(groupId));
    if (hit) return { contact: hit.contact, complete: false };
  }
  return undefined;
}

/** A contact created from a bare number (or group id) gets the push name (group subject) once WhatsApp tells us one. */
async function refreshPlaceholderName(tx: DbOrTx, contact: ContactRow, displayName: string): Promise<ContactRow> {
  if (!displayName || contact.name === displayName) return contact;
  if (contact.name !== contact.number) return contact;
  const [row] = await tx.update(contacts).set({ name: displayName, updatedAt: new Date() }).where(eq(contacts.id, contact.id)).returning();
  return row ?? contact;
}

/**
 * The contact a typed number belongs to, whatever form it was typed or stored in (9th digit included):
 * phone identities first, then the number column. `exceptContactId` skips the contact being edited.
 */
export async function findContactByNumber(tx: DbOrTx, companyId: number, typedNumber: string, exceptContactId?: number): Promise<ContactRow | null> {
  const normalized = normalizePhoneNumber(typedNumber) ?? typedNumber.replace(/\D/g, "");
  if (!normalized) return null;
  return findContactByPhones(tx, companyId, [normalized], exceptContactId);
}

/** Same as findContactByNumber for already-normalized digits (several forms, e.g. typed and WhatsApp's). */
export async function findContactByPhones(tx: DbOrTx, companyId: number, phones: string[], exceptContactId?: number): Promise<ContactRow | null> {
  const { exact, variants } = phoneCandidates(phones.filter(Boolean));
  const all = [...exact, ...variants];
  if (all.length === 0) return null;
  const [identityHit] = await tx
    .select({ contactId: contactIdentities.contactId })
    .from(contactIdentities)
    .where(
      and(
        eq(contactIdentities.companyId, companyId),
        eq(contactIdentities.kind, "phone"),
        inArray(contactIdentities.value, all),
        exceptContactId ? sql`${contactIdentities.contactId} <> ${exceptContactId}` : undefined,
      ),
    )
    .limit(1);
  if (identityHit) return (await contactById(tx, companyId, identityHit.contactId)) ?? null;
  const [row] = await tx
    .select()
    .from(contacts)
    .where(
      and(
        eq(contacts.companyId, companyId),
        eq(contacts.isGroup, false),
        inArray(contacts.number, all),
        exceptContactId ? sql`${contacts.id} <> ${exceptContactId}` : undefined,
      ),
    )
    .limit(1);
  return row ?? null;
}
