import { and, desc, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  PAGE_SIZE,
  SCHEDULE_PAST_TOLERANCE_MS,
  scheduleCreateBody,
  scheduleListQuery,
  scheduleUpdateBody,
  type ScheduleDTO,
  type ScheduleListResponse,
} from "@balcao/shared";
import type { AppContext } from "../../context";
import type { Tx } from "../../db/client";
import { contacts, scheduledMessages, tickets } from "../../db/schema";
import { containsPattern, foldColumn } from "../../db/search";
import { AppError, forbidden, notFound } from "../../http/errors";
import type { Actor } from "../auth/service";
import { canSeeTicket } from "../tickets/policy";
import { schedulePolicy } from "./policy";
import { presentScheduleById, presentSchedules } from "./presenter";
import type { ScheduleSender } from "./sender";

type ListQuery = z.output<typeof scheduleListQuery>;
type CreateInput = z.output<typeof scheduleCreateBody>;
type UpdateInput = z.output<typeof scheduleUpdateBody>;

const assertFuture = (sendAt: Date) => {
  if (sendAt.getTime() < Date.now() - SCHEDULE_PAST_TOLERANCE_MS) throw new AppError("ERR_SCHEDULE_IN_PAST", 400);
};

export class SchedulesService {
  constructor(
    private readonly ctx: AppContext,
    private readonly sender: ScheduleSender,
  ) {}

  private get db() {
    return this.ctx.database.db;
  }

  /** Newest first (the reference's order, served by scheduled_messages_company_created_idx). */
  async list(actor: Actor, q: ListQuery): Promise<ScheduleListResponse> {
    const conditions = [eq(scheduledMessages.companyId, actor.companyId)];
    if (q.contactId) conditions.push(eq(scheduledMessages.contactId, q.contactId));
    if (q.searchParam) {
      const pattern = containsPattern(q.searchParam);
      conditions.push(
        or(
          sql`${foldColumn(scheduledMessages.body)} like ${pattern}`,
          inArray(
            scheduledMessages.contactId,
            this.db
              .select({ id: contacts.id })
              .from(contacts)
              .where(and(eq(contacts.companyId, actor.companyId), sql`${foldColumn(contacts.name)} like ${pattern}`)),
          ),
        )!,
      );
    }
    const rows = await this.db
      .select()
      .from(scheduledMessages)
      .where(and(...conditions))
      .orderBy(desc(scheduledMessages.createdAt), desc(scheduledMessages.id))
      .limit(PAGE_SIZE + 1)
      .offset((q.pageNumber - 1) * PAGE_SIZE);
    return { schedules: await presentSchedules(this.db, actor.companyId, rows.slice(0, PAGE_SIZE)), hasMore: rows.length > PAGE_SIZE };
  }

  private async findScoped(actor: Actor, id: number, tx?: Tx) {
    const [row] = await (tx ?? this.db)
      .select()
      .from(scheduledMessages)
      .where(and(eq(scheduledMessages.id, id), eq(scheduledMessages.companyId, actor.companyId)))
      .limit(1);
    if (!row) throw notFound("ERR_NO_SCHEDULE_FOUND");
    return row;
  }

  async show(actor: Actor, id: number): Promise<ScheduleDTO> {
    await this.findScoped(actor, id);
    return (await presentScheduleById(this.db, actor.companyId, id))!;
  }

  private async assertContact(tx: Tx, companyId: number, contactId: number): Promise<void> {
    const [c] = await tx
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)))
      .limit(1);
    if (!c) throw notFound("ERR_NO_CONTACT_FOUND");
  }

  /** The ticket a schedule is made from: the company's, visible to the actor, of the same contact. */
  private async connectionOfTicket(tx: Tx, actor: Actor, ticketId: number, contactId: number): Promise<number | null> {
    const [t] = await tx
      .select({
        contactId: tickets.contactId,
        connectionId: tickets.connectionId,
        userId: tickets.userId,
        queueId: tickets.queueId,
        status: tickets.status,
      })
      .from(tickets)
      .where(and(eq(tickets.companyId, actor.companyId), eq(tickets.id, ticketId)))
      .limit(1);
    if (!t) throw notFound("ERR_NO_TICKET_FOUND");
    if (!canSeeTicket(actor, t)) throw new AppError("ERR_ACCESS_DENIED", 403);
    if (t.contactId !== contactId) throw new AppError("ERR_VALIDATION", 400);
    return t.connectionId;
  }

  async create(actor: Actor, input: CreateInput): Promise<ScheduleDTO> {
    if (!schedulePolicy.create(actor)) throw forbidden();
    assertFuture(input.sendAt);
    const schedule = await this.db.transaction(async (tx) => {
      await this.assertContact(tx, actor.companyId, input.contactId);
      const connectionId = input.ticketId ? await this.connectionOfTicket(tx, actor, input.ticketId, input.contactId) : null;
      const [row] = await tx
        .insert(scheduledMessages)
        .values({
          companyId: actor.companyId,
          body: input.body,
          sendAt: input.sendAt,
          contactId: input.contactId,
          ticketId: input.ticketId ?? null,
          connectionId,
          userId: actor.id,
          status: "PENDENTE",
        })
        .returning();
      await this.sender.enqueue(actor.companyId, row!.id, row!.sendAt, tx);
      const dto = (await presentScheduleById(tx, actor.companyId, row!.id))!;
      await this.ctx.events.record(tx, { type: "schedules.created", companyId: actor.companyId, schedule: dto });
      return dto;
    });
    return schedule;
  }

  /**
   * Edits a schedule not yet sent. A failed one (ERRO) becomes PENDENTE again with the new time; a changed
   * time replaces the job (cancelled first: one waiting job per key).
   */
  async update(actor: Actor, id: number, input: UpdateInput): Promise<ScheduleDTO> {
    const current = await this.findScoped(actor, id);
    if (!schedulePolicy.modify(actor, current)) throw forbidden();
    if (current.sentAt || current.status === "ENVIADA") throw new AppError("ERR_SCHEDULE_ALREADY_SENT", 400);
    if (current.status === "AGENDADA") throw new AppError("ERR_SCHEDULE_SENDING", 409);
    const sendAt = input.sendAt ?? current.sendAt;
    const timeChanged = sendAt.getTime() !== current.sendAt.getTime();
    if (timeChanged || current.status === "ERRO") assertFuture(sendAt);
    const contactId = input.contactId ?? current.contactId;
    const reschedule = timeChanged || current.status === "ERRO";
    if (reschedule) await this.sender.cancel(id);
    return this.db.transaction(async (tx) => {
      if (contactId !== current.contactId) await this.assertContact(tx, actor.companyId, contactId);
      let connectionId = contactId !== current.contactId ? null : current.connectionId;
      let ticketId = contactId !== current.contactId ? null : current.ticketId;
      if (input.ticketId) {
        connectionId = await this.connectionOfTicket(tx, actor, input.ticketId, contactId);
        ticketId = input.ticketId;
      }
      const [row] = await tx
        .update(scheduledMessages)
        .set({
          body: input.body ?? current.body,
          contactId,
          sendAt,
          ticketId,
          connectionId: current.status === "ERRO" && !input.ticketId ? null : connectionId,
          status: "PENDENTE",
          lastError: null,
          lockedUntil: null,
          updatedAt: new Date(),
        })
        // Guarded: the job may have claimed it since it was read.
        .where(
          and(
            eq(scheduledMessages.id, id),
            eq(scheduledMessages.companyId, actor.companyId),
            inArray(scheduledMessages.status, ["PENDENTE", "ERRO"]),
            sql`${scheduledMessages.sentAt} is null`,
          ),
        )
        .returning();
      if (!row) throw new AppError("ERR_SCHEDULE_SENDING", 409);
      if (reschedule) await this.sender.enqueue(actor.companyId, id, sendAt, tx);
      const dto = (await presentScheduleById(tx, actor.companyId, id))!;
      await this.ctx.events.record(tx, { type: "schedules.updated", companyId: actor.companyId, schedule: dto });
      return dto;
    });
  }

  /** Sends a failed schedule again now (the dialog's retry). */
  async retry(actor: Actor, id: number): Promise<ScheduleDTO> {
    const current = await this.findScoped(actor, id);
    if (!schedulePolicy.modify(actor, current)) throw forbidden();
    if (current.sentAt || current.status === "ENVIADA") throw new AppError("ERR_SCHEDULE_ALREADY_SENT", 400);
    if (current.status !== "ERRO") return this.show(actor, id);
    await this.sender.cancel(id);
    return this.db.transaction(async (tx) => {
      const now = new Date();
      const [row] = await tx
        .update(scheduledMessages)
        .set({
          status: "PENDENTE",
          sendAt: now,
          lastError: null,
          lockedUntil: null,
          connectionId: current.ticketId ? current.connectionId : null,
          updatedAt: now,
        })
        .where(and(eq(scheduledMessages.id, id), eq(scheduledMessages.companyId, actor.companyId), eq(scheduledMessages.status, "ERRO")))
        .returning();
      if (!row) throw new AppError("ERR_SCHEDULE_SENDING", 409);
      await this.sender.enqueue(actor.companyId, id, now, tx);
      const dto = (await presentScheduleById(tx, actor.companyId, id))!;
      await this.ctx.events.record(tx, { type: "schedules.updated", companyId: actor.companyId, schedule: dto });
      return dto;
    });
  }

  async remove(actor: Actor, id: number): Promise<void> {
    const current = await this.findScoped(actor, id);
    if (!schedulePolicy.modify(actor, current)) throw forbidden();
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .delete(scheduledMessages)
        .where(and(eq(scheduledMessages.id, id), eq(scheduledMessages.companyId, actor.companyId), ne(scheduledMessages.status, "AGENDADA")))
        .returning({ id: scheduledMessages.id });
      if (!row) throw new AppError("ERR_SCHEDULE_SENDING", 409);
      await this.ctx.events.record(tx, { type: "schedules.deleted", companyId: actor.companyId, scheduleId: id });
    });
    // Its job would find nothing to send; cancelled so it does not wait around.
    await this.sender.cancel(id);
  }
}
