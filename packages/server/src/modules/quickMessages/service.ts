import { and, asc, eq, or, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  PAGE_SIZE,
  type ListQuery,
  type QuickMessageDTO,
  type QuickMessageListResponse,
  quickMessageBody,
  quickMessageUpdateBody,
} from "@balcao/shared";
import type { AppContext } from "../../context";
import { isUniqueViolation, type Tx } from "../../db/client";
import { quickMessages } from "../../db/schema";
import { containsPattern, foldColumn } from "../../db/search";
import { AppError, forbidden, notFound } from "../../http/errors";
import type { Actor } from "../auth/service";
import { quickMessagePolicy } from "./policy";
import { presentQuickMessage } from "./presenter";

type CreateInput = z.output<typeof quickMessageBody>;
type UpdateInput = z.output<typeof quickMessageUpdateBody>;

/** GET /quick-messages/list answers at most this many (the composer filters them client-side). */
export const QUICK_MESSAGE_LIST_LIMIT = 2000;

const duplicated = () => new AppError("ERR_DUPLICATED_SHORTCODE", 400);

export class QuickMessagesService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  async list(actor: Actor, query: ListQuery): Promise<QuickMessageListResponse> {
    const conditions = [eq(quickMessages.companyId, actor.companyId)];
    if (query.searchParam) {
      const pattern = containsPattern(query.searchParam);
      conditions.push(or(sql`${foldColumn(quickMessages.shortcode)} like ${pattern}`, sql`${foldColumn(quickMessages.message)} like ${pattern}`)!);
    }
    const rows = await this.db
      .select()
      .from(quickMessages)
      .where(and(...conditions))
      .orderBy(asc(quickMessages.shortcode), asc(quickMessages.id))
      .limit(PAGE_SIZE + 1)
      .offset((query.pageNumber - 1) * PAGE_SIZE);
    return { records: rows.slice(0, PAGE_SIZE).map(presentQuickMessage), hasMore: rows.length > PAGE_SIZE };
  }

  async listSimple(actor: Actor, companyId?: number): Promise<QuickMessageDTO[]> {
    const rows = await this.db
      .select()
      .from(quickMessages)
      .where(eq(quickMessages.companyId, quickMessagePolicy.listScope(actor, companyId)))
      .orderBy(asc(quickMessages.shortcode), asc(quickMessages.id))
      .limit(QUICK_MESSAGE_LIST_LIMIT);
    return rows.map(presentQuickMessage);
  }

  private async findScoped(actor: Actor, id: number) {
    const [row] = await this.db
      .select()
      .from(quickMessages)
      .where(and(eq(quickMessages.id, id), eq(quickMessages.companyId, actor.companyId)))
      .limit(1);
    if (!row) throw notFound("ERR_NO_QUICK_MESSAGE_FOUND");
    return row;
  }

  async show(actor: Actor, id: number): Promise<QuickMessageDTO> {
    return presentQuickMessage(await this.findScoped(actor, id));
  }

  /** Shortcodes are unique per company ignoring case ("/Oi" and "/oi" would be ambiguous in the composer). */
  private async assertShortcodeFree(tx: Tx, companyId: number, shortcode: string, exceptId?: number): Promise<void> {
    const [taken] = await tx
      .select({ id: quickMessages.id })
      .from(quickMessages)
      .where(and(eq(quickMessages.companyId, companyId), sql`lower(${quickMessages.shortcode}) = lower(${shortcode})`))
      .limit(1);
    if (taken && taken.id !== exceptId) throw duplicated();
  }

  async create(actor: Actor, input: CreateInput): Promise<QuickMessageDTO> {
    if (!quickMessagePolicy.create(actor)) throw forbidden();
    const created = await this.withShortcodeGuard(() =>
      this.db.transaction(async (tx) => {
        await this.assertShortcodeFree(tx, actor.companyId, input.shortcode);
        const [row] = await tx
          .insert(quickMessages)
          .values({ companyId: actor.companyId, shortcode: input.shortcode, message: input.message, userId: actor.id })
          .returning();
        return presentQuickMessage(row!);
      }),
    );
    this.ctx.events.publish({ type: "quickMessages.created", companyId: actor.companyId, record: created });
    return created;
  }

  async update(actor: Actor, id: number, input: UpdateInput): Promise<QuickMessageDTO> {
    const current = await this.findScoped(actor, id);
    if (!quickMessagePolicy.modify(actor, current)) throw forbidden();
    const updated = await this.withShortcodeGuard(() =>
      this.db.transaction(async (tx) => {
        if (input.shortcode !== undefined) await this.assertShortcodeFree(tx, actor.companyId, input.shortcode, id);
        const [row] = await tx
          .update(quickMessages)
          .set({
            ...(input.shortcode !== undefined && { shortcode: input.shortcode }),
            ...(input.message !== undefined && { message: input.message }),
            updatedAt: new Date(),
          })
          .where(and(eq(quickMessages.id, id), eq(quickMessages.companyId, actor.companyId)))
          .returning();
        if (!row) throw notFound("ERR_NO_QUICK_MESSAGE_FOUND");
        return presentQuickMessage(row);
      }),
    );
    this.ctx.events.publish({ type: "quickMessages.updated", companyId: actor.companyId, record: updated });
    return updated;
  }

  async remove(actor: Actor, id: number): Promise<void> {
    const current = await this.findScoped(actor, id);
    if (!quickMessagePolicy.modify(actor, current)) throw forbidden();
    await this.db.delete(quickMessages).where(and(eq(quickMessages.id, id), eq(quickMessages.companyId, actor.companyId)));
    this.ctx.events.publish({ type: "quickMessages.deleted", companyId: actor.companyId, id });
  }

  /** Two creates racing on one shortcode: the unique index decides, answered as the same 400. */
  private async withShortcodeGuard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err, "quick_messages_company_shortcode_uq")) throw duplicated();
      throw err;
    }
  }
}
