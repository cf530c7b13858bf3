/**
 * Campaign dispatch: one message per contact, paced, through the durable job runner and the messages service.
 *
 * Jobs (jobs/runner.ts):
 * - `campaigns.start` (key `campaign:{id}`, due at scheduledAt, written in the transaction that schedules the
 *   campaign): PROGRAMADA → EM_ANDAMENTO and one shipping row per list item (`INSERT … SELECT … ON CONFLICT DO
 *   NOTHING` on the unique (campaign, item) index), in one transaction; then a tick.
 * - `campaigns.tick` (no key): runs the campaign for up to RUN_BUDGET_MS, then queues its successor. A tick first
 *   takes the campaign's run lease (`run_owner`, `run_lease_until`, renewed before every wait and once half of it
 *   is gone), so one process at a time paces a campaign; a tick that finds the lease held returns at once.
 * - `campaigns.sweep` (every minute, one process): starts PROGRAMADA campaigns whose job was lost and ticks
 *   running campaigns whose lease lapsed (their process died).
 *
 * Exactly one message per contact. Each shipping row moves through guarded state transitions:
 *   pending ──claim──▶ requesting ──sent──▶ confirmation ──reply──▶ confirmed ──claim──▶ sending ──sent──▶ delivered
 *   pending ──claim (no confirmation)──────────────────────────────────────────────▶ sending ──sent──▶ delivered
 * The claim is one transaction (`FOR UPDATE SKIP LOCKED`, then the state change, a send lock `locked_until`,
 * and the message stored as pending with the idempotency key `campaign:{c}:{row}:{kind}:{attempt}`), committed
 * before WhatsApp is called; the outcome (deliveredAt / confirmationRequestedAt) is recorded after. Two
 * processes can never claim the same row (row lock + state guard), so concurrent runners cannot double-send.
 * A process killed after the claim leaves the row in `requesting`/`sending`; once its lock expires the next
 * runner reads the stored message instead of blindly sending again:
 * - the message is sent (status sent or a provider id): the row is settled as sent, nothing is sent again;
 * - it failed: a new attempt is made;
 * - it is still pending: it is handed to WhatsApp again (at least once). The only window where this can
 *   duplicate is between WhatsApp accepting the message and the messages service's next UPDATE recording the
 *   provider id (milliseconds); a crash anywhere else yields exactly one message. We chose at-least-once for
 *   that window because losing a contact silently (at-most-once) is invisible, a duplicate is not.
 *
 * A connection that is not CONNECTED (or whose owner process is gone) pauses the campaign with
 * `pause_reason = ERR_WAPP_NOT_INITIALIZED` instead of failing every contact; a `connections.session` event
 * with CONNECTED ticks it at once (and it re-checks every `pauseRecheckMs` anyway), clearing pause_reason.
 *
 * Pacing: after each message (confirmation or real) the next waits `messageInterval` seconds, and after every
 * `longerIntervalAfter`-th message `greaterInterval` seconds instead (when longer). The waiting is done with an
 * injectable clock (tests use a fake one) and the due time is kept in `campaigns.next_send_at`, so a new job
 * run or another process keeps the pace.
 */
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { campaignSettingsFromRows, renderCampaignMessage, type CampaignSettings, type CampaignVariable, type ErrorCode } from "@balcao/shared";
import type { AppContext } from "../../context";
import type { Tx } from "../../db/client";
import { statement } from "../../db/statement";
import { campaignSettings, campaignShippings, campaigns, connectionLeases, connections, mediaFiles, messages, tickets } from "../../db/schema";
import { DELIVERY_FAILURE_CODES, deliveryOutcome, type DeliveryFailure } from "../messages/service";
import { resolveInboundContact } from "../contacts/identity";
import { previewOf } from "../messages/labels";
import { presentMessagesById } from "../messages/presenter";
import { mediaKindOf } from "../media/sniff";
import { presentTicketById } from "../tickets/presenter";
import { campaignCounts, presentCampaignById } from "./presenter";
import { perContext } from "../../perContext";
import { BACKGROUND_PACE_MS } from "../../events/bus";
import { readCache } from "../../cache/readCache";

export const CAMPAIGN_START_JOB = "campaigns.start";
export const CAMPAIGN_TICK_JOB = "campaigns.tick";
export const CAMPAIGN_SWEEP_JOB = "campaigns.sweep";
export const campaignJobKey = (id: number) => `campaign:${id}`;
export const campaignMessageKey = (campaignId: number, shippingId: number, kind: SendKind, attempt: number) =>
  `campaign:${campaignId}:${shippingId}:${kind}:${attempt}`;

export interface CampaignJobPayload {
  companyId: number;
  campaignId: number;
}

type CampaignRow = typeof campaigns.$inferSelect;
type ShippingRow = typeof campaignShippings.$inferSelect;
type SendKind = "confirmation" | "message";

/** Time as the dispatcher sees it: tests pass a fake clock whose sleep advances it without waiting. */
export interface Clock {
  now(): Date;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const timer = setTimeout(resolve, ms);
      signal.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    }),
};

/** Thrown by a test's fault hook: the dispatcher then behaves like a process that died at that point. */
export class SimulatedCrash extends Error {}

export interface DispatcherOptions {
  clock: Clock;
  /** How long a run lease outlives the runner's planned wait (a dead runner is replaced after it). */
  leaseMs: number;
  /** How long a claimed row is held before another runner may decide its fate (longer than any send). */
  sendLockMs: number;
  /** A tick returns (queueing its successor) after this much wall time, well under the job's expiry. */
  runBudgetMs: number;
  /** A paused campaign checks its connection again after this long (a reconnection resumes it at once). */
  pauseRecheckMs: number;
  /** With only confirmations outstanding, a tick looks again after this long… */
  confirmationRecheckMs: number;
  /** …and the campaign finishes once the last request is this old without a reply. */
  confirmationWindowMs: number;
  /**
   * Progress counters are recounted over every shipping row, so a campaign with more valid contacts than
   * `progressRecountRows` is recounted at most once per `progressIntervalMs` while it sends; the last state
   * follows before the runner waits longer than that or stops. Smaller campaigns recount after every send.
   */
  progressRecountRows: number;
  progressIntervalMs: number;
  /** Test hooks around the send: throw SimulatedCrash to play a process killed there. */
  faults?: {
    afterClaim?: (work: Work) => Promise<void> | void;
    afterSend?: (work: Work) => Promise<void> | void;
  };
}

export const DEFAULT_DISPATCHER_OPTIONS: DispatcherOptions = {
  clock: systemClock,
  leaseMs: 60_000,
  sendLockMs: 120_000,
  runBudgetMs: 120_000,
  pauseRecheckMs: 30_000,
  confirmationRecheckMs: 30_000,
  confirmationWindowMs: 24 * 60 * 60 * 1000,
  progressRecountRows: 1000,
  progressIntervalMs: 1000,
};

/** Seconds → milliseconds to wait after the `sent`-th message of the run (1-based). */
export function pacingDelayMs(settings: Pick<CampaignSettings, "messageInterval" | "longerIntervalAfter" | "greaterInterval">, sent: number): number {
  const longer = settings.longerIntervalAfter > 0 && sent > 0 && sent % settings.longerIntervalAfter === 0;
  return (longer ? Math.max(settings.greaterInterval, settings.messageInterval) : settings.messageInterval) * 1000;
}

/** The row's variant among the non-empty texts, rotating by its place in the list. */
export function variantFor(texts: readonly string[], position: number): string {
  const variants = texts.filter((t) => t.trim() !== "");
  if (variants.length === 0) return "";
  return variants[(Math.max(position, 1) - 1) % variants.length]!;
}

export interface Work {
  companyId: number;
  campaignId: number;
  shippingId: number;
  kind: SendKind;
  attempt: number;
  messageId: number;
  /** The state the row returns to when the send could not even start (connection down). */
  before: "pending" | "confirmed";
}

const IN_FLIGHT = ["requesting", "sending"] as const;
const OPEN_STATES = ["pending", "requesting", "confirmation", "confirmed", "sending"];

/** A shipping of this contact awaiting its confirmation (the partial index of that state); built once. */
const awaitingConfirmation = statement((db) =>
  db
    .select({ id: campaignShippings.id })
    .from(campaignShippings)
    .where(
      and(
        eq(campaignShippings.companyId, sql.placeholder("companyId")),
        eq(campaignShippings.contactId, sql.placeholder("contactId")),
        // A literal, not a parameter: the partial index's predicate must show in the text for a generic plan.
        sql`${campaignShippings.status} = 'confirmation'`,
      ),
    )
    .limit(1)
    .prepare("campaigns_awaiting_confirmation"),
);

export class CampaignDispatcher {
  readonly options: DispatcherOptions;
  private readonly abort = new AbortController();
  /** Set after a SimulatedCrash: this "process" is dead and does nothing more. */
  private dead = false;
  /** Per campaign (`companyId:id`): when its counters were last recounted here, their size, and whether a send since is not in them. */
  private readonly progress = new Map<string, { at: number; rows: number; due: boolean }>();

  constructor(
    private readonly ctx: AppContext,
    options: Partial<DispatcherOptions> = {},
  ) {
    this.options = { ...DEFAULT_DISPATCHER_OPTIONS, ...options };
  }

  private get db() {
    return this.ctx.database.db;
  }

  private get clock() {
    return this.options.clock;
  }

  /** Replaces options (tests: a fake clock, short locks, fault hooks). */
  configure(options: Partial<DispatcherOptions>): void {
    Object.assign(this.options, options);
  }

  stop(): void {
    this.abort.abort();
  }

  /** Whether a SimulatedCrash "killed" this dispatcher (tests). */
  get crashed(): boolean {
    return this.dead;
  }

  get stopped(): boolean {
    return this.abort.signal.aborted || this.dead;
  }

  // ─── Jobs ──────────────────────────────────────────────────────────────────────────────────────

  /** Queues the start at `at` (in `tx`: no job for a rolled-back save). */
  scheduleStart(tx: Tx, companyId: number, campaignId: number, at: Date): Promise<string | null> {
    return this.ctx.jobs.enqueue(CAMPAIGN_START_JOB, { companyId, campaignId } satisfies CampaignJobPayload, {
      runAt: at,
      key: campaignJobKey(campaignId),
      tx,
    });
  }

  cancelStart(campaignId: number): Promise<boolean> {
    return this.ctx.jobs.cancel(CAMPAIGN_START_JOB, campaignJobKey(campaignId));
  }

  /** Queues a run of the campaign (now, or at `runAt`). */
  async enqueueTick(companyId: number, campaignId: number, runAt?: Date, tx?: Tx): Promise<void> {
    await this.ctx.jobs.enqueue(CAMPAIGN_TICK_JOB, { companyId, campaignId } satisfies CampaignJobPayload, {
      ...(runAt && { runAt }),
      ...(tx && { tx }),
    });
  }

  /** The start job: a due PROGRAMADA campaign begins. */
  async start({ companyId, campaignId }: CampaignJobPayload): Promise<void> {
    if (this.stopped) return;
    const started = await this.db.transaction(async (tx) => {
      const [c] = await tx
        .select()
        .from(campaigns)
        .where(
          and(
            eq(campaigns.companyId, companyId),
            eq(campaigns.id, campaignId),
            eq(campaigns.status, "PROGRAMADA"),
            // Rescheduled later since this job was queued: the new job starts it.
            sql`${campaigns.scheduledAt} <= now() + interval '2 seconds'`,
          ),
        )
        .for("update")
        .limit(1);
      if (!c) return false;
      await this.begin(tx, c);
      return true;
    });
    if (started) await this.enqueueTick(companyId, campaignId);
  }

  /**
   * PROGRAMADA or CANCELADA → EM_ANDAMENTO, with a shipping row for every list item not already in the
   * campaign (a restart adds items added since; rows already sent are never reset). Items known to be off
   * WhatsApp get a failed row (ERR_WAPP_INVALID_CONTACT) so the report accounts for every item.
   */
  async begin(tx: Tx, c: CampaignRow): Promise<void> {
    await tx
      .update(campaigns)
      .set({ status: "EM_ANDAMENTO", pauseReason: null, completedAt: null, nextSendAt: null, updatedAt: new Date() })
      .where(and(eq(campaigns.companyId, c.companyId), eq(campaigns.id, c.id)));
    if (c.contactListId !== null)
      await tx.execute(sql`
        insert into campaign_shippings
          (company_id, campaign_id, contact_list_item_id, number, name, email, position, idempotency_key, status, last_error)
        select i.company_id, ${c.id}, i.id, i.number, i.name, i.email,
               row_number() over (order by i.id),
               'campaign:' || ${c.id}::int || ':item:' || i.id,
               case when i.is_whatsapp_valid = false then 'failed' else 'pending' end,
               case when i.is_whatsapp_valid = false then 'ERR_WAPP_INVALID_CONTACT' end
          from contact_list_items i
         where i.company_id = ${c.companyId} and i.contact_list_id = ${c.contactListId}
         order by i.id
        on conflict do nothing`);
    await this.recordUpdated(tx, c.companyId, c.id);
  }

  /** The tick job: runs the campaign while this process holds its lease. */
  async tick({ companyId, campaignId }: CampaignJobPayload): Promise<void> {
    if (this.stopped) return;
    const token = randomUUID();
    const [held] = await this.db
      .update(campaigns)
      .set({ runOwner: token, runLeaseUntil: sql`now() + (${this.options.leaseMs}::int * interval '1 millisecond')` })
      .where(
        and(
          eq(campaigns.companyId, companyId),
          eq(campaigns.id, campaignId),
          eq(campaigns.status, "EM_ANDAMENTO"),
          or(isNull(campaigns.runLeaseUntil), lt(campaigns.runLeaseUntil, sql`now()`)),
        ),
      )
      .returning({ id: campaigns.id });
    if (!held) return;
    try {
      await this.run(companyId, campaignId, token);
    } catch (err) {
      if (err instanceof SimulatedCrash) {
        this.dead = true;
        return;
      }
      throw err;
    } finally {
      if (!this.dead) {
        // Throttled counters (recordProgress): the run's last sends reach the report before the runner lets go.
        await this.flushProgress({ companyId, id: campaignId }).catch((err: unknown) =>
          this.ctx.log.warn({ err, companyId, campaignId }, "campaign progress not recorded"),
        );
        await this.db
          .update(campaigns)
          .set({ runOwner: null, runLeaseUntil: null })
          .where(and(eq(campaigns.companyId, companyId), eq(campaigns.id, campaignId), eq(campaigns.runOwner, token)));
      }
    }
  }

  private async renewLease(companyId: number, campaignId: number, token: string, extraMs: number): Promise<boolean> {
    const [row] = await this.db
      .update(campaigns)
      .set({ runLeaseUntil: sql`now() + (${extraMs + this.options.leaseMs}::int * interval '1 millisecond')` })
      .where(and(eq(campaigns.companyId, companyId), eq(campaigns.id, campaignId), eq(campaigns.runOwner, token)))
      .returning({ id: campaigns.id });
    return !!row;
  }

  private async run(companyId: number, campaignId: number, token: string): Promise<void> {
    const started = Date.now();
    // When the lease this runner holds ends, as far as it knows (tick() took it for leaseMs before calling run).
    let leaseUntil = started + this.options.leaseMs;
    const settings = await this.settingsOf(companyId);
    while (!this.stopped) {
      // An unpaced run (messageInterval 0) never waits, and the run budget outlasts the lease: renewed once half
      // of it is gone, or the lease lapsed mid-run and another runner took the campaign beside this one.
      if (leaseUntil - Date.now() < this.options.leaseMs / 2) {
        if (!(await this.renewLease(companyId, campaignId, token, 0))) return;
        leaseUntil = Date.now() + this.options.leaseMs;
      }
      const [c] = await this.db
        .select()
        .from(campaigns)
        .where(and(eq(campaigns.companyId, companyId), eq(campaigns.id, campaignId)))
        .limit(1);
      if (!c || c.status !== "EM_ANDAMENTO" || c.runOwner !== token) return;
      if (Date.now() - started > this.options.runBudgetMs) return this.enqueueTick(companyId, campaignId);

      const down = await this.connectionProblem(c);
      if (down) {
        await this.setPause(c, down);
        return this.enqueueTick(companyId, campaignId, new Date(Date.now() + this.options.pauseRecheckMs));
      }
      if (c.pauseReason) await this.setPause(c, null);

      const wait = c.nextSendAt ? c.nextSendAt.getTime() - this.clock.now().getTime() : 0;
      if (wait > 0) {
        if (!(await this.renewLease(companyId, campaignId, token, wait))) return;
        leaseUntil = Date.now() + wait + this.options.leaseMs;
        if (this.progressStaleFor(c) < wait) await this.flushProgress(c);
        await this.clock.sleep(wait, this.abort.signal);
        continue;
      }

      const claimed = await this.claim(c, settings);
      if (claimed === "settled") continue;
      if (!claimed) {
        if (await this.finishIfDone(c)) return;
        return this.enqueueTick(companyId, campaignId, new Date(Date.now() + this.options.confirmationRecheckMs));
      }
      await this.options.faults?.afterClaim?.(claimed);
      const delivered = deliveryOutcome(await this.ctx.services.messages.deliverStored(companyId, claimed.messageId));
      await this.options.faults?.afterSend?.(claimed);
      await this.settle(c, claimed, settings, delivered.state === "failed" ? delivered.failure : null);
    }
    // Stopping (process shutdown): let another process carry on without waiting for the lease to lapse.
    if (!this.dead) await this.enqueueTick(companyId, campaignId).catch(() => undefined);
  }

  /** Why the campaign cannot send now, or null when its connection is up (here or in its owner process). */
  private async connectionProblem(c: CampaignRow): Promise<ErrorCode | null> {
    if (c.connectionId === null) return "ERR_NO_WAPP_FOUND";
    const [conn] = await this.db
      .select({ status: connections.status })
      .from(connections)
      .where(and(eq(connections.companyId, c.companyId), eq(connections.id, c.connectionId)))
      .limit(1);
    if (!conn) return "ERR_NO_WAPP_FOUND";
    if (conn.status !== "CONNECTED") return "ERR_WAPP_NOT_INITIALIZED";
    if (this.ctx.channels.isLocal(c.connectionId)) return null;
    const [lease] = await this.db
      .select({ id: connectionLeases.connectionId })
      .from(connectionLeases)
      .where(
        and(
          eq(connectionLeases.companyId, c.companyId),
          eq(connectionLeases.connectionId, c.connectionId),
          sql`${connectionLeases.expiresAt} > now()`,
        ),
      )
      .limit(1);
    return lease ? null : "ERR_WAPP_NOT_INITIALIZED";
  }

  private async setPause(c: CampaignRow, reason: ErrorCode | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(campaigns)
        .set({ pauseReason: reason, updatedAt: new Date() })
        .where(
          and(
            eq(campaigns.companyId, c.companyId),
            eq(campaigns.id, c.id),
            eq(campaigns.status, "EM_ANDAMENTO"),
            sql`${campaigns.pauseReason} is distinct from ${reason}`,
          ),
        )
        .returning({ id: campaigns.id });
      if (row) await this.recordUpdated(tx, c.companyId, c.id);
    });
  }

  /**
   * Claims the next row: one whose send was interrupted (lock expired) first, then replied confirmations, then
   * pending rows in list order (id order: rows are inserted in list order). Returns the work to send, "settled" when an interrupted row turned out to be
   * sent already (or failed for good), or null when nothing is left to send now.
   */
  private async claim(c: CampaignRow, settings: CampaignSettings): Promise<Work | "settled" | null> {
    return this.db.transaction(async (tx) => {
      // Three probes, each one walk of the (company, campaign, status, id) index: a list of 50,000 rows costs
      // the same per claim as one of 10.
      const next = (statuses: string[], expiredOnly: boolean) =>
        tx
          .select()
          .from(campaignShippings)
          .where(
            and(
              eq(campaignShippings.companyId, c.companyId),
              eq(campaignShippings.campaignId, c.id),
              inArray(campaignShippings.status, statuses),
              ...(expiredOnly ? [lt(campaignShippings.lockedUntil, sql`now()`)] : []),
            ),
          )
          .orderBy(asc(campaignShippings.id))
          .for("update", { skipLocked: true })
          .limit(1);
      let [row] = await next([...IN_FLIGHT], true);
      if (!row) [row] = await next(["confirmed"], false);
      if (!row) [row] = await next(["pending"], false);
      if (!row) return null;
      if (row.status === "requesting" || row.status === "sending") {
        const recovered = await this.recover(tx, c, row, settings);
        if (recovered) return recovered;
      }
      return this.prepare(tx, c, row, settings);
    });
  }

  /** An interrupted send: decide from the stored message (see the header). */
  private async recover(tx: Tx, c: CampaignRow, row: ShippingRow, settings: CampaignSettings): Promise<Work | "settled" | null> {
    const kind: SendKind = row.status === "requesting" ? "confirmation" : "message";
    const messageId = kind === "confirmation" ? row.confirmationMessageId : row.messageId;
    const [m] = messageId
      ? await tx
          .select({ status: messages.status, providerMessageId: messages.providerMessageId })
          .from(messages)
          .where(and(eq(messages.companyId, c.companyId), eq(messages.id, messageId)))
          .limit(1)
      : [];
    const before = kind === "message" && row.confirmationRequestedAt ? "confirmed" : "pending";
    if (m && (m.status === "sent" || m.providerMessageId)) {
      await this.markSent(tx, c, row, kind, settings);
      return "settled";
    }
    if (m && m.status === "pending") {
      await tx
        .update(campaignShippings)
        .set({ lockedUntil: sql`now() + (${this.options.sendLockMs}::int * interval '1 millisecond')`, updatedAt: new Date() })
        .where(and(eq(campaignShippings.companyId, c.companyId), eq(campaignShippings.id, row.id)));
      return { companyId: c.companyId, campaignId: c.id, shippingId: row.id, kind, attempt: row.attempts, messageId: messageId!, before };
    }
    // Failed or never stored: back to where it was, and a fresh attempt below.
    row.status = before;
    return null;
  }

  /** A fresh attempt: the contact, its conversation, the text, the stored message, the row in flight. */
  private async prepare(tx: Tx, c: CampaignRow, row: ShippingRow, settings: CampaignSettings): Promise<Work | "settled"> {
    const kind: SendKind = row.status === "confirmed" || !c.confirmation ? "message" : "confirmation";
    const before = row.status === "confirmed" ? "confirmed" : "pending";
    const connectionId = c.connectionId!;
    const digits = row.number.replace(/\D/g, "");
    if (digits.length < 8) {
      await this.fail(tx, c, row, "ERR_WAPP_INVALID_CONTACT");
      return "settled";
    }
    const { contact } = await resolveInboundContact(tx, c.companyId, connectionId, { kind: "phone", id: digits }, row.name);
    const ticketId = await this.ticketFor(tx, c.companyId, contact.id, connectionId, contact.isGroup);
    const item = { name: row.name, number: row.number, email: row.email };
    const variables: CampaignVariable[] = settings.variables;
    const texts =
      kind === "message"
        ? [c.message1, c.message2, c.message3, c.message4, c.message5]
        : [c.confirmationMessage1, c.confirmationMessage2, c.confirmationMessage3, c.confirmationMessage4, c.confirmationMessage5];
    const body = renderCampaignMessage(variantFor(texts, row.position), item, variables);
    const media =
      kind === "message" && c.mediaPath
        ? (
            await tx
              .select({ id: mediaFiles.id, mimeType: mediaFiles.mimeType, originalName: mediaFiles.originalName })
              .from(mediaFiles)
              .where(and(eq(mediaFiles.companyId, c.companyId), eq(mediaFiles.id, c.mediaPath)))
              .limit(1)
          )[0]
        : undefined;
    const attempt = row.attempts + 1;
    const mediaType = media ? mediaKindOf(media.mimeType) : "chat";
    const [message] = await tx
      .insert(messages)
      .values({
        companyId: c.companyId,
        ticketId,
        contactId: contact.id,
        connectionId,
        body,
        fromMe: true,
        read: true,
        mediaType,
        mediaPath: media?.id ?? null,
        mediaName: media?.originalName ?? null,
        mimeType: media?.mimeType ?? null,
        ack: 0,
        status: "pending",
        idempotencyKey: campaignMessageKey(c.id, row.id, kind, attempt),
      })
      .returning({ id: messages.id });
    await tx
      .update(tickets)
      .set({ lastMessage: previewOf(mediaType, body, media?.originalName ?? null), lastMessageAt: new Date(), updatedAt: new Date() })
      .where(and(eq(tickets.companyId, c.companyId), eq(tickets.id, ticketId)));
    await tx
      .update(campaignShippings)
      .set({
        status: kind === "confirmation" ? "requesting" : "sending",
        attempts: attempt,
        contactId: contact.id,
        lockedUntil: sql`now() + (${this.options.sendLockMs}::int * interval '1 millisecond')`,
        ...(kind === "confirmation" ? { confirmationMessage: body, confirmationMessageId: message!.id } : { message: body, messageId: message!.id }),
        updatedAt: new Date(),
      })
      .where(and(eq(campaignShippings.companyId, c.companyId), eq(campaignShippings.id, row.id)));
    const ticket = await presentTicketById(tx, c.companyId, ticketId);
    const [dto] = await presentMessagesById(tx, [message!.id]);
    if (ticket && dto) await this.ctx.events.record(tx, { type: "messages.created", companyId: c.companyId, message: dto, ticket });
    return { companyId: c.companyId, campaignId: c.id, shippingId: row.id, kind, attempt, messageId: message!.id, before };
  }

  /**
   * The contact's live conversation on the connection, else a closed ticket that holds the campaign's
   * messages as history: a campaign does not put hundreds of conversations in the attendants' queues; the
   * customer's reply opens a new attendance as any inbound message does.
   */
  private async ticketFor(tx: Tx, companyId: number, contactId: number, connectionId: number, isGroup: boolean): Promise<number> {
    const [live] = await tx
      .select({ id: tickets.id })
      .from(tickets)
      .where(
        and(
          eq(tickets.companyId, companyId),
          eq(tickets.contactId, contactId),
          eq(tickets.connectionId, connectionId),
          sql`${tickets.status} <> 'closed'`,
        ),
      )
      .limit(1);
    if (live) return live.id;
    const [latest] = await tx
      .select({ id: tickets.id })
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.contactId, contactId), eq(tickets.connectionId, connectionId)))
      .orderBy(sql`${tickets.updatedAt} desc`, sql`${tickets.id} desc`)
      .limit(1);
    if (latest) return latest.id;
    const [created] = await tx
      .insert(tickets)
      .values({ companyId, contactId, connectionId, status: "closed", isGroup })
      .returning({ id: tickets.id });
    return created!.id;
  }

  /** Records the outcome of a send. Guarded by the attempt: a row someone else settled meanwhile is left alone. */
  private async settle(c: CampaignRow, work: Work, settings: CampaignSettings, failure: DeliveryFailure | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(campaignShippings)
        .where(
          and(
            eq(campaignShippings.companyId, c.companyId),
            eq(campaignShippings.id, work.shippingId),
            eq(campaignShippings.attempts, work.attempt),
            inArray(campaignShippings.status, [...IN_FLIGHT]),
          ),
        )
        .for("update")
        .limit(1);
      if (!row) return;
      if (failure === null) return this.markSent(tx, c, row, work.kind, settings);
      if (failure === "NOT_CONNECTED") {
        // Not handed over here — but a relayed send may still be finishing in the connection's owner (a
        // relay that timed out). The row stays in flight under its lock; when the lock expires, recovery
        // reads the message: sent → settled, failed → a new attempt. The campaign pauses on its next loop.
        await tx
          .update(campaignShippings)
          .set({
            lockedUntil: sql`now() + (${this.options.sendLockMs}::int * interval '1 millisecond')`,
            lastError: DELIVERY_FAILURE_CODES.NOT_CONNECTED,
            updatedAt: new Date(),
          })
          .where(and(eq(campaignShippings.companyId, c.companyId), eq(campaignShippings.id, row.id)));
        return;
      }
      await this.fail(tx, c, row, DELIVERY_FAILURE_CODES[failure]);
    });
  }

  private async markSent(tx: Tx, c: CampaignRow, row: ShippingRow, kind: SendKind, settings: CampaignSettings): Promise<void> {
    await tx
      .update(campaignShippings)
      .set(
        kind === "confirmation"
          ? { status: "confirmation", confirmationRequestedAt: new Date(), lockedUntil: null, lastError: null, updatedAt: new Date() }
          : { status: "delivered", deliveredAt: new Date(), lockedUntil: null, lastError: null, updatedAt: new Date() },
      )
      .where(and(eq(campaignShippings.companyId, c.companyId), eq(campaignShippings.id, row.id)));
    if (kind === "confirmation")
      await this.ctx.events.record(tx, {
        type: "campaigns.confirmationRequested",
        companyId: c.companyId,
        campaignId: c.id,
        contactId: row.contactId,
      });
    const [paced] = await tx
      .update(campaigns)
      .set({ sendCount: sql`${campaigns.sendCount} + 1` })
      .where(and(eq(campaigns.companyId, c.companyId), eq(campaigns.id, c.id)))
      .returning({ sendCount: campaigns.sendCount });
    const delay = pacingDelayMs(settings, paced!.sendCount);
    await tx
      .update(campaigns)
      .set({ nextSendAt: new Date(this.clock.now().getTime() + delay) })
      .where(and(eq(campaigns.companyId, c.companyId), eq(campaigns.id, c.id)));
    await this.recordProgress(tx, c);
  }

  private async fail(tx: Tx, c: CampaignRow, row: ShippingRow, code: ErrorCode): Promise<void> {
    await tx
      .update(campaignShippings)
      .set({ status: "failed", lastError: code, lockedUntil: null, updatedAt: new Date() })
      .where(and(eq(campaignShippings.companyId, c.companyId), eq(campaignShippings.id, row.id)));
    await this.recordProgress(tx, c);
  }

  /**
   * FINALIZADA once no row is left to send: every row delivered or failed, or only confirmations without a
   * reply whose last request is older than the confirmation window.
   */
  private async finishIfDone(c: CampaignRow): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [open] = await tx
        .select({
          open: sql<number>`count(*) filter (where ${campaignShippings.status} <> 'confirmation')::int`,
          waiting: sql<number>`count(*) filter (where ${campaignShippings.status} = 'confirmation')::int`,
          lastRequest: sql<Date | null>`max(${campaignShippings.confirmationRequestedAt}) filter (where ${campaignShippings.status} = 'confirmation')`,
        })
        .from(campaignShippings)
        .where(
          and(eq(campaignShippings.companyId, c.companyId), eq(campaignShippings.campaignId, c.id), inArray(campaignShippings.status, OPEN_STATES)),
        );
      if ((open?.open ?? 0) > 0) return false;
      if ((open?.waiting ?? 0) > 0) {
        const last = open!.lastRequest ? new Date(open!.lastRequest).getTime() : 0;
        if (this.clock.now().getTime() - last < this.options.confirmationWindowMs) return false;
      }
      const [done] = await tx
        .update(campaigns)
        .set({ status: "FINALIZADA", completedAt: new Date(), pauseReason: null, updatedAt: new Date() })
        .where(and(eq(campaigns.companyId, c.companyId), eq(campaigns.id, c.id), eq(campaigns.status, "EM_ANDAMENTO")))
        .returning({ id: campaigns.id });
      if (done) await this.recordUpdated(tx, c.companyId, c.id);
      return true;
    });
  }

  /** A customer's message: rows of running campaigns on that connection waiting for this contact's reply. */
  /** `contactId` comes with newer `messages.received` events (a customer's message, never ours); older ones are read. */
  async onReply(companyId: number, messageId: number, connectionId: number, contactId?: number): Promise<void> {
    const [m] =
      contactId !== undefined
        ? [{ contactId, fromMe: false }]
        : await this.db
            .select({ contactId: messages.contactId, fromMe: messages.fromMe })
            .from(messages)
            .where(and(eq(messages.companyId, companyId), eq(messages.id, messageId)))
            .limit(1);
    if (!m || m.fromMe || m.contactId === null) return;
    // Almost every customer message answers no campaign. A company with no shipping awaiting a reply is known from
    // the read cache (a confirmation request drops it); else one probe of the partial index instead of a
    // transaction of three statements (issue 20). A shipping that starts awaiting after the probe awaits the next
    // message.
    if (!(await readCache(this.ctx).awaitsConfirmations(companyId))) return;
    const [awaiting] = await awaitingConfirmation(this.db).execute({ companyId, contactId: m.contactId });
    if (!awaiting) return;
    const confirmed = await this.db.transaction(async (tx) => {
      const rows = await tx
        .update(campaignShippings)
        .set({ status: "confirmed", confirmation: true, confirmedAt: new Date(), updatedAt: new Date() })
        .where(
          and(
            eq(campaignShippings.companyId, companyId),
            eq(campaignShippings.contactId, m.contactId!),
            eq(campaignShippings.status, "confirmation"),
            inArray(
              campaignShippings.campaignId,
              tx
                .select({ id: campaigns.id })
                .from(campaigns)
                .where(and(eq(campaigns.companyId, companyId), eq(campaigns.status, "EM_ANDAMENTO"), eq(campaigns.connectionId, connectionId))),
            ),
          ),
        )
        .returning({ campaignId: campaignShippings.campaignId });
      const ids = [...new Set(rows.map((r) => r.campaignId))];
      for (const id of ids) await this.recordProgress(tx, { companyId, id }, true);
      return ids;
    });
    for (const id of confirmed) await this.enqueueTick(companyId, id);
  }

  /** A connection came back: its paused campaigns run again now instead of at their next re-check. */
  async onConnected(companyId: number, connectionId: number): Promise<void> {
    const paused = await this.db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(
        and(
          eq(campaigns.companyId, companyId),
          eq(campaigns.connectionId, connectionId),
          eq(campaigns.status, "EM_ANDAMENTO"),
          sql`${campaigns.pauseReason} is not null`,
        ),
      );
    for (const c of paused) await this.enqueueTick(companyId, c.id);
  }

  /**
   * Once a minute on one process: starts PROGRAMADA campaigns whose start job was lost, and ticks running
   * campaigns nobody runs (lease lapsed: their process died). Reads every company's campaigns on purpose
   * (listed in test/tenantGuard.ts); each one is then handled in its company.
   */
  async sweep(): Promise<void> {
    if (this.stopped) return;
    const late = await this.db
      .select({ id: campaigns.id, companyId: campaigns.companyId })
      .from(campaigns)
      .where(and(eq(campaigns.status, "PROGRAMADA"), lt(campaigns.scheduledAt, sql`now() - interval '30 seconds'`)))
      .limit(500);
    for (const c of late) await this.start({ companyId: c.companyId, campaignId: c.id });
    const orphans = await this.db
      .select({ id: campaigns.id, companyId: campaigns.companyId })
      .from(campaigns)
      .where(and(eq(campaigns.status, "EM_ANDAMENTO"), or(isNull(campaigns.runLeaseUntil), lt(campaigns.runLeaseUntil, sql`now()`))))
      .limit(500);
    for (const c of orphans) await this.enqueueTick(c.companyId, c.id);
  }

  private async settingsOf(companyId: number): Promise<CampaignSettings> {
    const rows = await this.db
      .select({ key: campaignSettings.key, value: campaignSettings.value })
      .from(campaignSettings)
      .where(eq(campaignSettings.companyId, companyId));
    return campaignSettingsFromRows(rows.map((r) => ({ key: r.key, value: parseJson(r.value) })));
  }

  private async recordUpdated(tx: Tx, companyId: number, campaignId: number): Promise<void> {
    const campaign = await presentCampaignById(tx, companyId, campaignId);
    if (campaign) await this.ctx.events.record(tx, { type: "campaigns.updated", companyId, campaign });
  }

  /**
   * The report's counters as a `campaigns.progress` event. A recount reads all the campaign's shipping rows:
   * unless `force`d, a large campaign (progressRecountRows) recounted here less than progressIntervalMs ago is
   * only marked due, and flushProgress records it when the runner waits or stops.
   */
  private async recordProgress(tx: Tx, c: { companyId: number; id: number }, force = false): Promise<void> {
    const key = `${c.companyId}:${c.id}`;
    const now = this.clock.now().getTime();
    const last = this.progress.get(key);
    if (!force && last && last.rows > this.options.progressRecountRows && now - last.at < this.options.progressIntervalMs) {
      last.due = true;
      return;
    }
    const [row] = await tx
      .select({ contactListId: campaigns.contactListId })
      .from(campaigns)
      .where(and(eq(campaigns.companyId, c.companyId), eq(campaigns.id, c.id)))
      .limit(1);
    const counts = await campaignCounts(tx, c.companyId, { id: c.id, contactListId: row?.contactListId ?? null });
    await this.ctx.events.record(tx, { type: "campaigns.progress", companyId: c.companyId, campaignId: c.id, counts });
    this.progress.set(key, { at: now, rows: counts.validContacts, due: false });
  }

  /** How long until a due recount may run (Infinity when none is due). */
  private progressStaleFor(c: { companyId: number; id: number }): number {
    const last = this.progress.get(`${c.companyId}:${c.id}`);
    if (!last?.due) return Infinity;
    return last.at + this.options.progressIntervalMs - this.clock.now().getTime();
  }

  /** Records the counters a throttled send left due. */
  private async flushProgress(c: { companyId: number; id: number }): Promise<void> {
    const key = `${c.companyId}:${c.id}`;
    if (!this.progress.get(key)?.due) {
      this.progress.delete(key);
      return;
    }
    await this.db.transaction((tx) => this.recordProgress(tx, c, true));
  }
}

export function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** One dispatcher per app context, shared by the routes and the background work. */
export const dispatcherFor = perContext((ctx) => new CampaignDispatcher(ctx));

/** The module's background work: start and tick jobs, the minute sweep, and replies to confirmations. */
export function startCampaignDispatcher(ctx: AppContext): () => void {
  const d = dispatcherFor(ctx);
  ctx.jobs.register<CampaignJobPayload>(CAMPAIGN_START_JOB, (job) => d.start(job.payload), { retryLimit: 5, retryDelaySec: 1, expireInSeconds: 60 });
  // Budget 120 s + the longest wait (60 s pause + lease) stays under the expiry.
  ctx.jobs.register<CampaignJobPayload>(CAMPAIGN_TICK_JOB, (job) => d.tick(job.payload), {
    retryLimit: 5,
    retryDelaySec: 1,
    expireInSeconds: 300,
    concurrency: 2,
  });
  ctx.jobs.every(CAMPAIGN_SWEEP_JOB, "* * * * *", () => d.sweep());
  const unsubscribe = ctx.events.subscribe(
    "campaignConfirmations",
    async (event) => {
      if (event.type === "messages.received") await d.onReply(event.companyId, event.messageId, event.connectionId, event.contactId);
    },
    // A reply confirms a shipping; the next send is seconds away anyway.
    { types: ["messages.received"], paceMs: BACKGROUND_PACE_MS },
  );
  const unsubscribeConnections = ctx.events.subscribe(
    "campaignConnections",
    async (event) => {
      if (event.type === "connections.session" && event.connection.status === "CONNECTED") await d.onConnected(event.companyId, event.connection.id);
    },
    { types: ["connections.session"] },
  );
  return () => {
    d.stop();
    unsubscribe();
    unsubscribeConnections();
  };
}
