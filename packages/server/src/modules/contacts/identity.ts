/**
 * Contact identity (reference/channels.md §3): a contact is a person; the ids WhatsApp knows them by
 * (phone digits, LID, Cloud API user id, group id) are rows of contact_identities, unique per company.
 * Inbound resolution order: (1) the provider's primary id, (2) the alternates of the same event,
 * (3) for Brazil (+55) only, the other form of a mobile number (with/without the 9th digit),
 * (4) the contacts.number column (contacts created before/without identities), else (5) a new contact.
 * Every identity learnt on the way is attached to the contact found.
 */
import { and, eq, inArray, or, sql } from "drizzle-orm";
import { brazilNinthDigitVariants, normalizePhoneNumber } from "@balcao/shared";
import type { ChannelAddress } from "../../channels/types";
import { isUniqueViolation, type DbOrTx } from "../../db/client";
import { contactIdentities, contacts } from "../../db/schema";
import { statement } from "../../db/statement";

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

function identitiesOf(chat: ChannelAddress): IdentityInput[] {
  const all: IdentityInput[] = [{ kind: chat.kind, value: identityValue(chat.kind, chat.id) }];
  for (const alt of chat.alternates ?? []) all.push({ kind: alt.kind, value: identityValue(alt.kind, alt.id) });
  const seen = new Set<string>();
  return all.filter((i) => {
    const key = `${i.kind}:${i.value}`;
    if (!i.value || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const identityStatements = new Map<number, ReturnType<typeof buildIdentitiesWithContacts>>();

/**
 * The identities with their contacts in one round trip (issue 20: every inbound message starts here), for a list
 * of `count` identities: built once per count (the one thing that changes its text) and named, so drizzle writes
 * its SQL once and each pooled connection plans it once. Values: companyId, kind0, value0, kind1, value1…
 */
function identitiesWithContacts(count: number) {
  if (!identityStatements.has(count)) identityStatements.set(count, buildIdentitiesWithContacts(count));
  return identityStatements.get(count)!;
}

function buildIdentitiesWithContacts(count: number) {
  const companyId = sql.placeholder("companyId");
  const matchAny = or(
    ...Array.from({ length: count }, (_, i) =>
      and(eq(contactIdentities.kind, sql.placeholder(`kind${i}`)), eq(contactIdentities.value, sql.placeholder(`value${i}`))),
    ),
  );
  return statement((tx) =>
    tx
      .select({ kind: contactIdentities.kind, value: contactIdentities.value, contactId: contactIdentities.contactId, contact: contacts })
      .from(contactIdentities)
      .leftJoin(contacts, and(eq(contacts.id, contactIdentities.contactId), eq(contacts.companyId, companyId)))
      .where(and(eq(contactIdentities.companyId, companyId), matchAny))
      .prepare(`contact_identities_${count}`),
  );
}

async function contactById(tx: DbOrTx, companyId: number, id: number): Promise<ContactRow | undefined> {
  const [row] = await tx
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, id)))
    .limit(1);
  return row;
}

/**
 * Finds the contact owning one of these identities, preferring the earliest in the list. `complete`: that
 * contact already owns every identity of the list (nothing to attach).
 */
async function findByIdentities(tx: DbOrTx, companyId: number, list: IdentityInput[]): Promise<Found | undefined> {
  if (list.length === 0) return undefined;
  const values: Record<string, string | number> = { companyId };
  list.forEach((identity, i) => {
    values[`kind${i}`] = identity.kind;
    values[`value${i}`] = identity.value;
  });
  const rows = await identitiesWithContacts(list.length)(tx).execute(values);
  for (const wanted of list) {
    const hit = rows.find((r) => r.kind === wanted.kind && r.value === wanted.value);
    if (!hit) continue;
    const contact = hit.contact;
    if (!contact) return undefined;
    const complete = list.every((i) => rows.some((r) => r.kind === i.kind && r.value === i.value && r.contactId === hit.contactId));
    return { contact, complete };
  }
  return undefined;
}

interface Found {
  contact: ContactRow;
  complete: boolean;
}

/** Contacts whose number column is one of these digits (first match in the given order). */
async function findByNumberColumn(tx: DbOrTx, companyId: number, numbers: string[], isGroup: boolean): Promise<ContactRow | undefined> {
  if (numbers.length === 0) return undefined;
  const rows = await tx
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), inArray(contacts.number, numbers), eq(contacts.isGroup, isGroup)));
  for (const n of numbers) {
    const hit = rows.find((r) => r.number === n);
    if (hit) return hit;
  }
  return undefined;
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

class LostRace extends Error {}

/**
 * Finds or creates the contact behind an inbound chat address (see the resolution order above).
 * Safe under concurrency: the unique indexes on identities and numbers decide, and a loser re-reads.
 * `tx` may be the database or an open transaction (a savepoint is used inside).
 */
export async function resolveInboundContact(
  tx: DbOrTx,
  companyId: number,
  connectionId: number,
  chat: ChannelAddress,
  pushName?: string,
): Promise<{ contact: typeof contacts.$inferSelect; created: boolean }> {
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
    try {
      const contact = await tx.transaction(async (sp) => {
        const number = groupId ?? phones[0] ?? null;
        const [row] = await sp
          .insert(contacts)
          .values({ companyId, name: displayName || number || learnt[0]!.value.slice(0, 100), number, isGroup })
          .onConflictDoNothing()
          .returning();
        if (!row) throw new LostRace();
        const inserted = await sp
          .insert(contactIdentities)
          .values(learnt.map((i) => ({ companyId, contactId: row.id, kind: i.kind, value: i.value, connectionId, source: "inbound" })))
          .onConflictDoNothing()
          .returning({ id: contactIdentities.id });
        // Another message created the same person meanwhile: undo ours and take theirs.
        if (inserted.length !== learnt.length) throw new LostRace();
        return row;
      });
      return { contact, created: true };
    } catch (err) {
      if (!(err instanceof LostRace) && !isUniqueViolation(err)) throw err;
    }
  }
  throw new Error("resolveInboundContact: could not settle a concurrent creation");
}

async function findExisting(
  tx: DbOrTx,
  companyId: number,
  learnt: IdentityInput[],
  phones: string[],
  groupId: string | undefined,
): Promise<Found | undefined> {
  // (1) primary, then (2) alternates: one query, ordered by preference.
  const direct = await findByIdentities(tx, companyId, learnt);
  if (direct) return direct;
  const incomplete = (contact: ContactRow | undefined) => (contact ? { contact, complete: false } : undefined);
  if (groupId) return incomplete(await findByNumberColumn(tx, companyId, [groupId], true));
  // (3) the 9th-digit variant of a Brazilian phone.
  const { exact, variants } = phoneCandidates(phones);
  const byVariant = await findByIdentities(
    tx,
    companyId,
    variants.map((value) => ({ kind: "phone", value })),
  );
  if (byVariant) return { contact: byVariant.contact, complete: false };
  // (4) contacts that only have the number column (created by imports or other modules).
  return incomplete(await findByNumberColumn(tx, companyId, [...exact, ...variants], false));
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
