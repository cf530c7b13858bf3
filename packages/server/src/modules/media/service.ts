import { randomUUID } from "node:crypto";
import { mkdir, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context";
import type { DbOrTx } from "../../db/client";
import { mediaFiles } from "../../db/schema";
import { notFound } from "../../http/errors";
import { sniffMimeType } from "./sniff";

export type MediaRecord = typeof mediaFiles.$inferSelect;

/**
 * URL under which the app serves a stored file (authorised, company-checked). A message's file names its
 * ticket, so an attendant gets it only while allowed to open that ticket (issue 11).
 */
export const mediaUrl = (id: string, ticketId?: number) => (ticketId ? `/api/media/${id}?ticket=${ticketId}` : `/api/media/${id}`);

/** A safe display name: no path parts, no control characters. */
export function cleanFileName(name: string | undefined, fallback: string): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const withoutControls = base.replace(/[\u0000-\u001f\u007f"]/g, "");
  const clean = withoutControls.trim().slice(0, 200);
  return clean || fallback;
}

/**
 * The stored type: sniffed from the first bytes. Opus voice notes and some documents are not told apart by
 * magic bytes alone, so the declared subtype is kept only when it agrees with the sniffed family.
 */
function typeOf(head: Buffer, declaredType?: string): string {
  const sniffed = sniffMimeType(head);
  return declaredType && declaredType.split("/")[0] === sniffed.split("/")[0] && sniffed !== "application/octet-stream"
    ? declaredType.slice(0, 100)
    : sniffed;
}

/**
 * Files live under DATA_DIR/media/<companyId>/<random uuid>, outside any public folder; the path is
 * generated here and never derived from the client's file name (ASVS 5.3.2).
 */
export class MediaStore {
  constructor(private readonly ctx: AppContext) {}

  private root(): string {
    return path.join(this.ctx.config.dataDir, "media");
  }

  async save(db: DbOrTx, companyId: number, data: Buffer, originalName?: string, declaredType?: string): Promise<MediaRecord> {
    const id = randomUUID();
    const storageKey = path.posix.join(String(companyId), id);
    await mkdir(path.join(this.root(), String(companyId)), { recursive: true });
    await writeFile(path.join(this.root(), storageKey), data, { mode: 0o600 });
    return this.record(db, companyId, id, storageKey, typeOf(data, declaredType), data.length, originalName);
  }

  /**
   * Stores an upload already streamed to a temporary file (http/uploads.ts) by moving it into place: the
   * bytes never pass through memory, only the first ones are read to sniff the type. `tempPath` must be on
   * the same file system (it is: DATA_DIR/tmp).
   */
  async saveFile(db: DbOrTx, companyId: number, tempPath: string, size: number, originalName?: string, declaredType?: string): Promise<MediaRecord> {
    const id = randomUUID();
    const storageKey = path.posix.join(String(companyId), id);
    const handle = await open(tempPath, "r");
    const head = Buffer.alloc(Math.min(size, 512));
    try {
      await handle.read(head, 0, head.length, 0);
    } finally {
      await handle.close();
    }
    await mkdir(path.join(this.root(), String(companyId)), { recursive: true });
    await rename(tempPath, path.join(this.root(), storageKey));
    return this.record(db, companyId, id, storageKey, typeOf(head, declaredType), size, originalName);
  }

  private async record(
    db: DbOrTx,
    companyId: number,
    id: string,
    storageKey: string,
    mimeType: string,
    size: number,
    originalName?: string,
  ): Promise<MediaRecord> {
    const [row] = await db
      .insert(mediaFiles)
      .values({ id, companyId, storageKey, originalName: cleanFileName(originalName, id), mimeType, size })
      .returning();
    return row!;
  }

  async load(companyId: number, id: string): Promise<{ record: MediaRecord; data: Buffer }> {
    const [record] = await this.ctx.database.db
      .select()
      .from(mediaFiles)
      .where(and(eq(mediaFiles.id, id), eq(mediaFiles.companyId, companyId)))
      .limit(1);
    if (!record) throw notFound();
    const data = await readFile(path.join(this.root(), record.storageKey)).catch(() => {
      throw notFound();
    });
    return { record, data };
  }

  async remove(companyId: number, id: string): Promise<void> {
    const [record] = await this.ctx.database.db
      .delete(mediaFiles)
      .where(and(eq(mediaFiles.id, id), eq(mediaFiles.companyId, companyId)))
      .returning();
    if (record) await rm(path.join(this.root(), record.storageKey), { force: true });
  }
}
