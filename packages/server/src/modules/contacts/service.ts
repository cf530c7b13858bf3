import { and, asc, eq, exists, inArray, or, sql } from "drizzle-orm";
import { z } from "zod";
import {
  INVALID_NUMBER,
  normalizePhoneNumber,
  PAGE_SIZE,
  type ContactDTO,
  type ContactImportResponse,
  type ContactListResponse,
  contactCreateBody,
  contactUpdateBody,
  type ListQuery,
} from "@balcao/shared";
import type { AppContext } from "../../context";
import { isUniqueViolation, type Tx } from "../../db/client";
import { contactExtraInfo, contactIdentities, contacts } from "../../db/schema";
import { containsPattern, foldColumn } from "../../db/search";
import { AppError, forbidden, notFound } from "../../http/errors";
import type { Actor } from "../auth/service";
import { findContactByPhones, resolveInboundContact } from "./identity";
import { contactPolicy } from "./policy";
import { presentContact, presentContactWithExtraInfo } from "./presenter";
import { checkWhatsappNumber, defaultConnection, defaultSession } from "./whatsapp";

type CreateInput = z.output<typeof contactCreateBody>;
type UpdateInput = z.output<typeof contactUpdateBody>;
type ExtraInfoInput = CreateInput["extraInfo"];

/** GET /contacts/list answers at most this many rows (the page uses the paginated list). */
export const CONTACT_LIST_LIMIT = 5000;

/** The same 400 envelope as schema validation, for a number that passes the length rules but is no phone. */
function invalidNumber(input: string): z.ZodError {
  return new z.ZodError([{ code: "custom", path: ["number"], message: INVALID_NUMBER, input }]);
}

class DuplicateContact extends Error {}

export class ContactsService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  async list(actor: Actor, query: ListQuery): Promise<ContactListResponse> {
    const conditions = [eq(contacts.companyId, actor.companyId)];
    if (query.searchParam) {
      const pattern = containsPattern(query.searchParam);
      const digits = query.searchParam.replace(/\D/g, "");
      const matches = [sql`${foldColumn(contacts.name)} like ${pattern}`, sql`lower(${contacts.email}) like ${pattern}`];
      // "(11) 98765" finds 5511987650000: numbers are matched on digits only, identities (LIDs…) too.
      if (digits.length >= 3) {
        const digitsPattern = `%${digits}%`;
        matches.push(sql`${contacts.number} like ${digitsPattern}`);
        matches.push(
          exists(
            this.db
              .select({ one: sql`1` })
              .from(contactIdentities)
              .where(
                and(
                  eq(contactIdentities.companyId, actor.companyId),
                  eq(contactIdentities.contactId, contacts.id),
                  sql`${contactIdentities.value} like ${digitsPattern}`,
                ),
              ),
          ),
        );
      }
      conditions.push(or(...matches)!);
    }
    // One row past the page tells whether there is more, without a COUNT.
    const rows = await this.db
      .select()
      .from(contacts)
      .where(and(...conditions))
      .orderBy(asc(contacts.name), asc(contacts.id))
      .limit(PAGE_SIZE + 1)
      .offset((query.pageNumber - 1) * PAGE_SIZE);
    return { contacts: rows.slice(0, PAGE_SIZE).map((r) => presentContact(r)), hasMore: rows.length > PAGE_SIZE };
  }

  async listSimple(actor: Actor, companyId?: number): Promise<ContactDTO[]> {
    const rows = await this.db
      .select()
      .from(contacts)
      .where(eq(contacts.companyId, contactPolicy.listScope(actor, companyId)))
      .orderBy(asc(contacts.name), asc(contacts.id))
      .limit(CONTACT_LIST_LIMIT);
    return rows.map((r) => presentContact(r));
  }

  private async findScoped(actor: Actor, id: number, tx: Tx | undefined = undefined) {
    const [row] = await (tx ?? this.db)
      .select()
      .from(contacts)
      .where(and(eq(contacts.id, id), eq(contacts.companyId, actor.companyId)))
      .limit(1);
    if (!row) throw notFound("ERR_NO_CONTACT_FOUND");
    return row;
  }

  async show(actor: Actor, id: number): Promise<ContactDTO> {
    return presentContactWithExtraInfo(this.db, await this.findScoped(actor, id));
  }

  /**
   * Normalizes a typed number, refuses one that is already a contact (in any form, 9th digit included),
   * then asks WhatsApp through the default connection when it is connected. Returns the number to store
   * (WhatsApp's form when known) and every phone identity to record.
   */
  private async prepareNumber(actor: Actor, raw: string, exceptContactId?: number): Promise<{ number: string; phones: string[]; verified: boolean }> {
    const typed = normalizePhoneNumber(raw);
    if (!typed) throw invalidNumber(raw);
    if (await findContactByPhones(this.db, actor.companyId, [typed], exceptContactId)) throw new AppError("ERR_DUPLICATED_CONTACT", 400);
    const check = await checkWhatsappNumber(this.ctx, actor.companyId, typed);
    if (!check.checked) return { number: typed, phones: [typed], verified: false };
    const phones = [...new Set([check.canonical, typed])];
    if (check.canonical !== typed && (await findContactByPhones(this.db, actor.companyId, [check.canonical], exceptContactId)))
      throw new AppError("ERR_DUPLICATED_CONTACT", 400);
    return { number: check.canonical, phones, verified: true };
  }

  private async replaceExtraInfo(tx: Tx, companyId: number, contactId: number, rows: ExtraInfoInput): Promise<void> {
    await tx.delete(contactExtraInfo).where(and(eq(contactExtraInfo.companyId, companyId), eq(contactExtraInfo.contactId, contactId)));
    if (rows.length) await tx.insert(contactExtraInfo).values(rows.map((r) => ({ companyId, contactId, name: r.name, value: r.value })));
  }

  /** Records phone identities; one owned by another contact means a concurrent duplicate. */
  private async claimPhones(tx: Tx, companyId: number, contactId: number, phones: string[], verified: boolean): Promise<void> {
    const inserted = await tx
      .insert(contactIdentities)
      .values(phones.map((value) => ({ companyId, contactId, kind: "phone", value, source: "manual", verifiedAt: verified ? new Date() : null })))
      .onConflictDoNothing()
      .returning({ id: contactIdentities.id });
    if (inserted.length === phones.length) return;
    const owners = await tx
      .select({ contactId: contactIdentities.contactId })
      .from(contactIdentities)
      .where(and(eq(contactIdentities.companyId, companyId), eq(contactIdentities.kind, "phone"), inArray(contactIdentities.value, phones)));
    if (owners.some((o) => o.contactId !== contactId)) throw new DuplicateContact();
  }

  async create(actor: Actor, input: CreateInput): Promise<ContactDTO> {
    if (!contactPolicy.create(actor)) throw forbidden();
    const { number, phones, verified } = await this.prepareNumber(actor, input.number);
    const created = await this.withDuplicateGuard(() =>
      this.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(contacts)
          .values({ companyId: actor.companyId, name: input.name, number, email: input.email })
          .onConflictDoNothing()
          .returning();
        if (!row) throw new DuplicateContact();
        await this.claimPhones(tx, actor.companyId, row.id, phones, verified);
        await this.replaceExtraInfo(tx, actor.companyId, row.id, input.extraInfo);
        return presentContactWithExtraInfo(tx, row);
      }),
    );
    this.ctx.events.publish({ type: "contacts.created", companyId: actor.companyId, contact: created });
    return created;
  }

  async update(actor: Actor, id: number, input: UpdateInput): Promise<ContactDTO> {
    const current = await this.findScoped(actor, id);
    if (!contactPolicy.update(actor)) throw forbidden();
    // A group's number is its group id; and the form sends the number back unchanged on every save.
    const unchanged =
      input.number === undefined ||
      input.number.trim() === current.number ||
      current.isGroup ||
      (current.number !== null && normalizePhoneNumber(input.number) === current.number);
    const prepared = unchanged ? null : await this.prepareNumber(actor, input.number!, id);
    const updated = await this.withDuplicateGuard(() =>
      this.db.transaction(async (tx) => {
        const [row] = await tx
          .update(contacts)
          .set({
            ...(input.name !== undefined && { name: input.name }),
            ...(input.email !== undefined && { email: input.email }),
            ...(prepared && { number: prepared.number }),
            updatedAt: new Date(),
          })
          .where(and(eq(contacts.id, id), eq(contacts.companyId, actor.companyId)))
          .returning();
        if (!row) throw notFound("ERR_NO_CONTACT_FOUND");
        if (prepared) {
          // The person changed number: the old phone ids no longer lead here (LIDs and Cloud ids stay).
          await tx
            .delete(contactIdentities)
            .where(and(eq(contactIdentities.companyId, actor.companyId), eq(contactIdentities.contactId, id), eq(contactIdentities.kind, "phone")));
          await this.claimPhones(tx, actor.companyId, id, prepared.phones, prepared.verified);
        }
        if (input.extraInfo) await this.replaceExtraInfo(tx, actor.companyId, id, input.extraInfo);
        return presentContactWithExtraInfo(tx, row);
      }),
    );
    this.ctx.events.publish({ type: "contacts.updated", companyId: actor.companyId, contact: updated });
    return updated;
  }

  async remove(actor: Actor, id: number): Promise<void> {
    await this.findScoped(actor, id);
    if (!contactPolicy.delete(actor)) throw forbidden();
    await this.db.delete(contacts).where(and(eq(contacts.id, id), eq(contacts.companyId, actor.companyId)));
    this.ctx.events.publish({ type: "contacts.deleted", companyId: actor.companyId, contactId: id });
  }

  /**
   * Imports the address book of the company's default connection: each phone entry is found (any
   * identity or 9th-digit form) or created, with the entry's name. Groups and phone-less entries are skipped.
   */
  async importFromDefaultConnection(actor: Actor): Promise<ContactImportResponse> {
    if (!contactPolicy.import(actor)) throw forbidden();
    const conn = await defaultConnection(this.ctx, actor.companyId);
    if (!conn) throw new AppError("ERR_NO_DEF_WAPP_FOUND", 404);
    const session = await defaultSession(this.ctx, actor.companyId);
    if (!session) throw new AppError("ERR_WAPP_NOT_INITIALIZED", 400);
    let book: Awaited<ReturnType<typeof session.listContacts>>;
    try {
      book = await session.listContacts();
    } catch {
      throw new AppError("ERR_WAPP_NOT_INITIALIZED", 400);
    }
    const result: ContactImportResponse = { created: 0, existing: 0, skipped: 0 };
    for (const entry of book) {
      const address = entry.address;
      const hasPhone = address.kind === "phone" || (address.alternates ?? []).some((a) => a.kind === "phone");
      if (address.kind === "group" || !hasPhone) {
        result.skipped++;
        continue;
      }
      const { contact, created } = await resolveInboundContact(this.db, actor.companyId, conn.id, address, entry.name);
      if (created) {
        result.created++;
        this.ctx.events.publish({ type: "contacts.created", companyId: actor.companyId, contact: presentContact(contact) });
      } else result.existing++;
    }
    return result;
  }

  /** Races between the pre-checks and the insert are settled by the unique indexes, answered as the spec's 400. */
  private async withDuplicateGuard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof DuplicateContact || isUniqueViolation(err, "contacts_company_number_uq")) throw new AppError("ERR_DUPLICATED_CONTACT", 400);
      throw err;
    }
  }
}
