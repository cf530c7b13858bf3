import { randomUUID } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context";
import type { DbOrTx } from "../../db/client";
import { mediaFiles } from "../../db/schema";
import { notFound } from "../../http/errors";
import { sniffMimeType } from "./sniff";

export type MediaRecord = typeof mediaFiles.$inferSelect;

/** URL under which the app serves a stored file (authorised, company-checked). */
export const mediaUrl = (id: string) => `/api/media/${id}`;

/** A safe display name: no path parts, no control characters. */
export function cleanFileName(name: string | undefined, fallback: string): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, "").trim().slice(0, 200);
  return clean || fallback;
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
    const sniffed = sniffMimeType(data);
    // Opus voice notes and some documents are not told apart by magic bytes alone; keep the declared
    // subtype only when it agrees with the sniffed family.
    const mimeType = declaredType && declaredType.split("/")[0] === sniffed.split("/")[0] && sniffed !== "application/octet-stream" ? declaredType.slice(0, 100) : sniffed;
    await mkdir(path.join(this.root(), String(companyId)), { recursive: true });
    await writeFile(path.join(this.root(), storageKey), data, { mode: 0o600 });
    const [row] = await db
      .insert(mediaFiles)
      .values({ id, companyId, storageKey, originalName: cleanFileName(originalName, id), mimeType, size: data.length })
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
