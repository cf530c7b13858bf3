import { and, desc, eq, inArray, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import { alias, unionAll } from "drizzle-orm/pg-core";
import {
  can,
  encodeKeysetCursor,
  isAdmin,
  ticketCreateBody,
  ticketListQuery,
  ticketUpdateBody,
  type TicketDTO,
  type TicketListResponse,
} from "@balcao/shared";
import type { z } from "zod";
import type { AppContext } from "../../context";
import { isUniqueViolation, type Tx } from "../../db/client";
import { companies, connections, contacts, messages, queues, tickets, ticketTags, userQueues, users } from "../../db/schema";
import { containsPattern, foldColumn } from "../../db/search";
import { AppError, forbidden, notFound } from "../../http/errors";
import type { Actor } from "../auth/service";
import { relayOf } from "../messages/sendRelay";
import { cycles } from "./cycles";
import { canSeeTicket, ticketPolicy, type TicketScope } from "./policy";
import { presentTicketById, presentTicketRow, selectTicketsWithTags } from "./presenter";

export const TICKETS_PAGE_SIZE = 40;
/** Spec §5 text for a refused ticket (shown verbatim). */

type ListQuery = z.output<typeof ticketListQuery>;
type CreateInput = z.output<typeof ticketCreateBody>;
type UpdateInput = z.output<typeof ticketUpdateBody>;
type TicketRecord = typeof tickets.$inferSelect;

const scopeOf = (t: Pick<TicketRecord, "userId" | "queueId" | "status">): TicketScope => ({ userId: t.userId, queueId: t.queueId, status: t.status });

export class TicketsService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  /**
   * The ticket manager's lists (docs/api.md): visibility by profile, then the tab's ownership rule,
   * then the filters, which always narrow (never replace) the previous conditions (reference defect 17).
   */
  async list(actor: Actor, q: ListQuery): Promise<TicketListResponse> {
    const rows = await this.listQuery(actor, q);
    const hasMore = rows.length > TICKETS_PAGE_SIZE;
    const page = rows.slice(0, TICKETS_PAGE_SIZE);
    const last = page.at(-1);
    // The next page starts after the last row's (updated_at, id), whatever moved or arrived meanwhile.
    const nextCursor = hasMore && last ? encodeKeysetCursor({ at: Number(last.cursorAt), id: last.ticket.id }) : null;
    return { tickets: page.map(presentTicketRow), hasMore, nextCursor };
  }

  /**
   * The page query alone (one row past the page), also run bare by bench/tickets-list.ts as its baseline.
   * `cursor` pages by keyset (constant cost at any depth); `pageNumber` (OFFSET) stays for API compatibility.
   */
  async listQuery(actor: Actor, q: ListQuery) {
    const admin = isAdmin(actor);
    // Show-all (admins and supervisors) drops "mine only"; for a supervisor it stays within its queues below.
    const showAll = can(actor, "tickets-manager:showall") && q.showAll === true;
    const conditions: (SQL | undefined)[] = [eq(tickets.companyId, actor.companyId)];
    if (!admin) {
      conditions.push(
        or(eq(tickets.userId, actor.id), isNull(tickets.queueId), actor.queueIds.length ? inArray(tickets.queueId, actor.queueIds) : sql`false`),
      );
    }
    if (q.queueIds?.length) conditions.push(or(inArray(tickets.queueId, q.queueIds), isNull(tickets.queueId)));
    if (q.status) {
      conditions.push(eq(tickets.status, q.status));
      if (q.status !== "pending" && !showAll) conditions.push(eq(tickets.userId, actor.id));
    }
    if (admin && q.users?.length) conditions.push(inArray(tickets.userId, q.users));
    if (q.tags?.length) {
      conditions.push(
        inArray(
          tickets.id,
          this.db
            .select({ id: ticketTags.ticketId })
            .from(ticketTags)
            .where(and(eq(ticketTags.companyId, actor.companyId), inArray(ticketTags.tagId, q.tags)))
            .groupBy(ticketTags.ticketId)
            .having(sql`count(distinct ${ticketTags.tagId}) = ${q.tags.length}`),
        ),
      );
    }
    if (q.withUnreadMessages) conditions.push(sql`${tickets.unreadMessages} > 0`);
    if (q.date || q.updatedAt) {
      const [tz] = await this.db.select({ tz: companies.timeZone }).from(companies).where(eq(companies.id, actor.companyId));
      const zone = tz?.tz ?? this.ctx.config.defaultTimeZone;
      if (q.date) conditions.push(sql`(${tickets.createdAt} at time zone ${zone})::date = ${q.date}::date`);
      if (q.updatedAt) conditions.push(sql`(${tickets.updatedAt} at time zone ${zone})::date = ${q.updatedAt}::date`);
    }
    if (q.searchParam) {
      const pattern = containsPattern(q.searchParam);
      const digits = q.searchParam.replace(/\D/g, "");
      // Both sides are subqueries the trigram indexes answer (contacts by name and number, messages by text),
      // instead of a per-ticket probe of every message.
      const contactMatch = this.db
        .select({ id: contacts.id })
        .from(contacts)
        .where(
          and(
            eq(contacts.companyId, actor.companyId),
            or(sql`${foldColumn(contacts.name)} like ${pattern}`, digits.length >= 3 ? sql`${contacts.number} like ${`%${digits}%`}` : undefined),
          ),
        );
      const messageMatch = this.db
        .select({ id: messages.ticketId })
        .from(messages)
        .where(and(eq(messages.companyId, actor.companyId), sql`${foldColumn(messages.body)} like ${pattern}`));
      const matched = alias(tickets, "matched");
      const contactTickets = this.db
        .select({ id: matched.id })
        .from(matched)
        .where(and(eq(matched.companyId, actor.companyId), inArray(matched.contactId, contactMatch)));
      // One IN over the union, not an OR of two INs: the planner starts from the few matching tickets and
      // sorts them, where the OR made it walk every ticket of the company testing two hashed subplans.
      conditions.push(inArray(tickets.id, unionAll(contactTickets, messageMatch)));
    }
    if (q.cursor) {
      conditions.push(
        sql`(${tickets.updatedAt}, ${tickets.id}) < (timestamptz 'epoch' + ${q.cursor.at}::bigint * interval '1 microsecond', ${q.cursor.id}::int)`,
      );
    }
    const query = selectTicketsWithTags(this.db)
      .where(and(...conditions))
      .orderBy(desc(tickets.updatedAt), desc(tickets.id))
      .limit(TICKETS_PAGE_SIZE + 1);
    return q.cursor ? query : query.offset((q.pageNumber - 1) * TICKETS_PAGE_SIZE);
  }

  /**
   * A ticket the actor may see; another company's is a 404 like a missing one. `lock` (inside `tx`) holds
   * the row until commit, so concurrent transitions of one ticket run one after the other.
   */
  private async findVisible(actor: Actor, where: SQL, tx?: Tx, lock = false): Promise<TicketRecord> {
    const query = (tx ?? this.db)
      .select()
      .from(tickets)
      .where(and(where, eq(tickets.companyId, actor.companyId)))
      .limit(1);
    const [row] = lock ? await query.for("update") : await query;
    if (!row) throw notFound("ERR_NO_TICKET_FOUND");
    if (!canSeeTicket(actor, row)) throw new AppError("ERR_ACCESS_DENIED", 403);
    return row;
  }

  async show(actor: Actor, id: number): Promise<TicketDTO> {
    const row = await this.findVisible(actor, eq(tickets.id, id));
    return (await presentTicketById(this.db, actor.companyId, row.id))!;
  }

  async showByUuid(actor: Actor, uuid: string): Promise<TicketDTO> {
    const row = await this.findVisible(actor, eq(tickets.uuid, uuid));
    return (await presentTicketById(this.db, actor.companyId, row.id))!;
  }

  private async assertQueue(tx: Tx, companyId: number, queueId: number): Promise<void> {
    const [q] = await tx
      .select({ id: queues.id })
      .from(queues)
      .where(and(eq(queues.id, queueId), eq(queues.companyId, companyId)))
      .limit(1);
    if (!q) throw new AppError("ERR_NO_QUEUE_FOUND", 400);
  }

  private async assertUser(tx: Tx, companyId: number, userId: number, queueId: number | null): Promise<void> {
    const [u] = await tx
      .select({ id: users.id, profile: users.profile })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.companyId, companyId)))
      .limit(1);
    if (!u) throw new AppError("ERR_NO_USER_FOUND", 400);
    if (queueId !== null && u.profile !== "admin") {
      const [member] = await tx
        .select({ q: userQueues.queueId })
        .from(userQueues)
        .where(and(eq(userQueues.userId, userId), eq(userQueues.queueId, queueId)))
        .limit(1);
      // Handing a ticket to someone who could not open it would strand it.
      if (!member) throw new AppError("ERR_ACCESS_DENIED", 400);
    }
  }

  /** Another not-closed ticket of the same contact on the same connection blocks reopening/creating. */
  private async assertNoOtherActive(tx: Tx, t: { companyId: number; contactId: number; connectionId: number | null; id?: number }) {
    const conditions = [
      eq(tickets.companyId, t.companyId),
      eq(tickets.contactId, t.contactId),
      t.connectionId === null ? isNull(tickets.connectionId) : eq(tickets.connectionId, t.connectionId),
      ne(tickets.status, "closed"),
    ];
    if (t.id) conditions.push(ne(tickets.id, t.id));
    const [other] = await tx
      .select({ id: tickets.id, userId: tickets.userId })
      .from(tickets)
      .where(and(...conditions))
      .limit(1);
    if (other) throw new AppError("ERR_OTHER_OPEN_TICKET", 400, { ticketId: other.id });
  }

  async create(actor: Actor, input: CreateInput): Promise<TicketDTO> {
    if (!input.queueId && !ticketPolicy.createWithoutQueue(actor)) throw new AppError("ERR_QUEUE_REQUIRED");
    if (input.queueId && !isAdmin(actor) && !actor.queueIds.includes(input.queueId)) throw new AppError("ERR_ACCESS_DENIED", 403);
    const assignee = isAdmin(actor) && input.userId ? input.userId : actor.id;
    try {
      const id = await this.db.transaction(async (tx) => {
        const [contact] = await tx
          .select({ id: contacts.id, isGroup: contacts.isGroup })
          .from(contacts)
          .where(and(eq(contacts.id, input.contactId), eq(contacts.companyId, actor.companyId)))
          .limit(1);
        if (!contact) throw notFound("ERR_NO_CONTACT_FOUND");
        const connectionId = await this.resolveConnection(tx, actor.companyId, input.whatsappId ?? null);
        if (input.queueId) await this.assertQueue(tx, actor.companyId, input.queueId);
        if (assignee !== actor.id) await this.assertUser(tx, actor.companyId, assignee, input.queueId ?? null);
        await this.assertNoOtherActive(tx, { companyId: actor.companyId, contactId: contact.id, connectionId });
        const [row] = await tx
          .insert(tickets)
          .values({
            companyId: actor.companyId,
            contactId: contact.id,
            connectionId,
            queueId: input.queueId ?? null,
            userId: assignee,
            status: "open",
            isGroup: contact.isGroup,
          })
          .returning();
        await cycles.started(tx, row!, assignee);
        return row!.id;
      });
      const dto = (await presentTicketById(this.db, actor.companyId, id))!;
      this.ctx.events.publish({ type: "tickets.updated", companyId: actor.companyId, ticket: dto });
      return dto;
    } catch (err) {
      if (isUniqueViolation(err, "tickets_company_contact_connection_active_uq")) throw new AppError("ERR_OTHER_OPEN_TICKET", 400);
      throw err;
    }
  }

  /** The explicit connection (must be the company's), else the company's default one. */
  private async resolveConnection(tx: Tx, companyId: number, requested: number | null): Promise<number> {
    const condition = requested
      ? and(eq(connections.companyId, companyId), eq(connections.id, requested))
      : and(eq(connections.companyId, companyId), eq(connections.isDefault, true));
    const [c] = await tx.select({ id: connections.id }).from(connections).where(condition).limit(1);
    if (c) return c.id;
    if (requested) throw new AppError("ERR_NO_WAPP_FOUND", 400);
    const [any] = await tx
      .select({ id: connections.id })
      .from(connections)
      .where(eq(connections.companyId, companyId))
      .orderBy(connections.id)
      .limit(1);
    if (!any) throw new AppError("ERR_NO_DEF_WAPP_FOUND", 400);
    return any.id;
  }

  /**
   * PUT /tickets/:id (spec §4). The transition comes from the fields: a queue change is a transfer;
   * otherwise the target status decides (accept, reopen, return, resolve).
   */
  async update(actor: Actor, id: number, input: UpdateInput): Promise<TicketDTO> {
    const result = await this.db
      .transaction(async (tx) => {
        // Locked: 30 attendants accepting one pending ticket at once get one winner, not 30 (issue 11).
        const t = await this.findVisible(actor, eq(tickets.id, id), tx, true);
        const before = scopeOf(t);
        const now = new Date();
        let next: Partial<TicketRecord> = {};
        let transition: "transfer" | "accept" | "reopen" | "return" | "resolve" | "reassign" | "none" = "none";

        const queueChanges = input.queueId !== undefined && input.queueId !== t.queueId;
        const userChanges = input.userId !== undefined && input.userId !== t.userId;
        if (t.status !== "closed" && input.queueId !== undefined && (queueChanges || (input.userId && userChanges))) {
          transition = "transfer";
        } else if (input.status === "open" && t.status === "pending") transition = "accept";
        else if (input.status === "open" && t.status === "closed") transition = "reopen";
        else if (input.status === "pending" && t.status === "open") transition = "return";
        else if (input.status === "closed" && t.status !== "closed") transition = "resolve";
        else if (input.userId && userChanges && t.status === "open") transition = "reassign";

        switch (transition) {
          case "transfer": {
            if (!ticketPolicy.handle(actor, t)) throw forbidden();
            const queueId = input.queueId ?? null;
            if (queueId !== null) await this.assertQueue(tx, actor.companyId, queueId);
            if (input.userId) {
              await this.assertUser(tx, actor.companyId, input.userId, queueId);
              next = { queueId, userId: input.userId, status: "open" };
            } else next = { queueId, userId: null, status: "pending" };
            break;
          }
          case "accept":
            if (!ticketPolicy.take(actor, t)) throw forbidden();
            next = { status: "open", userId: actor.id, unreadMessages: 0, chatbot: false };
            break;
          case "reopen":
            if (!ticketPolicy.take(actor, t)) throw forbidden();
            await this.assertNoOtherActive(tx, { ...t, id: t.id });
            next = { status: "open", userId: actor.id, unreadMessages: 0 };
            break;
          case "return":
            if (!ticketPolicy.handle(actor, t)) throw forbidden();
            next = { status: "pending", userId: null };
            break;
          case "resolve":
            if (!ticketPolicy.handle(actor, t)) throw forbidden();
            next = { status: "closed", userId: actor.id, chatbot: false, queueOptionId: null };
            break;
          case "reassign":
            if (!ticketPolicy.handle(actor, t)) throw forbidden();
            await this.assertUser(tx, actor.companyId, input.userId!, t.queueId);
            next = { userId: input.userId! };
            break;
          case "none":
            // Accepting a ticket someone else accepted a moment ago: say so instead of a silent 200.
            if (input.status === "open" && t.status === "open" && t.userId !== null && t.userId !== actor.id && input.userId === undefined)
              throw new AppError("ERR_TICKET_ALREADY_ACCEPTED", 409, { userId: t.userId });
            // Nothing to change (`{}`, the same status or queue): the ticket as it is.
            return { before, after: t, transition, unreadReset: false };
        }
        const [updated] = await tx
          .update(tickets)
          .set({ ...next, updatedAt: now })
          .where(eq(tickets.id, t.id))
          .returning();
        const u = updated!;
        if (transition === "accept" || transition === "reopen" || transition === "reassign" || (transition === "transfer" && u.userId))
          await cycles.started(tx, u, u.userId!);
        else if (transition === "return" || (transition === "transfer" && !u.userId)) await cycles.queued(tx, u);
        else if (transition === "resolve") await cycles.finished(tx, u, actor.id);
        return { before, after: u, transition, unreadReset: t.unreadMessages > 0 && u.unreadMessages === 0 };
      })
      .catch((err) => {
        if (isUniqueViolation(err, "tickets_company_contact_connection_active_uq")) throw new AppError("ERR_OTHER_OPEN_TICKET", 400);
        throw err;
      });

    const dto = (await presentTicketById(this.db, actor.companyId, id))!;
    if (result.transition !== "none") {
      this.ctx.events.publish({ type: "tickets.updated", companyId: actor.companyId, ticket: dto, previous: result.before });
      this.ctx.events.publish({
        type: "tickets.transitioned",
        companyId: actor.companyId,
        transition: result.transition,
        ticketId: id,
        actorId: actor.id,
        before: result.before,
      });
    }
    if (result.unreadReset)
      this.ctx.events.publish({ type: "tickets.unreadReset", companyId: actor.companyId, ticketId: id, scope: scopeOf(result.after) });
    return dto;
  }

  async remove(actor: Actor, id: number): Promise<void> {
    if (!ticketPolicy.delete(actor)) throw forbidden();
    const t = await this.findVisible(actor, eq(tickets.id, id));
    await this.db.delete(tickets).where(and(eq(tickets.id, t.id), eq(tickets.companyId, actor.companyId)));
    this.ctx.events.publish({ type: "tickets.deleted", companyId: actor.companyId, ticketId: id, previous: scopeOf(t) });
  }

  /** Opening a ticket zeroes its unread counter (spec §4) for the attendant who sees it. */
  async markRead(actor: Actor, id: number): Promise<void> {
    const t = await this.findVisible(actor, eq(tickets.id, id));
    if (t.unreadMessages === 0) return;
    const read = await this.db.transaction(async (tx) => {
      await tx.update(tickets).set({ unreadMessages: 0 }).where(eq(tickets.id, t.id));
      return tx
        .update(messages)
        .set({ read: true })
        .where(and(eq(messages.companyId, actor.companyId), eq(messages.ticketId, t.id), eq(messages.read, false)))
        .returning({ providerMessageId: messages.providerMessageId });
    });
    this.ctx.events.publish({ type: "tickets.unreadReset", companyId: actor.companyId, ticketId: id, scope: scopeOf(t) });
    // Read receipts on WhatsApp are a courtesy: a connection that is down must not fail the request.
    const ids = read.flatMap((m) => (m.providerMessageId ? [m.providerMessageId] : []));
    // Through the connection's owner when another process runs it (messages/sendRelay.ts); in chunks that fit
    // a NOTIFY payload.
    if (t.connectionId === null) return;
    for (let i = 0; i < ids.length; i += 100)
      await relayOf(this.ctx)
        .onSession({
          kind: "read",
          companyId: actor.companyId,
          connectionId: t.connectionId,
          contactId: t.contactId,
          providerMessageIds: ids.slice(i, i + 100),
        })
        .catch(() => undefined);
  }
}
