import { and, asc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  COLOR_PALETTE,
  PAGE_SIZE,
  type ListQuery,
  type TagDTO,
  type TagKanbanResponse,
  type TagListResponse,
  type TicketTagsResponse,
  tagCreateBody,
  tagUpdateBody,
} from "@balcao/shared";
import type { AppContext } from "../../context";
import type { Tx } from "../../db/client";
import { tags, tickets, ticketTags } from "../../db/schema";
import { containsPattern, foldColumn } from "../../db/search";
import { forbidden, notFound } from "../../http/errors";
import type { Actor } from "../auth/service";
import { tagPolicy } from "./policy";
import { presentTag } from "./presenter";

type CreateInput = z.output<typeof tagCreateBody>;
type UpdateInput = z.output<typeof tagUpdateBody>;

/** What the ticket-tag endpoints answer: the ticket's tags after the change. */
/** The ticket's tags after a change (the shared schema documents it). */
export type TicketTagsResult = TicketTagsResponse;

/** A stable palette colour for a tag created by name only. */
export function colorForName(name: string): string {
  let h = 0;
  for (const ch of name.toLowerCase()) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
  return COLOR_PALETTE[h % COLOR_PALETTE.length]!;
}

export class TagsService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  /** ticketsCount as a correlated count in the same query (served by ticket_tags_company_tag_idx): no N+1. */
  private ticketsCount(companyId: number) {
    return sql<number>`(select count(*) from ${ticketTags} where ${ticketTags.companyId} = ${companyId} and ${ticketTags.tagId} = ${tags.id})`.mapWith(
      Number,
    );
  }

  async list(actor: Actor, query: ListQuery): Promise<TagListResponse> {
    const conditions = [eq(tags.companyId, actor.companyId)];
    if (query.searchParam) conditions.push(sql`${foldColumn(tags.name)} like ${containsPattern(query.searchParam)}`);
    const rows = await this.db
      .select({ ...getTableColumns(tags), ticketsCount: this.ticketsCount(actor.companyId) })
      .from(tags)
      .where(and(...conditions))
      .orderBy(asc(tags.name), asc(tags.id))
      .limit(PAGE_SIZE + 1)
      .offset((query.pageNumber - 1) * PAGE_SIZE);
    return { tags: rows.slice(0, PAGE_SIZE).map(({ ticketsCount, ...t }) => presentTag(t, ticketsCount)), hasMore: rows.length > PAGE_SIZE };
  }

  async listSimple(actor: Actor): Promise<TagDTO[]> {
    const rows = await this.db.select().from(tags).where(eq(tags.companyId, actor.companyId)).orderBy(asc(tags.name), asc(tags.id)).limit(1000);
    return rows.map((t) => presentTag(t));
  }

  /** Kanban lanes: tags with kanban = 1, in creation order. */
  async kanban(actor: Actor): Promise<TagKanbanResponse> {
    const rows = await this.db
      .select()
      .from(tags)
      .where(and(eq(tags.companyId, actor.companyId), eq(tags.kanban, 1)))
      .orderBy(asc(tags.id));
    return { lista: rows.map((t) => presentTag(t)) };
  }

  private async findScoped(actor: Actor, id: number, tx: Tx | undefined = undefined) {
    const [row] = await (tx ?? this.db)
      .select({ ...getTableColumns(tags), ticketsCount: this.ticketsCount(actor.companyId) })
      .from(tags)
      .where(and(eq(tags.id, id), eq(tags.companyId, actor.companyId)))
      .limit(1);
    if (!row) throw notFound("ERR_NO_TAG_FOUND");
    return row;
  }

  async show(actor: Actor, id: number): Promise<TagDTO> {
    const { ticketsCount, ...row } = await this.findScoped(actor, id);
    return presentTag(row, ticketsCount);
  }

  async create(actor: Actor, input: CreateInput): Promise<TagDTO> {
    if (!tagPolicy.create(actor)) throw forbidden();
    if (input.kanban === 1 && !tagPolicy.setKanban(actor)) throw forbidden();
    const [row] = await this.db
      .insert(tags)
      .values({
        companyId: actor.companyId,
        name: input.name,
        color: input.color ?? colorForName(input.name),
        kanban: input.kanban ?? 0,
        userId: actor.id,
      })
      .returning();
    const tag = presentTag(row!, 0);
    this.ctx.events.publish({ type: "tags.created", companyId: actor.companyId, tag });
    return tag;
  }

  async update(actor: Actor, id: number, input: UpdateInput): Promise<TagDTO> {
    const current = await this.findScoped(actor, id);
    if (!tagPolicy.update(actor)) throw forbidden();
    if (input.kanban !== undefined && input.kanban !== current.kanban && !tagPolicy.setKanban(actor)) throw forbidden();
    const [row] = await this.db
      .update(tags)
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.color !== undefined && { color: input.color }),
        ...(input.kanban !== undefined && { kanban: input.kanban }),
        updatedAt: new Date(),
      })
      .where(and(eq(tags.id, id), eq(tags.companyId, actor.companyId)))
      .returning();
    if (!row) throw notFound("ERR_NO_TAG_FOUND");
    const tag = presentTag(row, current.ticketsCount);
    this.ctx.events.publish({ type: "tags.updated", companyId: actor.companyId, tag });
    return tag;
  }

  async remove(actor: Actor, id: number): Promise<void> {
    await this.findScoped(actor, id);
    if (!tagPolicy.delete(actor)) throw forbidden();
    // Tickets that carried it are told their tags changed.
    const tagged = await this.db
      .select({ ticketId: ticketTags.ticketId })
      .from(ticketTags)
      .where(and(eq(ticketTags.companyId, actor.companyId), eq(ticketTags.tagId, id)));
    await this.db.delete(tags).where(and(eq(tags.id, id), eq(tags.companyId, actor.companyId)));
    this.ctx.events.publish(
      { type: "tags.deleted", companyId: actor.companyId, tagId: id },
      ...tagged.map((t) => ({ type: "tickets.tagsChanged" as const, companyId: actor.companyId, ticketId: t.ticketId })),
    );
  }

  /** The ticket, scoped to the company (404 like a missing one) and visible to the actor (403 otherwise). */
  private async ticketFor(actor: Actor, ticketId: number, tx: Tx) {
    const [ticket] = await tx
      .select({ id: tickets.id, userId: tickets.userId, queueId: tickets.queueId, status: tickets.status })
      .from(tickets)
      .where(and(eq(tickets.id, ticketId), eq(tickets.companyId, actor.companyId)))
      .limit(1)
      .for("update");
    if (!ticket) throw notFound("ERR_NO_TICKET_FOUND");
    if (!tagPolicy.tagTicket(actor, ticket)) throw forbidden();
    return ticket;
  }

  private async assertTagsInCompany(tx: Tx, companyId: number, tagIds: number[]): Promise<void> {
    if (tagIds.length === 0) return;
    const found = await tx
      .select({ id: tags.id })
      .from(tags)
      .where(and(eq(tags.companyId, companyId), inArray(tags.id, tagIds)));
    if (found.length !== tagIds.length) throw notFound("ERR_NO_TAG_FOUND");
  }

  private async ticketTagsOf(tx: Tx, companyId: number, ticketId: number): Promise<TicketTagsResult> {
    const rows = await tx
      .select(getTableColumns(tags))
      .from(ticketTags)
      .innerJoin(tags, eq(tags.id, ticketTags.tagId))
      .where(and(eq(ticketTags.companyId, companyId), eq(ticketTags.ticketId, ticketId)))
      .orderBy(asc(tags.name), asc(tags.id));
    return { ticketId, tags: rows.map((t) => presentTag(t)) };
  }

  private async changeTicketTags(actor: Actor, ticketId: number, work: (tx: Tx) => Promise<void>): Promise<TicketTagsResult> {
    const result = await this.db.transaction(async (tx) => {
      await this.ticketFor(actor, ticketId, tx);
      await work(tx);
      return this.ticketTagsOf(tx, actor.companyId, ticketId);
    });
    this.ctx.events.publish({ type: "tickets.tagsChanged", companyId: actor.companyId, ticketId });
    return result;
  }

  /** POST /tags/sync: the ticket's tags become exactly the given ones. */
  sync(actor: Actor, ticketId: number, tagIds: number[]): Promise<TicketTagsResult> {
    const unique = [...new Set(tagIds)];
    return this.changeTicketTags(actor, ticketId, async (tx) => {
      await this.assertTagsInCompany(tx, actor.companyId, unique);
      await tx.delete(ticketTags).where(and(eq(ticketTags.companyId, actor.companyId), eq(ticketTags.ticketId, ticketId)));
      if (unique.length)
        await tx
          .insert(ticketTags)
          .values(unique.map((tagId) => ({ companyId: actor.companyId, ticketId, tagId })))
          .onConflictDoNothing();
    });
  }

  /** PUT /ticket-tags/:ticketId/:tagId: adds one tag (idempotent). */
  add(actor: Actor, ticketId: number, tagId: number): Promise<TicketTagsResult> {
    return this.changeTicketTags(actor, ticketId, async (tx) => {
      await this.assertTagsInCompany(tx, actor.companyId, [tagId]);
      await tx.insert(ticketTags).values({ companyId: actor.companyId, ticketId, tagId }).onConflictDoNothing();
    });
  }

  /** DELETE /ticket-tags/:ticketId: removes every tag of the ticket (the Kanban then adds the new lane's). */
  clear(actor: Actor, ticketId: number): Promise<TicketTagsResult> {
    return this.changeTicketTags(actor, ticketId, async (tx) => {
      await tx.delete(ticketTags).where(and(eq(ticketTags.companyId, actor.companyId), eq(ticketTags.ticketId, ticketId)));
    });
  }
}
