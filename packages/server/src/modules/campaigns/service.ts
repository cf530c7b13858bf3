import { and, asc, desc, eq, or, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  CAMPAIGN_SETTINGS_DEFAULTS,
  CAMPAIGN_SHIPPING_PAGE_SIZE,
  CAMPAIGNS_PAGE_SIZE,
  campaignListQuery,
  campaignSettingsBody,
  campaignSettingsFromRows,
  campaignShippingQuery,
  isAdmin,
  isCampaignEditable,
  tableToCsv,
  type CampaignBodyOutput,
  type CampaignDetailDTO,
  type CampaignDTO,
  type CampaignListResponse,
  type CampaignSettingRow,
  type CampaignShippingListResponse,
  type CampaignStatus,
} from "@balcao/shared";
import type { AppContext } from "../../context";
import type { Tx } from "../../db/client";
import { campaignSettings, campaignShippings, campaigns, companies, connections, contactLists } from "../../db/schema";
import { containsPattern, foldColumn } from "../../db/search";
import { AppError, forbidden, notFound } from "../../http/errors";
import type { UploadedFile } from "../../http/uploads";
import type { Actor } from "../auth/service";
import { MediaStore } from "../media/service";
import { parseJson, type CampaignDispatcher } from "./dispatcher";
import { campaignCounts, presentCampaignById, presentCampaigns, presentShipping } from "./presenter";

type CampaignRow = typeof campaigns.$inferSelect;
type ShippingQuery = z.output<typeof campaignShippingQuery>;
type ListQuery = z.output<typeof campaignListQuery>;
type SettingsInput = z.output<typeof campaignSettingsBody>;

export class CampaignsService {
  private readonly media: MediaStore;

  constructor(
    private readonly ctx: AppContext,
    private readonly dispatcher: CampaignDispatcher,
  ) {
    this.media = new MediaStore(ctx);
  }

  private get db() {
    return this.ctx.database.db;
  }

  /**
   * Campaigns are an admin page (spec §6), shown only when the company has them on (spec §2: the company's
   * campaignsEnabled, which the settings page and the super user's company form keep in step).
   */
  async guard(actor: Actor): Promise<void> {
    if (!isAdmin(actor)) throw forbidden();
    const [company] = await this.db.select({ on: companies.campaignsEnabled }).from(companies).where(eq(companies.id, actor.companyId)).limit(1);
    if (!company?.on) throw new AppError("ERR_CAMPAIGNS_DISABLED", 403);
  }

  /** Newest first, 20 a page; search by name (case and accents folded). */
  async list(actor: Actor, q: ListQuery): Promise<CampaignListResponse> {
    const conditions = [eq(campaigns.companyId, actor.companyId)];
    if (q.searchParam) conditions.push(sql`${foldColumn(campaigns.name)} like ${containsPattern(q.searchParam)}`);
    const rows = await this.db
      .select()
      .from(campaigns)
      .where(and(...conditions))
      .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
      .limit(CAMPAIGNS_PAGE_SIZE + 1)
      .offset((q.pageNumber - 1) * CAMPAIGNS_PAGE_SIZE);
    return {
      records: await presentCampaigns(this.db, actor.companyId, rows.slice(0, CAMPAIGNS_PAGE_SIZE)),
      hasMore: rows.length > CAMPAIGNS_PAGE_SIZE,
    };
  }

  private async find(companyId: number, id: number, tx?: Tx, lock = false): Promise<CampaignRow> {
    const query = (tx ?? this.db)
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.companyId, companyId), eq(campaigns.id, id)))
      .limit(1);
    const [row] = lock ? await query.for("update") : await query;
    if (!row) throw notFound("ERR_NO_CAMPAIGN_FOUND");
    return row;
  }

  async show(actor: Actor, id: number): Promise<CampaignDetailDTO> {
    const row = await this.find(actor.companyId, id);
    const [dto] = await presentCampaigns(this.db, actor.companyId, [row]);
    return { ...dto!, counts: await campaignCounts(this.db, actor.companyId, row) };
  }

  /** The connection and the list must be the caller's company's (another company's id reads as missing). */
  private async assertRefs(tx: Tx, companyId: number, input: CampaignBodyOutput): Promise<void> {
    if (input.whatsappId) {
      const [c] = await tx
        .select({ id: connections.id })
        .from(connections)
        .where(and(eq(connections.companyId, companyId), eq(connections.id, input.whatsappId)))
        .limit(1);
      if (!c) throw new AppError("ERR_NO_WAPP_FOUND", 400);
    }
    if (input.contactListId) {
      const [l] = await tx
        .select({ id: contactLists.id })
        .from(contactLists)
        .where(and(eq(contactLists.companyId, companyId), eq(contactLists.id, input.contactListId)))
        .limit(1);
      if (!l) throw new AppError("ERR_CAMPAIGN_LIST_NOT_FOUND", 400);
    }
  }

  private values(input: CampaignBodyOutput) {
    return {
      name: input.name,
      message1: input.message1,
      message2: input.message2,
      message3: input.message3,
      message4: input.message4,
      message5: input.message5,
      confirmationMessage1: input.confirmationMessage1,
      confirmationMessage2: input.confirmationMessage2,
      confirmationMessage3: input.confirmationMessage3,
      confirmationMessage4: input.confirmationMessage4,
      confirmationMessage5: input.confirmationMessage5,
      confirmation: input.confirmation ?? false,
      scheduledAt: input.scheduledAt ?? null,
      connectionId: input.whatsappId ?? null,
      contactListId: input.contactListId ?? null,
    };
  }

  /** A campaign with a schedule is PROGRAMADA (its start job due then), without one INATIVA. */
  async create(actor: Actor, input: CampaignBodyOutput): Promise<CampaignDTO> {
    const id = await this.db.transaction(async (tx) => {
      await this.assertRefs(tx, actor.companyId, input);
      const status: CampaignStatus = input.scheduledAt ? "PROGRAMADA" : "INATIVA";
      const [row] = await tx
        .insert(campaigns)
        .values({ companyId: actor.companyId, ...this.values(input), status })
        .returning();
      if (row!.status === "PROGRAMADA") await this.dispatcher.scheduleStart(tx, actor.companyId, row!.id, row!.scheduledAt!);
      const campaign = (await presentCampaignById(tx, actor.companyId, row!.id))!;
      await this.ctx.events.record(tx, { type: "campaigns.created", companyId: actor.companyId, campaign });
      return row!.id;
    });
    return (await presentCampaignById(this.db, actor.companyId, id))!;
  }

  /**
   * Spec §4: INATIVA, PROGRAMADA more than an hour ahead, and CANCELADA are editable. INATIVA/PROGRAMADA follow
   * the schedule (set → PROGRAMADA, cleared → INATIVA); a CANCELADA campaign stays cancelled (restart runs it).
   */
  async update(actor: Actor, id: number, input: CampaignBodyOutput): Promise<CampaignDTO> {
    await this.db.transaction(async (tx) => {
      const current = await this.find(actor.companyId, id, tx, true);
      if (!isCampaignEditable({ status: current.status as CampaignStatus, scheduledAt: current.scheduledAt }))
        throw new AppError("ERR_CAMPAIGN_NOT_EDITABLE", 400);
      await this.assertRefs(tx, actor.companyId, input);
      const values = this.values(input);
      const status: CampaignStatus = current.status === "CANCELADA" ? "CANCELADA" : values.scheduledAt ? "PROGRAMADA" : "INATIVA";
      await tx
        .update(campaigns)
        .set({ ...values, status, updatedAt: new Date() })
        .where(and(eq(campaigns.companyId, actor.companyId), eq(campaigns.id, id)));
      const moved = current.status !== status || current.scheduledAt?.getTime() !== values.scheduledAt?.getTime();
      if (moved && current.status === "PROGRAMADA") await this.dispatcher.cancelStart(id);
      if (moved && status === "PROGRAMADA") await this.dispatcher.scheduleStart(tx, actor.companyId, id, values.scheduledAt!);
      const campaign = (await presentCampaignById(tx, actor.companyId, id))!;
      await this.ctx.events.record(tx, { type: "campaigns.updated", companyId: actor.companyId, campaign });
    });
    return (await presentCampaignById(this.db, actor.companyId, id))!;
  }

  /** A running campaign is cancelled first (ERR_CAMPAIGN_RUNNING); the rest go with their shipping rows. */
  async remove(actor: Actor, id: number): Promise<void> {
    const removed = await this.db.transaction(async (tx) => {
      const current = await this.find(actor.companyId, id, tx, true);
      if (current.status === "EM_ANDAMENTO") throw new AppError("ERR_CAMPAIGN_RUNNING", 409);
      const [shipped] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(campaignShippings)
        .where(
          and(
            eq(campaignShippings.companyId, actor.companyId),
            eq(campaignShippings.campaignId, id),
            sql`${campaignShippings.messageId} is not null`,
          ),
        );
      await tx.delete(campaigns).where(and(eq(campaigns.companyId, actor.companyId), eq(campaigns.id, id)));
      await this.ctx.events.record(tx, { type: "campaigns.deleted", companyId: actor.companyId, campaignId: id });
      return { current, shipped: (shipped?.n ?? 0) > 0 };
    });
    if (removed.current.status === "PROGRAMADA") await this.dispatcher.cancelStart(id);
    // Messages already sent with the file keep showing it in their conversations.
    if (removed.current.mediaPath && !removed.shipped) await this.media.remove(actor.companyId, removed.current.mediaPath).catch(() => undefined);
  }

  /** Spec §4: only a running campaign is cancelled; rows not yet sent stay pending for a restart. */
  async cancel(actor: Actor, id: number): Promise<CampaignDTO> {
    await this.db.transaction(async (tx) => {
      const current = await this.find(actor.companyId, id, tx, true);
      if (current.status !== "EM_ANDAMENTO") throw new AppError("ERR_CAMPAIGN_CANNOT_CANCEL", 400);
      await tx
        .update(campaigns)
        .set({ status: "CANCELADA", pauseReason: null, updatedAt: new Date() })
        .where(and(eq(campaigns.companyId, actor.companyId), eq(campaigns.id, id)));
      const campaign = (await presentCampaignById(tx, actor.companyId, id))!;
      await this.ctx.events.record(tx, { type: "campaigns.updated", companyId: actor.companyId, campaign });
    });
    return (await presentCampaignById(this.db, actor.companyId, id))!;
  }

  /** Spec §4: only a cancelled campaign restarts; it carries on with the rows not yet sent (never resends). */
  async restart(actor: Actor, id: number): Promise<CampaignDTO> {
    await this.db.transaction(async (tx) => {
      const current = await this.find(actor.companyId, id, tx, true);
      if (current.status !== "CANCELADA") throw new AppError("ERR_CAMPAIGN_CANNOT_RESTART", 400);
      if (current.connectionId === null) throw new AppError("ERR_NO_WAPP_FOUND", 400);
      if (current.contactListId === null) throw new AppError("ERR_CAMPAIGN_LIST_NOT_FOUND", 400);
      // A runner of the cancelled run that has not noticed yet gives way to the new one.
      await tx
        .update(campaigns)
        .set({ runOwner: null, runLeaseUntil: null })
        .where(and(eq(campaigns.companyId, actor.companyId), eq(campaigns.id, id)));
      await this.dispatcher.begin(tx, current);
      await this.dispatcher.enqueueTick(actor.companyId, id, undefined, tx);
    });
    return (await presentCampaignById(this.db, actor.companyId, id))!;
  }

  async uploadMedia(actor: Actor, id: number, file: UploadedFile): Promise<CampaignDTO> {
    const current = await this.find(actor.companyId, id);
    if (!isCampaignEditable({ status: current.status as CampaignStatus, scheduledAt: current.scheduledAt }))
      throw new AppError("ERR_CAMPAIGN_NOT_EDITABLE", 400);
    const stored = await this.media.saveFile(this.db, actor.companyId, file.path, file.size, file.fileName, file.mimeType);
    const saved = await this.setMedia(actor, id, { mediaPath: stored.id, mediaName: stored.originalName }).catch(async (err: unknown) => {
      await this.media.remove(actor.companyId, stored.id);
      throw err;
    });
    if (current.mediaPath) await this.dropFile(actor.companyId, id, current.mediaPath);
    return saved;
  }

  async removeMedia(actor: Actor, id: number): Promise<CampaignDTO> {
    const current = await this.find(actor.companyId, id);
    if (!isCampaignEditable({ status: current.status as CampaignStatus, scheduledAt: current.scheduledAt }))
      throw new AppError("ERR_CAMPAIGN_NOT_EDITABLE", 400);
    const saved = await this.setMedia(actor, id, { mediaPath: null, mediaName: null });
    if (current.mediaPath) await this.dropFile(actor.companyId, id, current.mediaPath);
    return saved;
  }

  /** The file goes unless messages already sent by this campaign show it. */
  private async dropFile(companyId: number, campaignId: number, mediaPath: string): Promise<void> {
    const [shipped] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(campaignShippings)
      .where(
        and(
          eq(campaignShippings.companyId, companyId),
          eq(campaignShippings.campaignId, campaignId),
          sql`${campaignShippings.messageId} is not null`,
        ),
      );
    if ((shipped?.n ?? 0) === 0) await this.media.remove(companyId, mediaPath).catch(() => undefined);
  }

  private async setMedia(actor: Actor, id: number, media: { mediaPath: string | null; mediaName: string | null }): Promise<CampaignDTO> {
    await this.db.transaction(async (tx) => {
      const current = await this.find(actor.companyId, id, tx, true);
      if (!isCampaignEditable({ status: current.status as CampaignStatus, scheduledAt: current.scheduledAt }))
        throw new AppError("ERR_CAMPAIGN_NOT_EDITABLE", 400);
      await tx
        .update(campaigns)
        .set({ ...media, updatedAt: new Date() })
        .where(and(eq(campaigns.companyId, actor.companyId), eq(campaigns.id, id)));
      const campaign = (await presentCampaignById(tx, actor.companyId, id))!;
      await this.ctx.events.record(tx, { type: "campaigns.updated", companyId: actor.companyId, campaign });
    });
    return (await presentCampaignById(this.db, actor.companyId, id))!;
  }

  /** The report's rows, in list order, 50 a page; search by name or number. */
  async shipping(actor: Actor, id: number, q: ShippingQuery): Promise<CampaignShippingListResponse> {
    await this.find(actor.companyId, id);
    const conditions = [eq(campaignShippings.companyId, actor.companyId), eq(campaignShippings.campaignId, id)];
    if (q.searchParam) {
      const pattern = containsPattern(q.searchParam);
      conditions.push(or(sql`${foldColumn(campaignShippings.name)} like ${pattern}`, sql`${campaignShippings.number} like ${pattern}`)!);
    }
    if (q.status) {
      const internal = {
        pending: ["pending"],
        confirmation: ["confirmation"],
        confirmed: ["confirmed"],
        sending: ["requesting", "sending"],
        delivered: ["delivered"],
        failed: ["failed"],
      }[q.status];
      conditions.push(sql`${campaignShippings.status} in ${internal}`);
    }
    const rows = await this.db
      .select()
      .from(campaignShippings)
      .where(and(...conditions))
      .orderBy(asc(campaignShippings.position), asc(campaignShippings.id))
      .limit(CAMPAIGN_SHIPPING_PAGE_SIZE + 1)
      .offset((q.pageNumber - 1) * CAMPAIGN_SHIPPING_PAGE_SIZE);
    return { records: rows.slice(0, CAMPAIGN_SHIPPING_PAGE_SIZE).map(presentShipping), hasMore: rows.length > CAMPAIGN_SHIPPING_PAGE_SIZE };
  }

  /** Every shipping row as CSV (';', BOM, CRLF, formula defusing: the contacts export's dialect). */
  async exportCsv(actor: Actor, id: number): Promise<{ name: string; csv: string }> {
    const campaign = await this.find(actor.companyId, id);
    const rows = await this.db
      .select()
      .from(campaignShippings)
      .where(and(eq(campaignShippings.companyId, actor.companyId), eq(campaignShippings.campaignId, id)))
      .orderBy(asc(campaignShippings.position), asc(campaignShippings.id));
    const iso = (d: Date | null) => (d ? d.toISOString() : "");
    const table = [
      ["name", "number", "email", "status", "message", "confirmationMessage", "confirmationRequestedAt", "confirmedAt", "deliveredAt", "error"],
      ...rows.map((r) => {
        const s = presentShipping(r);
        return [
          s.name,
          s.number,
          s.email,
          s.status,
          s.message,
          s.confirmationMessage,
          iso(r.confirmationRequestedAt),
          iso(r.confirmedAt),
          iso(r.deliveredAt),
          s.lastError ?? "",
        ];
      }),
    ];
    return { name: campaign.name, csv: tableToCsv(table) };
  }

  // ─── Settings ────────────────────────────────────────────────────────────────────────────────

  /** Every key, saved or default, with its parsed JSON value. */
  async settings(actor: Actor): Promise<CampaignSettingRow[]> {
    const rows = await this.db
      .select({ key: campaignSettings.key, value: campaignSettings.value })
      .from(campaignSettings)
      .where(eq(campaignSettings.companyId, actor.companyId));
    const s = campaignSettingsFromRows(rows.map((r) => ({ key: r.key, value: parseJson(r.value) })));
    return [
      { key: "messageInterval", value: s.messageInterval },
      { key: "longerIntervalAfter", value: s.longerIntervalAfter },
      { key: "greaterInterval", value: s.greaterInterval },
      { key: "variables", value: s.variables },
    ];
  }

  /** Saves the keys given (JSON text per key, one row per key); the others keep their value. */
  async saveSettings(actor: Actor, input: SettingsInput): Promise<CampaignSettingRow[]> {
    const entries = Object.entries(input.settings).filter(([key, value]) => value !== undefined && key in CAMPAIGN_SETTINGS_DEFAULTS);
    await this.db.transaction(async (tx) => {
      for (const [key, value] of entries)
        await tx
          .insert(campaignSettings)
          .values({ companyId: actor.companyId, key, value: JSON.stringify(value) })
          .onConflictDoUpdate({
            target: [campaignSettings.companyId, campaignSettings.key],
            set: { value: JSON.stringify(value), updatedAt: new Date() },
          });
    });
    return this.settings(actor);
  }
}
