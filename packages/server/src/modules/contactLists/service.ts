import { and, asc, eq, getTableColumns, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import {
  CONTACT_LIST_PAGE_SIZE,
  INVALID_NUMBER,
  normalizePhoneNumber,
  type ContactListBody,
  type ContactListDTO,
  type ContactListImportDTO,
  type ContactListItemDTO,
  type ContactListItemsQuery,
  type ContactListItemsResponse,
  type ContactListsResponse,
  type ListQuery,
  contactListItemCreateBody,
  contactListItemUpdateBody,
} from "@balcao/shared";
import type { AppContext } from "../../context";
import type { DbOrTx } from "../../db/client";
import { contactListItems, contactLists } from "../../db/schema";
import { containsPattern, foldColumn } from "../../db/search";
import { AppError, forbidden, notFound } from "../../http/errors";
import type { Actor } from "../auth/service";
import { ContactListImporter, INLINE_IMPORT_MAX_BYTES } from "./imports";
import { contactListPolicy } from "./policy";
import { presentContactList, presentContactListItem, presentImport } from "./presenter";
import type { SpreadsheetFormat } from "./spreadsheet";
import { CONTACT_LIST_CHECK_JOB, checkJobKey, NumberChecker } from "./whatsappCheck";

type ItemCreate = z.output<typeof contactListItemCreateBody>;
type ItemUpdate = z.output<typeof contactListItemUpdateBody>;

const invalidNumber = (input: string) => new z.ZodError([{ code: "custom", path: ["number"], message: INVALID_NUMBER, input }]);

function normalized(number: string): string {
  const digits = normalizePhoneNumber(number);
  if (!digits) throw invalidNumber(number);
  return digits;
}

const isUniqueViolation = (err: unknown) =>
  (err as { code?: string; cause?: { code?: string } }).code === "23505" || (err as { cause?: { code?: string } }).cause?.code === "23505";

export interface UploadedSheet {
  fileName: string;
  format: SpreadsheetFormat;
  data: Buffer;
}

export class ContactListsService {
  readonly checker: NumberChecker;
  readonly importer: ContactListImporter;

  constructor(private readonly ctx: AppContext) {
    this.checker = new NumberChecker(ctx);
    this.importer = new ContactListImporter(ctx, {
      afterImport: async (companyId, contactListId, dto) => this.afterImport(companyId, contactListId, dto),
    });
  }

  private get db() {
    return this.ctx.database.db;
  }

  private guard(actor: Actor): void {
    if (!contactListPolicy.manage(actor)) throw forbidden();
  }

  /** 403 unless the actor may use contact lists (routes that do not otherwise reach the service). */
  assertAllowed(actor: Actor): void {
    this.guard(actor);
  }

  /**
   * contactsCount as a correlated count over the (company_id, contact_list_id, …) index: one statement, no N+1.
   * The outer id is written qualified: drizzle would print a bare "id", which the subquery reads as the item's.
   */
  private contactsCount(companyId: number): SQL<number> {
    return sql<number>`(select count(*) from ${contactListItems} where ${contactListItems.companyId} = ${companyId} and ${contactListItems.contactListId} = "contact_lists"."id")`.mapWith(
      Number,
    );
  }

  private async findList(companyId: number, id: number, db: DbOrTx = this.db): Promise<ContactListDTO> {
    const [row] = await db
      .select({ ...getTableColumns(contactLists), contactsCount: this.contactsCount(companyId) })
      .from(contactLists)
      .where(and(eq(contactLists.companyId, companyId), eq(contactLists.id, id)))
      .limit(1);
    if (!row) throw notFound("ERR_NO_CONTACT_LIST_FOUND");
    const { contactsCount, ...list } = row;
    return presentContactList(list, contactsCount);
  }

  // Lists

  async list(actor: Actor, query: ListQuery): Promise<ContactListsResponse> {
    this.guard(actor);
    const conditions = [eq(contactLists.companyId, actor.companyId)];
    if (query.searchParam) conditions.push(sql`${foldColumn(contactLists.name)} like ${containsPattern(query.searchParam)}`);
    const rows = await this.db
      .select({ ...getTableColumns(contactLists), contactsCount: this.contactsCount(actor.companyId) })
      .from(contactLists)
      .where(and(...conditions))
      .orderBy(asc(contactLists.name), asc(contactLists.id))
      .limit(CONTACT_LIST_PAGE_SIZE + 1)
      .offset((query.pageNumber - 1) * CONTACT_LIST_PAGE_SIZE);
    return {
      records: rows.slice(0, CONTACT_LIST_PAGE_SIZE).map(({ contactsCount, ...list }) => presentContactList(list, contactsCount)),
      hasMore: rows.length > CONTACT_LIST_PAGE_SIZE,
    };
  }

  /** Every list of the company (the campaign form's select), by name. */
  async listAll(actor: Actor): Promise<ContactListDTO[]> {
    this.guard(actor);
    const rows = await this.db
      .select({ ...getTableColumns(contactLists), contactsCount: this.contactsCount(actor.companyId) })
      .from(contactLists)
      .where(eq(contactLists.companyId, actor.companyId))
      .orderBy(asc(contactLists.name), asc(contactLists.id))
      .limit(5000);
    return rows.map(({ contactsCount, ...list }) => presentContactList(list, contactsCount));
  }

  async show(actor: Actor, id: number): Promise<ContactListDTO> {
    this.guard(actor);
    return this.findList(actor.companyId, id);
  }

  async create(actor: Actor, input: ContactListBody & { name: string }): Promise<ContactListDTO> {
    this.guard(actor);
    const [row] = await this.db.insert(contactLists).values({ companyId: actor.companyId, name: input.name }).returning();
    const record = presentContactList(row!, 0);
    this.ctx.events.publish({ type: "contactLists.created", companyId: actor.companyId, record });
    return record;
  }

  async update(actor: Actor, id: number, input: { name: string }): Promise<ContactListDTO> {
    this.guard(actor);
    const [row] = await this.db
      .update(contactLists)
      .set({ name: input.name, updatedAt: new Date() })
      .where(and(eq(contactLists.companyId, actor.companyId), eq(contactLists.id, id)))
      .returning({ id: contactLists.id });
    if (!row) throw notFound("ERR_NO_CONTACT_LIST_FOUND");
    const record = await this.findList(actor.companyId, id);
    this.ctx.events.publish({ type: "contactLists.updated", companyId: actor.companyId, record });
    return record;
  }

  /** Deletes the list and its items (a campaign that used it keeps its shipping rows; its list becomes null). */
  async remove(actor: Actor, id: number): Promise<void> {
    this.guard(actor);
    const [row] = await this.db
      .delete(contactLists)
      .where(and(eq(contactLists.companyId, actor.companyId), eq(contactLists.id, id)))
      .returning({ id: contactLists.id });
    if (!row) throw notFound("ERR_NO_CONTACT_LIST_FOUND");
    await this.ctx.jobs.cancel(CONTACT_LIST_CHECK_JOB, checkJobKey(id)).catch(() => false);
    this.ctx.events.publish({ type: "contactLists.deleted", companyId: actor.companyId, contactListId: id });
  }

  private async listChanged(companyId: number, contactListId: number): Promise<ContactListDTO | undefined> {
    const record = await this.findList(companyId, contactListId).catch(() => undefined);
    if (record) this.ctx.events.publish({ type: "contactLists.updated", companyId, record });
    return record;
  }

  // Imports

  /**
   * Takes an uploaded spreadsheet: a small file is imported now (201 with the result), a larger one is left
   * to the job (202, status "queued"). A file-level problem of a small file answers its error code.
   */
  async upload(actor: Actor, contactListId: number, sheet: UploadedSheet): Promise<{ status: 201 | 202; body: ContactListImportDTO }> {
    this.guard(actor);
    await this.findList(actor.companyId, contactListId);
    if (await this.importer.running(actor.companyId, contactListId)) throw new AppError("ERR_CONTACT_LIST_IMPORT_RUNNING", 409);
    const inline = sheet.data.length <= INLINE_IMPORT_MAX_BYTES;
    const created = await this.importer.create(actor.companyId, { contactListId, userId: actor.id, ...sheet }, !inline);
    if (!inline) {
      const body = presentImport(created);
      this.ctx.events.publish({ type: "contactLists.import", companyId: actor.companyId, import: body });
      return { status: 202, body };
    }
    let done;
    try {
      done = await this.importer.run(actor.companyId, created.id);
    } catch (err) {
      // Not left "running": that would hold the list's next upload for STALE_IMPORT_MS.
      await this.importer.fail(actor.companyId, created.id, "ERR_INTERNAL").catch(() => undefined);
      throw err;
    }
    if (!done) throw new AppError("ERR_INTERNAL", 500);
    if (done.status === "failed" && done.error) throw new AppError(done.error as "ERR_CONTACT_LIST_IMPORT_UNREADABLE");
    return { status: 201, body: presentImport(done) };
  }

  async showImport(actor: Actor, contactListId: number, importId: number): Promise<ContactListImportDTO> {
    this.guard(actor);
    const row = await this.importer.find(actor.companyId, contactListId, importId);
    if (!row) throw notFound("ERR_NOT_FOUND");
    return presentImport(row);
  }

  private async afterImport(companyId: number, contactListId: number, dto: ContactListImportDTO): Promise<void> {
    const record = await this.findList(companyId, contactListId).catch(() => undefined);
    this.ctx.events.publish(
      { type: "contactLists.import", companyId, import: dto, ...(record && { record }) },
      ...(record ? [{ type: "contactLists.updated" as const, companyId, record }] : []),
      { type: "contactListItems.reload", companyId, contactListId },
    );
    if (dto.inserted > 0) await this.checker.enqueue(companyId, contactListId);
  }

  // Items

  async items(actor: Actor, query: ContactListItemsQuery): Promise<ContactListItemsResponse> {
    this.guard(actor);
    const conditions = [eq(contactListItems.companyId, actor.companyId)];
    if (query.contactListId) conditions.push(eq(contactListItems.contactListId, query.contactListId));
    if (query.searchParam) {
      const pattern = containsPattern(query.searchParam);
      const digits = query.searchParam.replace(/\D/g, "");
      conditions.push(
        or(
          sql`${foldColumn(contactListItems.name)} like ${pattern}`,
          sql`lower(${contactListItems.email}) like ${pattern}`,
          ...(digits ? [sql`${contactListItems.number} like ${`%${digits}%`}`] : []),
        )!,
      );
    }
    const rows = await this.db
      .select()
      .from(contactListItems)
      .where(and(...conditions))
      .orderBy(asc(contactListItems.name), asc(contactListItems.id))
      .limit(CONTACT_LIST_PAGE_SIZE + 1)
      .offset((query.pageNumber - 1) * CONTACT_LIST_PAGE_SIZE);
    return { contacts: rows.slice(0, CONTACT_LIST_PAGE_SIZE).map(presentContactListItem), hasMore: rows.length > CONTACT_LIST_PAGE_SIZE };
  }

  private async findItem(companyId: number, id: number) {
    const [row] = await this.db
      .select()
      .from(contactListItems)
      .where(and(eq(contactListItems.companyId, companyId), eq(contactListItems.id, id)))
      .limit(1);
    if (!row) throw notFound("ERR_NO_CONTACT_LIST_ITEM_FOUND");
    return row;
  }

  async showItem(actor: Actor, id: number): Promise<ContactListItemDTO> {
    this.guard(actor);
    return presentContactListItem(await this.findItem(actor.companyId, id));
  }

  async createItem(actor: Actor, input: ItemCreate): Promise<ContactListItemDTO> {
    this.guard(actor);
    await this.findList(actor.companyId, input.contactListId);
    const number = normalized(input.number);
    const row = await this.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(contactListItems)
        .values({ companyId: actor.companyId, contactListId: input.contactListId, name: input.name, number, email: input.email })
        .onConflictDoNothing()
        .returning();
      if (!inserted) throw new AppError("ERR_DUPLICATED_CONTACT_LIST_ITEM");
      await this.checker.enqueue(actor.companyId, input.contactListId, tx);
      return inserted;
    });
    const record = presentContactListItem(row);
    this.ctx.events.publish({ type: "contactListItems.created", companyId: actor.companyId, record });
    await this.listChanged(actor.companyId, input.contactListId);
    return record;
  }

  async updateItem(actor: Actor, id: number, input: ItemUpdate): Promise<ContactListItemDTO> {
    this.guard(actor);
    const current = await this.findItem(actor.companyId, id);
    const number = input.number !== undefined ? normalized(input.number) : current.number;
    const numberChanged = number !== current.number;
    let row;
    try {
      row = await this.db.transaction(async (tx) => {
        const [updated] = await tx
          .update(contactListItems)
          .set({
            ...(input.name !== undefined && { name: input.name }),
            ...(input.email !== undefined && { email: input.email }),
            ...(numberChanged && { number, isWhatsappValid: null }),
            updatedAt: new Date(),
          })
          .where(and(eq(contactListItems.companyId, actor.companyId), eq(contactListItems.id, id)))
          .returning();
        if (!updated) throw notFound("ERR_NO_CONTACT_LIST_ITEM_FOUND");
        if (numberChanged) await this.checker.enqueue(actor.companyId, updated.contactListId, tx);
        return updated;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError("ERR_DUPLICATED_CONTACT_LIST_ITEM");
      throw err;
    }
    const record = presentContactListItem(row);
    this.ctx.events.publish({ type: "contactListItems.updated", companyId: actor.companyId, record });
    return record;
  }

  async removeItem(actor: Actor, id: number): Promise<void> {
    this.guard(actor);
    const [row] = await this.db
      .delete(contactListItems)
      .where(and(eq(contactListItems.companyId, actor.companyId), eq(contactListItems.id, id)))
      .returning({ id: contactListItems.id, contactListId: contactListItems.contactListId });
    if (!row) throw notFound("ERR_NO_CONTACT_LIST_ITEM_FOUND");
    this.ctx.events.publish({ type: "contactListItems.deleted", companyId: actor.companyId, id, contactListId: row.contactListId });
    await this.listChanged(actor.companyId, row.contactListId);
  }
}
