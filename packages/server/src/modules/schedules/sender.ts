/**
 * Sending scheduled messages: exactly once, on time, through the process that runs the connection.
 *
 * 1. Every schedule has one durable job (`schedules.send`, key `schedule:{id}`, due at sendAt) written in the
 *    transaction that creates or reschedules it. Whichever process runs the job claims the row with a guarded
 *    UPDATE (PENDENTE → AGENDADA, only when still unsent and due) and picks the connection: the schedule's
 *    (set from the ticket it was created on), else the contact's latest conversation's, else the company
 *    default. A second run of the job, on any process, finds nothing to claim.
 * 2. A WhatsApp session lives in exactly one process (the connection's lease, channels/manager.ts), so the
 *    send happens there: at once when the job ran in that process, otherwise within a second, when the
 *    owner's poll (only processes running sessions poll) sees the AGENDADA row of one of its connections.
 * 3. The owner locks the row (`locked_until`), opens or reuses the contact's ticket on that connection and
 *    stores the message (pending, idempotency key `schedule:{id}:{attempt}`) in one transaction, then hands it
 *    to WhatsApp and records ENVIADA + sentAt, or ERRO + the reason (an error-catalogue code).
 * 4. A process killed mid-send leaves the row locked; when the lock expires the owner (or the minute sweep
 *    when nobody runs the connection) looks for that attempt's message: sent → ENVIADA; stored but not known
 *    to be sent → ERRO ERR_SCHEDULE_INTERRUPTED (never a second copy to the customer); absent → send now.
 *    The sweep also re-enqueues a PENDENTE schedule whose job was lost, and fails AGENDADA rows whose
 *    connection no process runs.
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { ErrorCode } from "@balcao/shared";
import type { AppContext } from "../../context";
import type { Tx } from "../../db/client";
import { connectionLeases, connections, messages, scheduledMessages, tickets, users } from "../../db/schema";
import { renderTemplate } from "../chatbot/templates";
import { loadTicketContext, variablesOf } from "../chatbot/context";
import { previewOf } from "../messages/labels";
import { presentMessagesById } from "../messages/presenter";
import { deliveryOutcome, MessagesService } from "../messages/service";
import { openOrReuseTicket } from "../tickets/outbound";
import { presentTicketById } from "../tickets/presenter";
import { presentScheduleById } from "./presenter";
import { perContext } from "../../perContext";

export const SCHEDULE_SEND_JOB = "schedules.send";
export const SCHEDULE_SWEEP_JOB = "schedules.sweep";
export const scheduleJobKey = (id: number) => `schedule:${id}`;
export const scheduleMessageKey = (id: number, attempt: number) => `schedule:${id}:${attempt}`;

/** How often a process running WhatsApp sessions looks for due schedules of its connections. */
const OWNER_POLL_MS = 1_000;
/** A send that has not finished after this long is considered interrupted (its process died). */
const SEND_LOCK_SECONDS = 120;
/** A PENDENTE schedule this late has lost its job; an unlocked AGENDADA one this old has no live sender. */
const LATE_SECONDS = 30;

export interface ScheduleJobPayload {
  companyId: number;
  scheduleId: number;
}

type ScheduleRow = typeof scheduledMessages.$inferSelect;

export class ScheduleSender {
  private readonly messages: MessagesService;
  private polling?: Promise<void>;

  constructor(private readonly ctx: AppContext) {
    this.messages = new MessagesService(ctx);
  }

  private get db() {
    return this.ctx.database.db;
  }

  /** Queues the schedule's job (in `tx` when given: no job for a rolled-back change). */
  enqueue(companyId: number, scheduleId: number, sendAt: Date, tx?: Tx): Promise<string | null> {
    return this.ctx.jobs.enqueue(SCHEDULE_SEND_JOB, { companyId, scheduleId } satisfies ScheduleJobPayload, {
      runAt: sendAt,
      key: scheduleJobKey(scheduleId),
      ...(tx && { tx }),
    });
  }

  cancel(scheduleId: number): Promise<boolean> {
    return this.ctx.jobs.cancel(SCHEDULE_SEND_JOB, scheduleJobKey(scheduleId));
  }

  /** The job: claims a due schedule and sends it here, or leaves it to the connection's owner. */
  async due({ companyId, scheduleId }: ScheduleJobPayload): Promise<void> {
    const claimed = await this.db.transaction(async (tx) => {
      const [s] = await tx
        .select()
        .from(scheduledMessages)
        .where(
          and(
            eq(scheduledMessages.companyId, companyId),
            eq(scheduledMessages.id, scheduleId),
            eq(scheduledMessages.status, "PENDENTE"),
            isNull(scheduledMessages.sentAt),
            // Rescheduled later since this job was queued: the new job sends it.
            lte(scheduledMessages.sendAt, sql`now() + interval '2 seconds'`),
          ),
        )
        .for("update")
        .limit(1);
      if (!s) return null;
      const connectionId = await this.connectionFor(tx, s);
      if (connectionId === null) {
        await this.settle(tx, s.id, companyId, { error: "ERR_NO_DEF_WAPP_FOUND" });
        return null;
      }
      const [row] = await tx
        .update(scheduledMessages)
        .set({ status: "AGENDADA", connectionId, lockedUntil: null, updatedAt: new Date() })
        .where(
          and(
            eq(scheduledMessages.companyId, companyId),
            eq(scheduledMessages.id, s.id),
            eq(scheduledMessages.status, "PENDENTE"),
            isNull(scheduledMessages.sentAt),
          ),
        )
        .returning();
      if (!row) return null;
      await this.recordUpdated(tx, companyId, row.id);
      return row;
    });
    if (!claimed) return;
    const connectionId = claimed.connectionId!;
    if (this.ctx.channels.isLocal(connectionId)) await this.dispatch(companyId, claimed.id);
    else if (!(await this.hasLiveOwner(companyId, connectionId)) && !(await this.shouldRun(companyId, connectionId)))
      await this.failWaiting(companyId, claimed.id, "ERR_WAPP_NOT_INITIALIZED");
    // Otherwise the process that runs the connection picks it up on its next poll; one whose owner just died is
    // taken over within the lease time, and the sweep fails the row if nobody has it 30 s later.
  }

  /** A connection that should be running somewhere (not disconnected, not waiting for a QR scan). */
  private async shouldRun(companyId: number, connectionId: number): Promise<boolean> {
    const [c] = await this.db
      .select({ status: connections.status })
      .from(connections)
      .where(and(eq(connections.companyId, companyId), eq(connections.id, connectionId)))
      .limit(1);
    return !!c && c.status !== "DISCONNECTED" && c.status !== "qrcode";
  }

  /** The schedule's connection, else the contact's latest conversation's, else the default, else any. */
  private async connectionFor(tx: Tx, s: ScheduleRow): Promise<number | null> {
    if (s.connectionId !== null) return s.connectionId;
    const [latest] = await tx
      .select({ id: tickets.connectionId })
      .from(tickets)
      .where(and(eq(tickets.companyId, s.companyId), eq(tickets.contactId, s.contactId), isNotNull(tickets.connectionId)))
      .orderBy(desc(tickets.updatedAt), desc(tickets.id))
      .limit(1);
    if (latest?.id) return latest.id;
    const [fallback] = await tx
      .select({ id: connections.id })
      .from(connections)
      .where(eq(connections.companyId, s.companyId))
      .orderBy(desc(connections.isDefault), asc(connections.id))
      .limit(1);
    return fallback?.id ?? null;
  }

  private async hasLiveOwner(companyId: number, connectionId: number): Promise<boolean> {
    const [lease] = await this.db
      .select({ id: connectionLeases.connectionId })
      .from(connectionLeases)
      .where(
        and(eq(connectionLeases.companyId, companyId), eq(connectionLeases.connectionId, connectionId), sql`${connectionLeases.expiresAt} > now()`),
      )
      .limit(1);
    return !!lease;
  }

  /** The owner's poll: due schedules of the connections this process runs. */
  poll(): Promise<void> {
    const local = this.ctx.channels.localConnectionIds();
    if (local.length === 0 || this.polling) return this.polling ?? Promise.resolve();
    this.polling = (async () => {
      const rows = await this.db
        .select({ id: scheduledMessages.id, companyId: scheduledMessages.companyId })
        .from(scheduledMessages)
        .where(
          and(
            eq(scheduledMessages.status, "AGENDADA"),
            inArray(scheduledMessages.connectionId, local),
            // Each schedule is its connection's company's (every process runs sessions of many companies).
            inArray(
              scheduledMessages.companyId,
              this.db.select({ id: connections.companyId }).from(connections).where(inArray(connections.id, local)),
            ),
            or(isNull(scheduledMessages.lockedUntil), lt(scheduledMessages.lockedUntil, sql`now()`)),
          ),
        )
        .orderBy(asc(scheduledMessages.sendAt))
        .limit(50);
      for (const r of rows) await this.dispatch(r.companyId, r.id);
    })()
      .catch((err) => this.ctx.log.error({ err }, "schedules: poll failed"))
      .finally(() => {
        this.polling = undefined;
      });
    return this.polling;
  }

  /**
   * Sends one AGENDADA schedule whose connection runs in this process. The lock, the ticket, the stored
   * message and the attempt number are one transaction; the WhatsApp send comes after it.
   */
  async dispatch(companyId: number, scheduleId: number): Promise<void> {
    const prepared = await this.db.transaction(async (tx) => {
      const [s] = await tx
        .select()
        .from(scheduledMessages)
        .where(
          and(
            eq(scheduledMessages.companyId, companyId),
            eq(scheduledMessages.id, scheduleId),
            eq(scheduledMessages.status, "AGENDADA"),
            or(isNull(scheduledMessages.lockedUntil), lt(scheduledMessages.lockedUntil, sql`now()`)),
          ),
        )
        .for("update", { skipLocked: true })
        .limit(1);
      if (!s || s.connectionId === null || !this.ctx.channels.isLocal(s.connectionId)) return null;
      if (await this.settleInterrupted(tx, s)) return null;
      const attempt = s.attempts + 1;
      const ticketId = await this.ticketFor(tx, s, s.connectionId);
      const context = await loadTicketContext(tx, companyId, ticketId);
      const body = context ? renderTemplate(s.body, variablesOf(context, new Date())) : s.body;
      const [message] = await tx
        .insert(messages)
        .values({
          companyId,
          ticketId,
          contactId: s.contactId,
          connectionId: s.connectionId,
          body,
          fromMe: true,
          read: true,
          mediaType: "chat",
          ack: 0,
          status: "pending",
          idempotencyKey: scheduleMessageKey(s.id, attempt),
        })
        .returning({ id: messages.id });
      await tx
        .update(tickets)
        .set({ lastMessage: previewOf("chat", body, null), lastMessageAt: new Date(), updatedAt: new Date() })
        .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));
      await tx
        .update(scheduledMessages)
        .set({ attempts: attempt, ticketId, lockedUntil: sql`now() + (${SEND_LOCK_SECONDS}::int * interval '1 second')`, updatedAt: new Date() })
        .where(and(eq(scheduledMessages.companyId, companyId), eq(scheduledMessages.id, s.id)));
      const ticket = (await presentTicketById(tx, companyId, ticketId))!;
      const [dto] = await presentMessagesById(tx, [message!.id]);
      await this.ctx.events.record(
        tx,
        { type: "messages.created", companyId, message: dto!, ticket },
        { type: "tickets.updated", companyId, ticket },
      );
      return { messageId: message!.id, attempt };
    });
    if (!prepared) return;
    const delivered = deliveryOutcome(await this.messages.deliverStored(companyId, prepared.messageId));
    await this.db.transaction(async (tx) => {
      const outcome = delivered.state === "failed" ? { error: delivered.code } : { sentAt: new Date() };
      await this.settle(tx, scheduleId, companyId, outcome, { status: "AGENDADA", attempt: prepared.attempt });
    });
  }

  /**
   * A previous send of this row did not finish (its lock expired): decides from that attempt's message
   * instead of sending again. Returns true when the row is settled.
   */
  private async settleInterrupted(tx: Tx, s: ScheduleRow): Promise<boolean> {
    if (s.lockedUntil === null || s.attempts === 0) return false;
    const [m] = await tx
      .select({ status: messages.status, createdAt: messages.createdAt, providerMessageId: messages.providerMessageId })
      .from(messages)
      .where(and(eq(messages.companyId, s.companyId), eq(messages.idempotencyKey, scheduleMessageKey(s.id, s.attempts))))
      .limit(1);
    if (!m) return false;
    if (m.status === "sent" || m.providerMessageId) await this.settle(tx, s.id, s.companyId, { sentAt: m.createdAt });
    else await this.settle(tx, s.id, s.companyId, { error: m.status === "failed" ? "ERR_SENDING_WAPP_MSG" : "ERR_SCHEDULE_INTERRUPTED" });
    return true;
  }

  /** The contact's live ticket on the connection, else a new one opened by the schedule's author (tickets/outbound.ts). */
  private async ticketFor(tx: Tx, s: ScheduleRow, connectionId: number): Promise<number> {
    const [author] = s.userId
      ? await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.id, s.userId), eq(users.companyId, s.companyId)))
          .limit(1)
      : [];
    // Like an attendant starting a conversation: open and theirs; with no author left it waits in line.
    const ticket = await openOrReuseTicket(tx, { companyId: s.companyId, contactId: s.contactId, connectionId, openerId: author?.id ?? null });
    return ticket.id;
  }

  /** ENVIADA with sentAt, or ERRO with the reason; guarded by the state the caller saw. */
  private async settle(
    tx: Tx,
    scheduleId: number,
    companyId: number,
    outcome: { sentAt: Date } | { error: ErrorCode },
    guard: { status?: string; attempt?: number } = {},
  ): Promise<void> {
    const conditions = [eq(scheduledMessages.companyId, companyId), eq(scheduledMessages.id, scheduleId), isNull(scheduledMessages.sentAt)];
    if (guard.status) conditions.push(eq(scheduledMessages.status, guard.status));
    if (guard.attempt !== undefined) conditions.push(eq(scheduledMessages.attempts, guard.attempt));
    const [row] = await tx
      .update(scheduledMessages)
      .set(
        "sentAt" in outcome
          ? { status: "ENVIADA", sentAt: outcome.sentAt, lastError: null, lockedUntil: null, updatedAt: new Date() }
          : { status: "ERRO", lastError: outcome.error, lockedUntil: null, updatedAt: new Date() },
      )
      .where(and(...conditions))
      .returning({ id: scheduledMessages.id });
    if (row) await this.recordUpdated(tx, companyId, scheduleId);
  }

  private async failWaiting(companyId: number, scheduleId: number, error: ErrorCode): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [s] = await tx
        .select({ id: scheduledMessages.id })
        .from(scheduledMessages)
        .where(
          and(
            eq(scheduledMessages.companyId, companyId),
            eq(scheduledMessages.id, scheduleId),
            eq(scheduledMessages.status, "AGENDADA"),
            isNull(scheduledMessages.lockedUntil),
          ),
        )
        .for("update", { skipLocked: true })
        .limit(1);
      if (s) await this.settle(tx, scheduleId, companyId, { error }, { status: "AGENDADA" });
    });
  }

  private async recordUpdated(tx: Tx, companyId: number, scheduleId: number): Promise<void> {
    const schedule = await presentScheduleById(tx, companyId, scheduleId);
    if (schedule) await this.ctx.events.record(tx, { type: "schedules.updated", companyId, schedule });
  }

  /**
   * Once a minute on one process: re-enqueues PENDENTE schedules whose job was lost (a crash between an
   * edit's cancel and its new job), and settles AGENDADA rows that no process is sending. Its two scans read
   * every company's rows on purpose (listed in test/tenantGuard.ts); each row is then handled in its company.
   */
  async sweep(): Promise<void> {
    const late = await this.db
      .select({ id: scheduledMessages.id, companyId: scheduledMessages.companyId, sendAt: scheduledMessages.sendAt })
      .from(scheduledMessages)
      .where(
        and(
          eq(scheduledMessages.status, "PENDENTE"),
          isNull(scheduledMessages.sentAt),
          lt(scheduledMessages.sendAt, sql`now() - (${LATE_SECONDS}::int * interval '1 second')`),
        ),
      )
      .limit(500);
    for (const s of late) await this.enqueue(s.companyId, s.id, new Date());

    const stuck = await this.db
      .select({ id: scheduledMessages.id, companyId: scheduledMessages.companyId, connectionId: scheduledMessages.connectionId })
      .from(scheduledMessages)
      .where(
        and(
          eq(scheduledMessages.status, "AGENDADA"),
          or(isNull(scheduledMessages.lockedUntil), lt(scheduledMessages.lockedUntil, sql`now()`)),
          lt(scheduledMessages.updatedAt, sql`now() - (${LATE_SECONDS}::int * interval '1 second')`),
        ),
      )
      .limit(500);
    for (const s of stuck) {
      if (s.connectionId !== null && (await this.hasLiveOwner(s.companyId, s.connectionId))) continue;
      await this.db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(scheduledMessages)
          .where(and(eq(scheduledMessages.companyId, s.companyId), eq(scheduledMessages.id, s.id), eq(scheduledMessages.status, "AGENDADA")))
          .for("update", { skipLocked: true })
          .limit(1);
        if (!row || (row.lockedUntil !== null && row.lockedUntil > new Date())) return;
        if (await this.settleInterrupted(tx, row)) return;
        await this.settle(tx, row.id, row.companyId, { error: "ERR_WAPP_NOT_INITIALIZED" }, { status: "AGENDADA" });
      });
    }
  }
}

/** One sender per app context, shared by the routes and the background work. */
export const senderFor = perContext((ctx) => new ScheduleSender(ctx));

/** The module's background work: the send job, the minute sweep, and the owner's poll. */
export function startScheduleSender(ctx: AppContext): () => void {
  const sender = senderFor(ctx);
  ctx.jobs.register<ScheduleJobPayload>(SCHEDULE_SEND_JOB, (job) => sender.due(job.payload), {
    retryLimit: 5,
    retryDelaySec: 1,
    expireInSeconds: 60,
  });
  ctx.jobs.every(SCHEDULE_SWEEP_JOB, "* * * * *", () => sender.sweep());
  const timer = setInterval(() => void sender.poll(), OWNER_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
