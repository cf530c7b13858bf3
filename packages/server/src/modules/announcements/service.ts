import path from "node:path";
import { open } from "node:fs/promises";
import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  ANNOUNCEMENT_MEDIA_EXTENSIONS,
  ANNOUNCEMENT_MEDIA_TYPES,
  PAGE_SIZE,
  announcementCreateBody,
  announcementUpdateBody,
  isSuper,
  type AnnouncementDTO,
  type AnnouncementListResponse,
  type ListQuery,
} from "@balcao/shared";
import type { AppContext } from "../../context";
import { announcementReads, announcements } from "../../db/schema";
import { containsPattern, foldColumn } from "../../db/search";
import { requireSuper } from "../../http/auth";
import { AppError, notFound } from "../../http/errors";
import type { Actor } from "../auth/service";
import { MediaStore, type MediaRecord } from "../media/service";
import { sniffMimeType } from "../media/sniff";
import { presentAnnouncement } from "./presenter";

type CreateInput = z.output<typeof announcementCreateBody>;
type UpdateInput = z.output<typeof announcementUpdateBody>;
type AnnouncementRow = typeof announcements.$inferSelect;

/** An attachment streamed to a temporary file (http/uploads.ts); moved into the media store when accepted. */
export interface UploadedFile {
  path: string;
  size: number;
  fileName: string;
  mimeType?: string;
}

/**
 * Platform-wide notices (spec §2, §3, §9). Super users write them and see all of them; everyone else sees
 * the active ones, with their own unread mark. Attachments are images stored like other media (under
 * DATA_DIR, the author's company as owner) and served to any signed-in user through this module.
 */
export class AnnouncementsService {
  private readonly media: MediaStore;

  constructor(private readonly ctx: AppContext) {
    this.media = new MediaStore(ctx);
  }

  private get db() {
    return this.ctx.database.db;
  }

  /** `read` for the caller, in the same query: a LEFT JOIN on the caller's read marks (no N+1). */
  private readonly readFlag = sql<boolean>`(${announcementReads.announcementId} is not null)`.mapWith(Boolean);

  private readJoin(actor: Actor) {
    return and(
      eq(announcementReads.companyId, actor.companyId),
      eq(announcementReads.userId, actor.id),
      eq(announcementReads.announcementId, announcements.id),
    );
  }

  async list(actor: Actor, query: ListQuery): Promise<AnnouncementListResponse> {
    const conditions = [];
    if (!isSuper(actor)) conditions.push(eq(announcements.status, true));
    if (query.searchParam) {
      const pattern = containsPattern(query.searchParam);
      conditions.push(sql`(${foldColumn(announcements.title)} like ${pattern} or ${foldColumn(announcements.text)} like ${pattern})`);
    }
    const rows = await this.db
      .select({ announcement: announcements, read: this.readFlag })
      .from(announcements)
      .leftJoin(announcementReads, this.readJoin(actor))
      .where(and(...conditions))
      .orderBy(desc(announcements.createdAt), desc(announcements.id))
      .limit(PAGE_SIZE + 1)
      .offset((query.pageNumber - 1) * PAGE_SIZE);
    return {
      records: rows.slice(0, PAGE_SIZE).map((r) => presentAnnouncement(r.announcement, r.read)),
      hasMore: rows.length > PAGE_SIZE,
      unreadCount: await this.unreadCount(actor),
    };
  }

  /** Active announcements the caller has not opened (the popover's badge). */
  async unreadCount(actor: Actor): Promise<number> {
    const [row] = (await this.db
      .select({ value: count() })
      .from(announcements)
      .leftJoin(announcementReads, this.readJoin(actor))
      .where(and(eq(announcements.status, true), isNull(announcementReads.announcementId)))) as [{ value: number }];
    return Number(row.value);
  }

  /** Super users see every announcement; others only active ones (an inactive one is a 404, like a missing one). */
  private async findVisible(actor: Actor, id: number): Promise<{ announcement: AnnouncementRow; read: boolean }> {
    const [row] = await this.db
      .select({ announcement: announcements, read: this.readFlag })
      .from(announcements)
      .leftJoin(announcementReads, this.readJoin(actor))
      .where(and(eq(announcements.id, id), isSuper(actor) ? undefined : eq(announcements.status, true)))
      .limit(1);
    if (!row) throw notFound("ERR_NO_ANNOUNCEMENT_FOUND");
    return row;
  }

  async show(actor: Actor, id: number): Promise<AnnouncementDTO> {
    const { announcement, read } = await this.findVisible(actor, id);
    return presentAnnouncement(announcement, read);
  }

  async create(actor: Actor, input: CreateInput): Promise<AnnouncementDTO> {
    requireSuper(actor);
    const [row] = await this.db
      .insert(announcements)
      .values({ companyId: actor.companyId, title: input.title, text: input.text, priority: input.priority, status: input.status })
      .returning();
    const announcement = presentAnnouncement(row!);
    this.ctx.events.publish({ type: "announcements.created", companyId: actor.companyId, announcement });
    return { ...announcement, read: false };
  }

  private async findForWrite(actor: Actor, id: number): Promise<AnnouncementRow> {
    requireSuper(actor);
    const [row] = await this.db.select().from(announcements).where(eq(announcements.id, id)).limit(1);
    if (!row) throw notFound("ERR_NO_ANNOUNCEMENT_FOUND");
    return row;
  }

  private async saveChanges(actor: Actor, current: AnnouncementRow, changes: Partial<typeof announcements.$inferInsert>): Promise<AnnouncementDTO> {
    const [row] = await this.db
      .update(announcements)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(announcements.id, current.id))
      .returning();
    if (!row) throw notFound("ERR_NO_ANNOUNCEMENT_FOUND");
    const announcement = presentAnnouncement(row);
    this.ctx.events.publish({ type: "announcements.updated", companyId: actor.companyId, announcement, wasActive: current.status });
    return this.show(actor, row.id);
  }

  async update(actor: Actor, id: number, input: UpdateInput): Promise<AnnouncementDTO> {
    const current = await this.findForWrite(actor, id);
    return this.saveChanges(actor, current, {
      ...(input.title !== undefined && { title: input.title }),
      ...(input.text !== undefined && { text: input.text }),
      ...(input.priority !== undefined && { priority: input.priority }),
      ...(input.status !== undefined && { status: input.status }),
    });
  }

  async remove(actor: Actor, id: number): Promise<void> {
    const current = await this.findForWrite(actor, id);
    const deleted = await this.db.delete(announcements).where(eq(announcements.id, id)).returning({ id: announcements.id });
    if (deleted.length === 0) throw notFound("ERR_NO_ANNOUNCEMENT_FOUND");
    if (current.mediaPath) await this.media.remove(current.companyId, current.mediaPath);
    this.ctx.events.publish({ type: "announcements.deleted", companyId: actor.companyId, announcementId: id, wasActive: current.status });
  }

  /**
   * POST /announcements/:id/media-upload: a .png/.jpg/.jpeg whose bytes are a PNG or JPEG (the name alone
   * proves nothing), within ANNOUNCEMENT_MEDIA_MAX_BYTES (checked while reading). Replaces any previous file.
   */
  async uploadMedia(actor: Actor, id: number, file: UploadedFile): Promise<AnnouncementDTO> {
    const current = await this.findForWrite(actor, id);
    const extension = path.extname(file.fileName).toLowerCase();
    const sniffed = sniffMimeType(await headOf(file.path));
    if (
      !(ANNOUNCEMENT_MEDIA_EXTENSIONS as readonly string[]).includes(extension) ||
      !(ANNOUNCEMENT_MEDIA_TYPES as readonly string[]).includes(sniffed)
    )
      throw new AppError("ERR_UNSUPPORTED_MEDIA_TYPE", undefined, { allowed: ANNOUNCEMENT_MEDIA_EXTENSIONS.join(", ") });
    const stored: MediaRecord = await this.media.saveFile(this.db, current.companyId, file.path, file.size, file.fileName, sniffed);
    try {
      const saved = await this.saveChanges(actor, current, { mediaPath: stored.id, mediaName: stored.originalName });
      if (current.mediaPath) await this.media.remove(current.companyId, current.mediaPath);
      return saved;
    } catch (err) {
      await this.media.remove(current.companyId, stored.id);
      throw err;
    }
  }

  async removeMedia(actor: Actor, id: number): Promise<AnnouncementDTO> {
    const current = await this.findForWrite(actor, id);
    const saved = await this.saveChanges(actor, current, { mediaPath: null, mediaName: null });
    if (current.mediaPath) await this.media.remove(current.companyId, current.mediaPath);
    return saved;
  }

  /** The attachment, for any signed-in user of any company while the announcement is visible to them. */
  async loadMedia(actor: Actor, id: number, mediaId: string) {
    const { announcement } = await this.findVisible(actor, id);
    if (announcement.mediaPath !== mediaId) throw notFound();
    return this.media.load(announcement.companyId, mediaId);
  }

  /** POST /announcements/:id/read: the caller has opened it (idempotent). */
  async markRead(actor: Actor, id: number): Promise<AnnouncementDTO> {
    const { announcement } = await this.findVisible(actor, id);
    await this.db.insert(announcementReads).values({ companyId: actor.companyId, userId: actor.id, announcementId: id }).onConflictDoNothing();
    return presentAnnouncement(announcement, true);
  }
}

/** The first bytes of a file, enough to tell its type. */
async function headOf(file: string): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
