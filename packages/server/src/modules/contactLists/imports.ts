/**
 * Spreadsheet imports into a contact list. An upload becomes a `contact_list_imports` row holding the file;
 * a small file is imported in the request, a larger one by the job `contactLists.import` on any process (the
 * file is in the database, not on one machine's disk). Rows are written 1,000 at a time, each batch in one
 * transaction with the import's progress, so a job retried after a crash resumes after the last written
 * batch and counts nothing twice. Duplicates (in the list already, or earlier in the file) are skipped by the
 * unique index (company, list, number). Progress goes out as `contactLists.import` events about once a second.
 */
import { and, eq, getTableColumns, inArray, sql, TransactionRollbackError } from "drizzle-orm";
import { CONTACT_LIST_IMPORT_ERRORS_MAX, type ContactListImportDTO, type ContactListImportRowError, type ErrorCode } from "@balcao/shared";
import type { AppContext } from "../../context";
import type { DbOrTx } from "../../db/client";
import { contactListImports, contactListItems } from "../../db/schema";
import { AppError } from "../../http/errors";
import type { Job } from "../../jobs/runner";
import { presentImport } from "./presenter";
import { checkRow, findColumns, readSheet, type ImportCandidate, type SpreadsheetFormat } from "./spreadsheet";

export const CONTACT_LIST_IMPORT_JOB = "contactLists.import";
/** Files up to this size are imported within the upload request (answer 201 with the result). */
export const INLINE_IMPORT_MAX_BYTES = 64 * 1024;
const BATCH_ROWS = 1_000;
const PROGRESS_EVERY_MS = 1_000;
/** An import whose row has not moved for this long is considered dead (a new upload may start). */
export const STALE_IMPORT_MS = 10 * 60 * 1000;
const JOB_RETRIES = 3;

export interface ImportJobPayload {
  companyId: number;
  importId: number;
}

type ImportRow = typeof contactListImports.$inferSelect;
/** An import without its file: what every statement but the claim returns (the file is megabytes). */
type ImportState = Omit<ImportRow, "data">;

export interface ImportHooks {
  /** The list's items changed: counts, reload events and the WhatsApp check. */
  afterImport(companyId: number, contactListId: number, dto: ContactListImportDTO): Promise<void>;
}

/** Columns of an import without the file. */
const { data: _data, ...importColumns } = getTableColumns(contactListImports);

/**
 * One batch as three array parameters (unnest) rather than 5 parameters a row: the statement stays small
 * whatever the batch size. Rows whose number is already in the list are skipped (unique index).
 */
export async function insertItems(tx: DbOrTx, companyId: number, contactListId: number, items: ImportCandidate[]): Promise<{ id: number }[]> {
  const result = await tx.execute(sql`
    insert into ${contactListItems} (company_id, contact_list_id, name, number, email)
    select ${companyId}, ${contactListId}, t.name, t.number, t.email
    from unnest(${sql.param(items.map((i) => i.name))}::varchar[], ${sql.param(items.map((i) => i.number))}::varchar[],
                ${sql.param(items.map((i) => i.email))}::varchar[]) as t(name, number, email)
    on conflict do nothing
    returning id`);
  return (result as unknown as { rows: { id: number }[] }).rows;
}

export class ContactListImporter {
  constructor(
    private readonly ctx: AppContext,
    private readonly hooks: ImportHooks,
  ) {}

  private get db() {
    return this.ctx.database.db;
  }

  register(): void {
    this.ctx.jobs.register<ImportJobPayload>(CONTACT_LIST_IMPORT_JOB, (job) => this.handle(job), {
      retryLimit: JOB_RETRIES,
      retryDelaySec: 2,
      expireInSeconds: 600,
      concurrency: 1,
    });
  }

  private async handle(job: Job<ImportJobPayload>): Promise<void> {
    try {
      await this.run(job.payload.companyId, job.payload.importId);
    } catch (err) {
      // The last attempt: the import is told failed instead of staying "running" for ever.
      if (job.attempt >= JOB_RETRIES) await this.fail(job.payload.companyId, job.payload.importId, "ERR_INTERNAL");
      throw err;
    }
  }

  /** Creates the import row for an uploaded file; `queue` also writes its job in the same transaction. */
  async create(
    companyId: number,
    input: { contactListId: number; userId: number; fileName: string; format: SpreadsheetFormat; data: Buffer },
    queue: boolean,
  ): Promise<ImportState> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(contactListImports)
        .values({ companyId, ...input })
        .returning(importColumns);
      if (queue)
        await this.ctx.jobs.enqueue(CONTACT_LIST_IMPORT_JOB, { companyId, importId: row!.id } satisfies ImportJobPayload, {
          key: `import:${row!.id}`,
          tx,
        });
      return row!;
    });
  }

  async find(companyId: number, contactListId: number, importId: number) {
    const [row] = await this.db
      .select(importColumns)
      .from(contactListImports)
      .where(
        and(eq(contactListImports.companyId, companyId), eq(contactListImports.contactListId, contactListId), eq(contactListImports.id, importId)),
      )
      .limit(1);
    return row;
  }

  /** Whether the list has an import still going (a newer upload waits for it). */
  async running(companyId: number, contactListId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: contactListImports.id })
      .from(contactListImports)
      .where(
        and(
          eq(contactListImports.companyId, companyId),
          eq(contactListImports.contactListId, contactListId),
          inArray(contactListImports.status, ["queued", "running"]),
          sql`${contactListImports.updatedAt} > now() - make_interval(secs => ${STALE_IMPORT_MS / 1000})`,
        ),
      )
      .limit(1);
    return Boolean(row);
  }

  /** Ends an import that is still going as failed with `code` (and tells the admins). */
  async fail(companyId: number, importId: number, code: ErrorCode): Promise<ImportState | undefined> {
    const [row] = await this.db
      .update(contactListImports)
      .set({ status: "failed", error: code, data: null, finishedAt: new Date(), updatedAt: new Date() })
      .where(
        and(
          eq(contactListImports.companyId, companyId),
          eq(contactListImports.id, importId),
          inArray(contactListImports.status, ["queued", "running"]),
        ),
      )
      .returning(importColumns);
    if (row) this.ctx.events.publish({ type: "contactLists.import", companyId, import: presentImport(row) });
    return row;
  }

  /**
   * Imports (or resumes) one upload; returns the row as it ends. A file that cannot be read, or has no number
   * column, ends "failed" with the error's code; bad rows never stop the import.
   */
  async run(companyId: number, importId: number): Promise<ImportState | undefined> {
    const [claimed] = await this.db
      .update(contactListImports)
      .set({ status: "running", updatedAt: new Date() })
      .where(
        and(
          eq(contactListImports.companyId, companyId),
          eq(contactListImports.id, importId),
          inArray(contactListImports.status, ["queued", "running"]),
        ),
      )
      .returning();
    if (!claimed) return undefined;
    if (!claimed.data) return this.fail(companyId, importId, "ERR_CONTACT_LIST_IMPORT_UNREADABLE");

    let rows;
    let columns;
    try {
      const sheet = await readSheet(claimed.format === "xlsx" ? "xlsx" : "csv", claimed.data);
      const found = findColumns(sheet);
      rows = sheet.slice(found.headerIndex + 1);
      columns = found.columns;
    } catch (err) {
      if (err instanceof AppError) return this.fail(companyId, importId, err.code);
      throw err;
    }

    let state: ImportState = claimed;
    if (state.totalRows !== rows.length) {
      [state] = await this.db
        .update(contactListImports)
        .set({ totalRows: rows.length, updatedAt: new Date() })
        .where(and(eq(contactListImports.companyId, companyId), eq(contactListImports.id, importId)))
        .returning(importColumns);
      this.progress(state!);
    }
    let lastProgress = Date.now();
    const seen = new Set<string>();
    for (let start = state!.processedRows; start < rows.length; start += BATCH_ROWS) {
      const chunk = rows.slice(start, start + BATCH_ROWS);
      const candidates: ImportCandidate[] = [];
      const errors: ContactListImportRowError[] = [];
      let duplicates = 0;
      for (const row of chunk) {
        const checked = checkRow(row, columns);
        if (!checked.ok) errors.push(checked.error);
        else if (seen.has(checked.item.number)) duplicates++;
        else {
          seen.add(checked.item.number);
          candidates.push(checked.item);
        }
      }
      const listed = state!.errors.length;
      const next = await this.db
        .transaction(async (tx) => {
          const inserted = candidates.length ? await insertItems(tx, companyId, state!.contactListId, candidates) : [];
          const kept = errors.slice(0, Math.max(0, CONTACT_LIST_IMPORT_ERRORS_MAX - listed));
          const [updated] = await tx
            .update(contactListImports)
            .set({
              processedRows: start + chunk.length,
              inserted: sql`${contactListImports.inserted} + ${inserted.length}`,
              duplicates: sql`${contactListImports.duplicates} + ${duplicates + candidates.length - inserted.length}`,
              invalid: sql`${contactListImports.invalid} + ${errors.length}`,
              ...(kept.length && { errors: sql`${contactListImports.errors} || ${JSON.stringify(kept)}::jsonb` }),
              updatedAt: new Date(),
            })
            // Another run of the same import (a job retried while the first still ran) wrote this batch already.
            .where(and(eq(contactListImports.companyId, companyId), eq(contactListImports.id, importId), eq(contactListImports.processedRows, start)))
            .returning(importColumns);
          if (!updated) tx.rollback();
          return updated!;
        })
        .catch((err: unknown) => {
          if (err instanceof TransactionRollbackError) return undefined;
          throw err;
        });
      if (!next) return undefined;
      state = next;
      if (Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
        lastProgress = Date.now();
        this.progress(state);
      }
    }

    const [done] = await this.db
      .update(contactListImports)
      .set({ status: "done", data: null, finishedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(contactListImports.companyId, companyId), eq(contactListImports.id, importId), eq(contactListImports.status, "running")))
      .returning(importColumns);
    if (!done) return state;
    await this.hooks.afterImport(companyId, done.contactListId, presentImport(done));
    return done;
  }

  private progress(row: ImportState): void {
    this.ctx.events.publish({ type: "contactLists.import", companyId: row.companyId, import: presentImport(row, false) });
  }
}
