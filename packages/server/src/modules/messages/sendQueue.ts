/**
 * Nothing lost across a reconnect (issue 21, item 4). A reply sent while its connection is not CONNECTED
 * (an attendant's message, a retry, the bot's and other automatic messages) follows the company setting
 * `sendWhileDisconnected`:
 * - "queue" (default): the message stays pending (the bubble's clock) with `data_json.queued = "waiting"`, and
 *   is delivered once, in order, when the connection is CONNECTED again, by the durable job
 *   `messages.sendQueued` (one per connection, key `send-queue:{id}`, pg-boss "stately": at most one run at a
 *   time across all processes). The job runs anywhere; each send goes through `deliverStored`, so it happens on
 *   the connection's lease owner (sendRelay.ts). The rows are the queue: a restart loses nothing.
 * - "fail": the message is marked failed at once, with the bubble's retry action (the behaviour before).
 * Order: a message of a conversation that already has queued messages waits behind them, even when the
 * connection is back (it is queued and the job is asked to run). Once: the job marks a message "sending"
 * before it hands it over; a run that finds a "sending" message left by a run that died mid-send marks it
 * failed (retry) instead of sending it again — WhatsApp may already have it, as with stale sends.
 * Expiry: a reply still waiting SEND_QUEUE_MAX_AGE_MINUTES (default 24 h) after it was written is failed with
 * retry and the reason ERR_SEND_QUEUE_EXPIRED instead of reaching the customer days later out of context — by
 * the run that finds it at the head of the queue, and by a minute job (`messages.sendQueueExpiry`, one process)
 * for connections that stay down or that no process runs. The attendant decides whether it still makes sense.
 * A relay to the connection's owner that gets no answer queues the message the same way (sendRelay.ts).
 * Campaign and scheduled messages keep their own recovery (campaigns/dispatcher.ts, schedules/sender.ts).
 */
import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import type { ErrorCode, MessageDTO } from "@balcao/shared";
import type { AppContext } from "../../context";
import { connections, messages, settings, tickets } from "../../db/schema";
import type { StatusChange } from "../../channels/manager";
import { presentMessagesById } from "./presenter";
import { deliveryOutcome, type MessagesService } from "./service";
import { perContext } from "../../perContext";

export const SEND_WHILE_DISCONNECTED_SETTING = "sendWhileDisconnected";
export const SEND_QUEUE_JOB = "messages.sendQueued";
export const SEND_QUEUE_EXPIRY_JOB = "messages.sendQueueExpiry";
/** The failure reason of a queued reply that waited too long (an error-catalogue code: the bubble translates it). */
export const SEND_QUEUE_EXPIRED = "ERR_SEND_QUEUE_EXPIRED" satisfies ErrorCode;
export const sendQueueKey = (connectionId: number) => `send-queue:${connectionId}`;

export interface SendQueuePayload {
  companyId: number;
  connectionId: number;
}

interface QueuedData {
  queued?: "waiting" | "sending";
  voice?: boolean;
}

/** How often the owner looks for connections that are back with messages still queued. */
const SWEEP_MS = 60_000;

/** Messages of a run, at most: a longer queue continues in the next run. */
const BATCH = 200;

/** Expired replies failed per expiry run, at most (the next minute takes the rest). */
const EXPIRY_BATCH = 500;

/** The company's choice for sends while a connection is down: "queue" unless set to "fail". */
export async function sendWhileDisconnected(ctx: AppContext, companyId: number): Promise<"queue" | "fail"> {
  const [row] = await ctx.database.db
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.companyId, companyId), eq(settings.key, SEND_WHILE_DISCONNECTED_SETTING)))
    .limit(1);
  return row?.value === "fail" ? "fail" : "queue";
}

/** Campaign and scheduled messages recover on their own; every other outgoing message may wait. */
function waits(m: { fromMe: boolean; idempotencyKey: string | null; connectionId: number | null }): boolean {
  if (!m.fromMe || m.connectionId === null) return false;
  const key = m.idempotencyKey ?? "";
  return !key.startsWith("campaign:") && !key.startsWith("schedule:");
}

const queuedFlag = sql`(${messages.dataJson}->>'queued')`;

export class SendQueue {
  /** The queue's clock for expiry (tests set it; the rows' created_at are the database's). */
  clock: () => Date = () => new Date();

  constructor(private readonly ctx: AppContext) {}

  /** Replies written before this have waited too long. */
  private expiredBefore(): Date {
    return new Date(this.clock().getTime() - this.ctx.config.sendQueueMaxAgeMs);
  }

  private get db() {
    return this.ctx.database.db;
  }

  /**
   * Before a send: when an earlier message of the same conversation still waits for the connection, this
   * one waits behind it (order). Returns the queued message, or null to send now.
   */
  async holdBehind(companyId: number, messageId: number, voice: boolean): Promise<MessageDTO | null> {
    const [m] = await this.db
      .select({
        fromMe: messages.fromMe,
        idempotencyKey: messages.idempotencyKey,
        connectionId: messages.connectionId,
        contactId: messages.contactId,
        status: messages.status,
      })
      .from(messages)
      .where(and(eq(messages.companyId, companyId), eq(messages.id, messageId)));
    if (!m || m.status !== "pending" || m.contactId === null || !waits(m)) return null;
    const [earlier] = await this.db
      .select({ id: messages.id })
      .from(messages)
      .where(
        and(
          eq(messages.companyId, companyId),
          eq(messages.contactId, m.contactId),
          eq(messages.connectionId, m.connectionId!),
          eq(messages.status, "pending"),
          sql`${queuedFlag} is not null`,
          lt(messages.id, messageId),
        ),
      )
      .limit(1);
    if (!earlier) return null;
    return this.hold(companyId, messageId, voice);
  }

  /**
   * A send found the connection down (NOT_CONNECTED): with "queue", the message waits (pending, queued) and
   * the result is returned; with "fail" (or a message that does not wait) null, and the caller fails it.
   */
  async holdIfQueued(companyId: number, messageId: number, voice: boolean): Promise<MessageDTO | null> {
    const [m] = await this.db
      .select({ fromMe: messages.fromMe, idempotencyKey: messages.idempotencyKey, connectionId: messages.connectionId })
      .from(messages)
      .where(and(eq(messages.companyId, companyId), eq(messages.id, messageId)));
    if (!m || !waits(m) || (await sendWhileDisconnected(this.ctx, companyId)) !== "queue") return null;
    return this.hold(companyId, messageId, voice);
  }

  /** Marks a pending message as waiting for its connection; asks for a run when the connection is up already. */
  private async hold(companyId: number, messageId: number, voice: boolean): Promise<MessageDTO | null> {
    const data: QueuedData = { queued: "waiting", ...(voice && { voice: true }) };
    const [row] = await this.db
      .update(messages)
      .set({ dataJson: sql`coalesce(${messages.dataJson}, '{}'::jsonb) || ${JSON.stringify(data)}::jsonb`, updatedAt: new Date() })
      .where(and(eq(messages.companyId, companyId), eq(messages.id, messageId), eq(messages.status, "pending")))
      .returning({ connectionId: messages.connectionId, ticketId: messages.ticketId });
    if (!row) return null;
    // Back already (the reconnect's run may have finished before this message was queued): run again soon.
    const [c] = await this.db
      .select({ status: connections.status })
      .from(connections)
      .where(and(eq(connections.companyId, companyId), eq(connections.id, row.connectionId!)));
    if (c?.status === "CONNECTED") await this.request(companyId, row.connectionId!, new Date(Date.now() + 1000));
    const [dto] = await presentMessagesById(this.db, [messageId]);
    await this.publish(companyId, row.ticketId, dto!);
    return dto!;
  }

  private async publish(companyId: number, ticketId: number, message: MessageDTO): Promise<void> {
    const [t] = await this.db
      .select({ userId: tickets.userId, queueId: tickets.queueId, status: tickets.status })
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));
    if (t) this.ctx.events.publish({ type: "messages.updated", companyId, message, scope: t });
  }

  /** Asks for a run of the connection's queue (a no-op while one is already waiting). */
  async request(companyId: number, connectionId: number, runAt?: Date): Promise<void> {
    const payload: SendQueuePayload = { companyId, connectionId };
    await this.ctx.jobs.enqueue(SEND_QUEUE_JOB, payload, { key: sendQueueKey(connectionId), ...(runAt && { runAt }) });
  }

  /** Whether the connection has queued messages (waiting, or claimed by a run that may have died). */
  async hasQueued(companyId: number, connectionId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: messages.id })
      .from(messages)
      .where(
        and(
          eq(messages.companyId, companyId),
          eq(messages.connectionId, connectionId),
          eq(messages.status, "pending"),
          sql`${queuedFlag} in ('waiting', 'sending')`,
        ),
      )
      .limit(1);
    return !!row;
  }

  /** The job: delivers the connection's queued messages one by one, oldest first. */
  async flush(service: MessagesService, { companyId, connectionId }: SendQueuePayload): Promise<void> {
    for (let i = 0; i < BATCH; i++) {
      const [head] = await this.db
        .select({ id: messages.id, dataJson: messages.dataJson, createdAt: messages.createdAt })
        .from(messages)
        .where(
          and(
            eq(messages.companyId, companyId),
            eq(messages.connectionId, connectionId),
            eq(messages.status, "pending"),
            sql`${queuedFlag} in ('waiting', 'sending')`,
          ),
        )
        .orderBy(asc(messages.id))
        .limit(1);
      if (!head) return;
      const data = (head.dataJson ?? {}) as QueuedData;
      if (data.queued === "sending") {
        // A run died while handing this one over: WhatsApp may have it. Failed, with retry; never twice.
        if (await service.failPending(companyId, head.id, { queued: "sending" }))
          this.ctx.log.warn({ companyId, connectionId, messageId: head.id }, "queued send interrupted: marked failed");
        continue;
      }
      if (head.createdAt < this.expiredBefore()) {
        await this.expire(service, companyId, head.id);
        continue;
      }
      const [claimed] = await this.db
        .update(messages)
        .set({ dataJson: sql`jsonb_set(${messages.dataJson}, '{queued}', '"sending"')` })
        .where(and(eq(messages.companyId, companyId), eq(messages.id, head.id), eq(messages.status, "pending"), sql`${queuedFlag} = 'waiting'`))
        .returning({ id: messages.id });
      if (!claimed) continue;
      const result = await service.deliverStored(companyId, head.id, data.voice ?? false);
      // Still pending: the connection went down again or its owner did not answer (the send put it back to
      // "waiting"); the next CONNECTED, or the run the queueing asked for, carries on.
      if (deliveryOutcome(result).state === "pending") return;
      await this.db
        .update(messages)
        .set({ dataJson: sql`${messages.dataJson} - 'queued' - 'voice'` })
        .where(and(eq(messages.companyId, companyId), eq(messages.id, head.id)));
    }
    await this.request(companyId, connectionId);
  }

  /** A reply that waited too long: failed with retry and the reason, unless a run has just claimed it. */
  private async expire(service: MessagesService, companyId: number, messageId: number): Promise<boolean> {
    const failed = await service.failPending(companyId, messageId, { reason: SEND_QUEUE_EXPIRED, queued: "waiting" });
    if (failed) this.ctx.log.warn({ companyId, messageId }, "queued reply waited too long: marked failed");
    return !!failed;
  }

  /**
   * The minute job (one process): replies of every company still waiting past the limit, whether or not a
   * process runs their connection, are failed with retry. Returns how many.
   */
  async expireAll(service: MessagesService): Promise<number> {
    const expired = await this.db
      .select({ id: messages.id, companyId: messages.companyId })
      .from(messages)
      .where(and(sql`${queuedFlag} = 'waiting'`, eq(messages.status, "pending"), lt(messages.createdAt, this.expiredBefore())))
      .orderBy(asc(messages.id))
      .limit(EXPIRY_BATCH);
    let n = 0;
    for (const m of expired) if (await this.expire(service, m.companyId, m.id)) n++;
    return n;
  }

  /** On the owner: every connection of this process that is CONNECTED with queued messages gets a run. */
  async sweep(): Promise<void> {
    const local = this.ctx.channels.localConnectionIds();
    if (local.length === 0) return;
    const up = await this.db
      .select({ companyId: connections.companyId, connectionId: connections.id })
      .from(connections)
      .where(and(inArray(connections.id, local), eq(connections.status, "CONNECTED")));
    for (const c of up) if (await this.hasQueued(c.companyId, c.connectionId)) await this.request(c.companyId, c.connectionId);
  }
}

export const sendQueueOf = perContext((ctx) => new SendQueue(ctx));

/**
 * Module start: the job, a run when a connection comes back to CONNECTED, and a sweep on the owner (every
 * minute) that catches what a status change missed (a process that died between the status write and the run).
 */
export function startSendQueue(ctx: AppContext, service: MessagesService): () => void {
  const queue = sendQueueOf(ctx);
  ctx.jobs.register<SendQueuePayload>(SEND_QUEUE_JOB, (job) => queue.flush(service, job.payload), { retryLimit: 5 });
  ctx.jobs.every(SEND_QUEUE_EXPIRY_JOB, "* * * * *", async () => void (await queue.expireAll(service)));
  const stopStatus = ctx.channels.onStatus(async (change: StatusChange) => {
    if (change.status !== "CONNECTED" || change.previous === "CONNECTED") return;
    if (await queue.hasQueued(change.companyId, change.connectionId)) await queue.request(change.companyId, change.connectionId);
  });
  const every = SWEEP_MS;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    queue
      .sweep()
      .catch((err) => ctx.log.error({ err }, "send queue sweep failed"))
      .finally(() => (running = false));
  }, every);
  timer.unref?.();
  return () => {
    stopStatus();
    clearInterval(timer);
  };
}
