import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import { MESSAGES_PAGE_SIZE, type ErrorCode, type MessageDTO, type MessageListResponse, type TicketDTO } from "@balcao/shared";
import type { AppContext } from "../../context";
import { isUniqueViolation, type DbOrTx, type Tx } from "../../db/client";
import { messages, tickets } from "../../db/schema";
import { statement } from "../../db/statement";
import { AppError, forbidden, notFound } from "../../http/errors";
import { ChannelError, type OutboundContent } from "../../channels/types";
import type { Actor } from "../auth/service";
import { MediaStore } from "../media/service";
import { mediaKindOf } from "../media/sniff";
import { canSeeTicket, ticketPolicy, type TicketScope } from "../tickets/policy";
import { presentTicketById, presentTicketRow, ticketRowById } from "../tickets/presenter";
import { addressOfContact, sessionFor } from "./gateway";
import { assertCustomerServiceWindow, customerServiceWindow, OUTSIDE_WINDOW_REASON } from "../../channels/cloudapi/window";
import { CloudApiSendError, CloudApiSession, type TemplateSend } from "../../channels/cloudapi/provider";
import { relayOf, type SendRelay } from "./sendRelay";
import { sendQueueOf } from "./sendQueue";
import { previewOf } from "./labels";
import { OWN_REACTION_SENDER, storeReaction } from "./reactions";
import { presentMessagesById, presentRows, selectMessages } from "./presenter";

/** A file to send: in memory (`data`), or streamed to a temporary file (`path`, http/uploads.ts) that is moved into the media store. */
export interface OutgoingFile {
  data?: Buffer;
  path?: string;
  size?: number;
  fileName: string;
  mimeType?: string;
}

export interface SendInput {
  body: string;
  quotedMsgId?: number | null;
  files?: OutgoingFile[];
  /** Sent as a voice note (push-to-talk) when the file is audio. */
  voice?: boolean;
  idempotencyKey?: string;
  /** A Cloud API template (the only send allowed outside the 24 h window); `body` is its rendered text. */
  template?: TemplateSend;
}

/** Why a delivery failed: the provider's refusal, or OUTSIDE_WINDOW (Cloud API, 24 h window / Graph 131047). */
export type DeliveryFailure = ChannelError["code"] | "OUTSIDE_WINDOW";

/** The error-catalogue code each delivery failure is recorded as by the domains that send (schedules, campaigns). */
export const DELIVERY_FAILURE_CODES: Record<DeliveryFailure, ErrorCode> = {
  NOT_CONNECTED: "ERR_WAPP_NOT_INITIALIZED",
  INVALID_NUMBER: "ERR_WAPP_INVALID_CONTACT",
  SEND_FAILED: "ERR_SENDING_WAPP_MSG",
  DELETE_FAILED: "ERR_SENDING_WAPP_MSG",
  UNSUPPORTED: "ERR_SENDING_WAPP_MSG",
  OUTSIDE_WINDOW: "ERR_OUTSIDE_WHATSAPP_WINDOW",
};

/** A delivery's result as the senders book it: sent, still pending (waiting for its connection), or failed. */
export type DeliveryOutcome = { state: "sent" } | { state: "pending" } | { state: "failed"; failure: DeliveryFailure; code: ErrorCode };

/**
 * The one reading of `deliverStored`'s result shared by the send queue, scheduled messages and campaigns: a
 * failed message's cause (SEND_FAILED when the provider gave none) and its catalogue code.
 */
export function deliveryOutcome(result: { message: MessageDTO; failure: DeliveryFailure | null }): DeliveryOutcome {
  if (result.message.status === "failed") {
    const failure = result.failure ?? "SEND_FAILED";
    return { state: "failed", failure, code: DELIVERY_FAILURE_CODES[failure] };
  }
  return result.message.status === "pending" ? { state: "pending" } : { state: "sent" };
}

type TicketRecord = typeof tickets.$inferSelect;
const scopeOf = (t: TicketRecord): TicketScope => ({ userId: t.userId, queueId: t.queueId, status: t.status });

/** A free-form send refused before the Graph API is called: the 24 h window is closed. */
class OutsideWindow extends ChannelError {
  constructor() {
    super("SEND_FAILED", OUTSIDE_WINDOW_REASON);
  }
}

export class MessagesService {
  private readonly media: MediaStore;
  /** Sends whose connection another process runs go through it (sendRelay.ts). */
  readonly relay: SendRelay;

  constructor(private readonly ctx: AppContext) {
    this.relay = relayOf(ctx);
    this.media = new MediaStore(ctx);
  }

  private get db() {
    return this.ctx.database.db;
  }

  private async visibleTicket(actor: Actor, ticketId: number): Promise<TicketRecord> {
    const [t] = await this.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.id, ticketId), eq(tickets.companyId, actor.companyId)))
      .limit(1);
    if (!t) throw notFound("ERR_NO_TICKET_FOUND");
    if (!canSeeTicket(actor, t)) throw new AppError("ERR_ACCESS_DENIED", 403);
    return t;
  }

  /**
   * The contact's conversation on this connection across all its tickets (earlier attendances are
   * history), newest page first, oldest first within a page, so the view can mark where tickets change.
   */
  async list(actor: Actor, ticketId: number, pageNumber: number, beforeId?: number): Promise<MessageListResponse> {
    // `beforeId` (the oldest message the client holds) pages by keyset: constant cost at any depth,
    // where pageNumber's OFFSET walks every newer message first (see bench/messages-history.ts).
    const form: PageForm = beforeId ? "before" : pageNumber > 1 ? "offset" : "first";
    const page = (withConnection: boolean) =>
      messagesPage(this.db, form, withConnection).execute({
        companyId: actor.companyId,
        ticketId,
        beforeId: beforeId ?? null,
        offset: (pageNumber - 1) * MESSAGES_PAGE_SIZE,
      });
    // The ticket (with its contact, user, queue, connection and tags: it answers the visibility check and becomes
    // the answer's `ticket`) and the page, which finds the conversation through the ticket itself, are read at
    // once on two pooled connections: a page costs one round trip rather than two (issue 20). The page of a
    // ticket the caller may not see is read and dropped, never sent.
    const [row, onConnection] = await Promise.all([ticketRowById(this.db, actor.companyId, ticketId), page(true)]);
    if (!row) throw notFound("ERR_NO_TICKET_FOUND");
    const t = row.ticket;
    if (!canSeeTicket(actor, t)) throw new AppError("ERR_ACCESS_DENIED", 403);
    // A ticket whose connection was deleted: its conversation is the contact's messages without a connection.
    const rows = t.connectionId === null ? await page(false) : onConnection;
    const hasMore = rows.length > MESSAGES_PAGE_SIZE;
    const messagesShown = presentRows(rows.slice(0, MESSAGES_PAGE_SIZE).reverse());
    return { messages: messagesShown, hasMore, ticket: presentTicketRow(row) };
  }

  /**
   * Stores each outgoing message first (status pending: never lost), then hands it to the provider.
   * A provider failure marks the message failed (retryable) and answers ERR_SENDING_WAPP_MSG.
   */
  async send(actor: Actor, ticketId: number, input: SendInput): Promise<MessageDTO[]> {
    const t = await this.visibleTicket(actor, ticketId);
    if (!ticketPolicy.handle(actor, t)) throw forbidden();
    if (t.status !== "open") throw new AppError("ERR_TICKET_NOT_OPEN", 400);
    return this.storeAndDeliver(actor.companyId, t, input);
  }

  /**
   * Sends on a ticket as the company itself (the send API, modules/messagesApi): no attendant, so no
   * visibility or handling rule; the ticket may still wait in line (pending), never be closed. Same storing,
   * idempotency, events and delivery as an attendant's message.
   */
  async sendAsCompany(companyId: number, ticketId: number, input: SendInput): Promise<MessageDTO[]> {
    const [t] = await this.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.id, ticketId), eq(tickets.companyId, companyId)))
      .limit(1);
    if (!t) throw notFound("ERR_NO_TICKET_FOUND");
    if (t.status === "closed") throw new AppError("ERR_TICKET_NOT_OPEN", 400);
    return this.storeAndDeliver(companyId, t, input);
  }

  private async storeAndDeliver(companyId: number, t: TicketRecord, input: SendInput): Promise<MessageDTO[]> {
    const files = input.files ?? [];
    const body = input.body.trim();
    if (!body && files.length === 0) throw new AppError("ERR_CREATING_MESSAGE", 400);
    if (input.idempotencyKey) {
      const [existing] = await this.db
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.companyId, companyId), eq(messages.idempotencyKey, input.idempotencyKey)))
        .limit(1);
      if (existing) return presentMessagesById(this.db, [existing.id]);
    }
    if (input.quotedMsgId) await this.assertQuotable(companyId, t, input.quotedMsgId);
    // Cloud API: free text only inside the 24 h customer-service window (templates go through /cloudapi).
    if (!input.template) await assertCustomerServiceWindow(this.db, companyId, t);

    let ids: number[];
    try {
      ids = await this.db.transaction(async (tx) => {
        const created: number[] = [];
        const parts =
          files.length === 0
            ? [{ kind: "chat", body, file: undefined as OutgoingFile | undefined }]
            : files.map((file, i) => ({ kind: "", body: i === 0 ? body : "", file }));
        for (const [index, part] of parts.entries()) {
          let mediaId: string | null = null;
          let kind = part.kind;
          let mimeType: string | null = null;
          let mediaName: string | null = null;
          if (part.file) {
            const { file } = part;
            const stored = file.path
              ? await this.media.saveFile(tx, companyId, file.path, file.size ?? 0, file.fileName, file.mimeType)
              : await this.media.save(tx, companyId, file.data ?? Buffer.alloc(0), file.fileName, file.mimeType);
            mediaId = stored.id;
            mimeType = stored.mimeType;
            mediaName = stored.originalName;
            kind = mediaKindOf(stored.mimeType);
          }
          const [row] = await tx
            .insert(messages)
            .values({
              companyId: companyId,
              ticketId: t.id,
              contactId: t.contactId,
              connectionId: t.connectionId,
              body: part.body,
              fromMe: true,
              read: true,
              mediaType: kind,
              mediaPath: mediaId,
              mediaName,
              mimeType,
              quotedMsgId: index === 0 ? (input.quotedMsgId ?? null) : null,
              ack: 0,
              status: "pending",
              idempotencyKey: index === 0 ? (input.idempotencyKey ?? null) : null,
              ...(index === 0 && input.template && !part.file && { dataJson: { template: input.template } }),
            })
            .returning({ id: messages.id, body: messages.body, mediaType: messages.mediaType, mediaName: messages.mediaName });
          created.push(row!.id);
          await tx
            .update(tickets)
            .set({
              lastMessage: previewOf(row!.mediaType, row!.body, row!.mediaName),
              lastMessageAt: new Date(),
              updatedAt: new Date(),
              unreadMessages: 0,
            })
            .where(eq(tickets.id, t.id));
        }
        return created;
      });
    } catch (err) {
      if (isUniqueViolation(err, "messages_company_idempotency_key_uq")) {
        const [existing] = await this.db
          .select({ id: messages.id })
          .from(messages)
          .where(and(eq(messages.companyId, companyId), eq(messages.idempotencyKey, input.idempotencyKey!)));
        return presentMessagesById(this.db, [existing!.id]);
      }
      throw err;
    }

    const ticket = (await presentTicketById(this.db, companyId, t.id))!;
    const stored = await presentMessagesById(this.db, ids);
    for (const message of stored) this.ctx.events.publish({ type: "messages.created", companyId: companyId, message, ticket });
    this.ctx.events.publish({ type: "tickets.updated", companyId: companyId, ticket });

    const results = [];
    let failed = false;
    for (const id of ids) {
      const delivered = await this.deliver(companyId, id, input.voice ?? false);
      failed ||= delivered.status === "failed";
      results.push(delivered);
    }
    if (failed) throw new AppError("ERR_SENDING_WAPP_MSG", 400, { messageId: results.find((m) => m.status === "failed")!.id });
    return results;
  }

  private async assertQuotable(companyId: number, t: TicketRecord, quotedId: number): Promise<void> {
    const [q] = await this.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.id, quotedId), eq(messages.companyId, companyId), eq(messages.contactId, t.contactId)))
      .limit(1);
    if (!q) throw notFound("ERR_NOT_FOUND");
  }

  /** Sends one stored message through the ticket's connection and records the outcome. */
  private async deliver(companyId: number, messageId: number, voice: boolean): Promise<MessageDTO> {
    return (await this.deliverStored(companyId, messageId, voice)).message;
  }

  /**
   * Hands a message already stored as pending (by this service or another domain, e.g. a scheduled message)
   * to its connection, records the outcome and tells the ticket's sockets; `failure` says why it failed.
   */
  async deliverStored(companyId: number, messageId: number, voice = false): Promise<{ message: MessageDTO; failure: DeliveryFailure | null }> {
    const [stored] = await this.db
      .select({ connectionId: messages.connectionId })
      .from(messages)
      .where(and(eq(messages.id, messageId), eq(messages.companyId, companyId)));
    const connectionId = stored?.connectionId ?? null;
    // Behind earlier messages of the conversation still waiting for the connection (sendQueue.ts): in order.
    const held = await sendQueueOf(this.ctx).holdBehind(companyId, messageId, voice);
    if (held) return { message: held, failure: null };
    if (connectionId !== null && (await this.relay.ownedElsewhere(connectionId))) {
      const outcome = await this.relay.request({ companyId, messageId, connectionId, voice });
      if (outcome === "timeout") {
        // The owner did not answer (dead, or too busy): with "queue" the message waits for it like a reply
        // to a connection that is down (sendQueue.ts); otherwise it fails, with retry. Either only while still
        // pending: an owner that answered late has recorded its own outcome.
        const held = await sendQueueOf(this.ctx).holdIfQueued(companyId, messageId, voice);
        if (held) return { message: held, failure: null };
        const failed = await this.failPending(companyId, messageId);
        if (failed) return { message: failed, failure: "NOT_CONNECTED" };
      }
      const [dto] = await presentMessagesById(this.db, [messageId]);
      const failure = dto!.status !== "failed" ? null : dto!.failureReason?.startsWith("(#131047)") ? "OUTSIDE_WINDOW" : "SEND_FAILED";
      return { message: dto!, failure };
    }
    return this.deliverHere(companyId, messageId, voice);
  }

  /**
   * Marks a message still pending as failed (the bubble's retry), with `reason` as its failure reason when
   * given, drops the send queue's markers and tells the ticket's sockets. `queued` narrows it to a queue state.
   * Returns the message, or null when it was no longer pending (someone else settled it).
   */
  async failPending(
    companyId: number,
    messageId: number,
    options: { reason?: string; queued?: "waiting" | "sending" } = {},
  ): Promise<MessageDTO | null> {
    const [row] = await this.db
      .update(messages)
      .set({
        status: "failed",
        dataJson: options.reason
          ? sql`(coalesce(${messages.dataJson}, '{}'::jsonb) - 'queued' - 'voice') || ${JSON.stringify({ failure: options.reason })}::jsonb`
          : sql`${messages.dataJson} - 'queued' - 'voice' - 'failure'`,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(messages.companyId, companyId),
          eq(messages.id, messageId),
          eq(messages.status, "pending"),
          ...(options.queued ? [sql`(${messages.dataJson}->>'queued') = ${options.queued}`] : []),
        ),
      )
      .returning({ ticketId: messages.ticketId });
    if (!row) return null;
    const [dto] = await presentMessagesById(this.db, [messageId]);
    const [t] = await this.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, row.ticketId)));
    if (t) this.ctx.events.publish({ type: "messages.updated", companyId, message: dto!, scope: scopeOf(t) });
    return dto!;
  }

  /**
   * Delivers through this process's own session of the connection (or fails NOT_CONNECTED). A message this
   * process is handing over already (a relayed request and a queue run for the same reply) is not sent again:
   * the call answers it as it stands (pending) and the first send records the outcome.
   */
  async deliverHere(companyId: number, messageId: number, voice = false): Promise<{ message: MessageDTO; failure: DeliveryFailure | null }> {
    const inFlight = this.relay.inFlight;
    if (inFlight.has(messageId)) {
      const [dto] = await presentMessagesById(this.db, [messageId]);
      return { message: dto!, failure: null };
    }
    inFlight.add(messageId);
    try {
      return await this.sendHere(companyId, messageId, voice);
    } finally {
      inFlight.delete(messageId);
    }
  }

  private async sendHere(companyId: number, messageId: number, voice: boolean): Promise<{ message: MessageDTO; failure: DeliveryFailure | null }> {
    const [row] = await this.db
      .select()
      .from(messages)
      .where(and(eq(messages.id, messageId), eq(messages.companyId, companyId)));
    const m = row!;
    let outcome: { providerMessageId: string | null; status: "sent" | "failed"; reason?: string };
    let failure: DeliveryFailure | null = null;
    try {
      const session = sessionFor(this.ctx, companyId, m.connectionId);
      const to = await addressOfContact(this.db, companyId, m.contactId!);
      const template = (m.dataJson as { template?: TemplateSend } | null)?.template;
      // Cloud API: outside the 24 h window only a template may go — automatic messages (greetings, bot,
      // out-of-hours, ratings), schedules, campaigns and retries fail here instead of reaching the Graph API.
      if (!template && session instanceof CloudApiSession) {
        const w = await customerServiceWindow(this.db, companyId, m.connectionId, m.contactId);
        if (w.applies && !w.open) throw new OutsideWindow();
      }
      if (template) {
        if (!(session instanceof CloudApiSession)) throw new ChannelError("UNSUPPORTED", "templates need a Cloud API connection");
        const result = await session.sendTemplate(to, template);
        outcome = { providerMessageId: result.providerMessageId, status: "sent" };
        return await this.recordOutcome(companyId, m, outcome, failure);
      }
      let content: OutboundContent;
      if (m.mediaPath) {
        const { record, data } = await this.media.load(companyId, m.mediaPath);
        const kind = mediaKindOf(record.mimeType);
        content =
          kind === "audio"
            ? { kind: "audio", data, mimeType: record.mimeType, fileName: record.originalName, voice }
            : { kind, data, mimeType: record.mimeType, fileName: record.originalName, caption: m.body || undefined };
      } else content = { kind: "text", body: m.body };
      let quotedProviderMessageId: string | undefined;
      if (m.quotedMsgId) {
        const [q] = await this.db.select({ pid: messages.providerMessageId }).from(messages).where(eq(messages.id, m.quotedMsgId));
        quotedProviderMessageId = q?.pid ?? undefined;
      }
      const result = await session.send({ to, content, quotedProviderMessageId });
      outcome = { providerMessageId: result.providerMessageId, status: "sent" };
    } catch (err) {
      if (!(err instanceof ChannelError)) this.ctx.log.error({ err }, "send failed");
      outcome = { providerMessageId: null, status: "failed" };
      failure = err instanceof ChannelError ? err.code : "SEND_FAILED";
      // The reason shown on the message: the window refusal, or the Graph API's own words (131047 included).
      if (err instanceof OutsideWindow) outcome.reason = OUTSIDE_WINDOW_REASON;
      else if (err instanceof CloudApiSendError) outcome.reason = err.message;
      if (err instanceof OutsideWindow || (err instanceof CloudApiSendError && [131047, 470].includes(err.graph.code))) failure = "OUTSIDE_WINDOW";
      // The connection is down: with "queue" (sendWhileDisconnected) it waits for the reconnect (sendQueue.ts).
      const held = failure === "NOT_CONNECTED" ? await sendQueueOf(this.ctx).holdIfQueued(companyId, m.id, voice) : null;
      if (held) return { message: held, failure: null };
    }
    return this.recordOutcome(companyId, m, outcome, failure);
  }

  private async recordOutcome(
    companyId: number,
    m: typeof messages.$inferSelect,
    outcome: { providerMessageId: string | null; status: "sent" | "failed"; reason?: string },
    failure: DeliveryFailure | null,
  ): Promise<{ message: MessageDTO; failure: DeliveryFailure | null }> {
    await this.db
      .update(messages)
      .set({
        status: outcome.status,
        // A failure states its own reason, or none (never an earlier attempt's). Settled: no longer queued.
        dataJson: outcome.reason
          ? sql`(coalesce(${messages.dataJson}, '{}'::jsonb) - 'queued' - 'voice') || ${JSON.stringify({ failure: outcome.reason })}::jsonb`
          : outcome.status === "failed"
            ? sql`${messages.dataJson} - 'queued' - 'voice' - 'failure'`
            : sql`${messages.dataJson} - 'queued' - 'voice'`,
        providerMessageId: outcome.providerMessageId,
        // The provider may already have acked (fast simulator); never move an ack backwards.
        ack: outcome.status === "sent" ? sql`greatest(${messages.ack}, 1)` : messages.ack,
        updatedAt: new Date(),
      })
      .where(and(eq(messages.companyId, companyId), eq(messages.id, m.id)));
    const [dto] = await presentMessagesById(this.db, [m.id]);
    const [t] = await this.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, m.ticketId)));
    if (t) this.ctx.events.publish({ type: "messages.updated", companyId, message: dto!, scope: scopeOf(t) });
    return { message: dto!, failure };
  }

  /** Sends a failed message again. */
  async retry(actor: Actor, messageId: number): Promise<MessageDTO> {
    const m = await this.ownMessage(actor, messageId);
    if (m.status !== "failed") return (await presentMessagesById(this.db, [m.id]))[0]!;
    await this.db.update(messages).set({ status: "pending", updatedAt: new Date() }).where(eq(messages.id, m.id));
    const result = await this.deliver(actor.companyId, m.id, false);
    if (result.status === "failed") throw new AppError("ERR_SENDING_WAPP_MSG", 400, { messageId: m.id });
    return result;
  }

  private async ownMessage(actor: Actor, messageId: number) {
    const [m] = await this.db
      .select()
      .from(messages)
      .where(and(eq(messages.id, messageId), eq(messages.companyId, actor.companyId)))
      .limit(1);
    if (!m) throw notFound("ERR_NOT_FOUND");
    const t = await this.visibleTicket(actor, m.ticketId);
    if (!m.fromMe || !ticketPolicy.handle(actor, t)) throw forbidden();
    return m;
  }

  /** Deletes one's own message for everyone (spec §2); ERR_DELETE_WAPP_MSG when WhatsApp refuses. */
  async remove(actor: Actor, messageId: number): Promise<MessageDTO> {
    const m = await this.ownMessage(actor, messageId);
    if (m.isDeleted) return (await presentMessagesById(this.db, [m.id]))[0]!;
    if (m.providerMessageId) {
      // Through the connection's owner when another process runs it (sendRelay.ts).
      const refused =
        m.connectionId === null || m.contactId === null
          ? "NOT_CONNECTED"
          : await this.relay.onSession({
              kind: "delete",
              companyId: actor.companyId,
              connectionId: m.connectionId,
              contactId: m.contactId,
              providerMessageId: m.providerMessageId,
            });
      if (refused) throw new AppError("ERR_DELETE_WAPP_MSG", 400);
    }
    const previewChanged = await this.db.transaction(async (tx) => {
      await tx
        .update(messages)
        .set({ isDeleted: true, updatedAt: new Date() })
        .where(and(eq(messages.companyId, actor.companyId), eq(messages.id, m.id)));
      return this.refreshPreviewAfterDelete(tx, actor.companyId, m.ticketId, m.id);
    });
    const [dto] = await presentMessagesById(this.db, [m.id]);
    const [t] = await this.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.companyId, actor.companyId), eq(tickets.id, m.ticketId)));
    this.ctx.events.publish({ type: "messages.updated", companyId: actor.companyId, message: dto!, scope: scopeOf(t!) });
    if (previewChanged) {
      const ticket = await presentTicketById(this.db, actor.companyId, m.ticketId);
      if (ticket) this.ctx.events.publish({ type: "tickets.updated", companyId: actor.companyId, ticket });
    }
    return dto!;
  }

  /**
   * A deleted message that was the ticket's latest no longer stands as its list preview (issue 16): the preview
   * becomes the latest message still shown, or empty. Whether it changed, so the caller tells the lists.
   */
  private async refreshPreviewAfterDelete(tx: Tx, companyId: number, ticketId: number, deletedId: number): Promise<boolean> {
    const latest = (shownOr?: number) =>
      tx
        .select({ id: messages.id, mediaType: messages.mediaType, body: messages.body, mediaName: messages.mediaName })
        .from(messages)
        .where(
          and(
            eq(messages.companyId, companyId),
            eq(messages.ticketId, ticketId),
            shownOr === undefined ? eq(messages.isDeleted, false) : or(eq(messages.isDeleted, false), eq(messages.id, shownOr)),
          ),
        )
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(1);
    // Was it the latest message shown before it went? Otherwise the preview is another message's.
    const [newest] = await latest(deletedId);
    if (newest?.id !== deletedId) return false;
    const [shown] = await latest();
    const lastMessage = shown ? previewOf(shown.mediaType, shown.body, shown.mediaName) : "";
    await tx
      .update(tickets)
      .set({ lastMessage })
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));
    return true;
  }

  /** Used by the inbound pipeline and automatic messages: sends text on a ticket as the company. */
  async sendAutomatic(companyId: number, ticketId: number, body: string): Promise<MessageDTO | null> {
    const [t] = await this.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.id, ticketId), eq(tickets.companyId, companyId)));
    if (!t || !body.trim()) return null;
    const [row] = await this.db
      .insert(messages)
      .values({ companyId, ticketId, contactId: t.contactId, connectionId: t.connectionId, body, fromMe: true, read: true, status: "pending" })
      .returning({ id: messages.id });
    const ticket = (await presentTicketById(this.db, companyId, t.id))!;
    const [message] = await presentMessagesById(this.db, [row!.id]);
    this.ctx.events.publish({ type: "messages.created", companyId, message: message!, ticket });
    return this.deliver(companyId, row!.id, false);
  }

  /**
   * Reacts to a message of a ticket the actor handles (Cloud API only: the other providers' reactions are
   * not exposed). A reaction is a free-form message, so the 24 h window applies. "" removes the reaction.
   */
  async react(actor: Actor, messageId: number, emoji: string): Promise<void> {
    const [m] = await this.db
      .select({ id: messages.id, ticketId: messages.ticketId, providerMessageId: messages.providerMessageId })
      .from(messages)
      .where(and(eq(messages.id, messageId), eq(messages.companyId, actor.companyId)))
      .limit(1);
    if (!m) throw notFound("ERR_NOT_FOUND");
    const t = await this.visibleTicket(actor, m.ticketId);
    if (!ticketPolicy.handle(actor, t)) throw forbidden();
    if (t.status !== "open") throw new AppError("ERR_TICKET_NOT_OPEN", 400);
    if (!m.providerMessageId || t.connectionId === null) throw new AppError("ERR_SENDING_WAPP_MSG", 400);
    await assertCustomerServiceWindow(this.db, actor.companyId, t);
    const refused = await this.relay.onSession({
      kind: "react",
      companyId: actor.companyId,
      connectionId: t.connectionId,
      contactId: t.contactId,
      providerMessageId: m.providerMessageId,
      emoji,
    });
    if (refused) throw new AppError("ERR_SENDING_WAPP_MSG", 400);
    // Kept where the customer's reactions are (issue 21): the bubble shows it, the ticket's sockets hear of it.
    if (await storeReaction(this.db, actor.companyId, m.id, OWN_REACTION_SENDER, emoji)) {
      const [dto] = await presentMessagesById(this.db, [m.id]);
      this.ctx.events.publish({ type: "messages.updated", companyId: actor.companyId, message: dto!, scope: scopeOf(t) });
    }
  }

  /** Ticket DTO helper for events raised outside a request. */
  ticketDto(companyId: number, ticketId: number): Promise<TicketDTO | null> {
    return presentTicketById(this.db, companyId, ticketId);
  }
}

type PageForm = "before" | "first" | "offset";

function buildPage(db: DbOrTx, form: PageForm, withConnection: boolean) {
  // The ticket's contact and connection as scalar sub-selects (read once per execution, then the index's keys),
  // so the page needs no earlier read of the ticket (MessagesService.list).
  const ofTicket = (column: "contact_id" | "connection_id") =>
    sql`(select t.${sql.raw(column)} from tickets t where t.id = ${sql.placeholder("ticketId")} and t.company_id = ${sql.placeholder("companyId")})`;
  const conversation = and(
    eq(messages.companyId, sql.placeholder("companyId")),
    eq(messages.contactId, ofTicket("contact_id")),
    withConnection ? eq(messages.connectionId, ofTicket("connection_id")) : sql`${messages.connectionId} is null`,
  );
  const name = `messages_page_${form}_${withConnection ? "conn" : "noconn"}`;
  const newestFirst = [desc(messages.createdAt), desc(messages.id)] as const;
  if (form === "offset") {
    // The page's ids first: a message's reactions and earlier texts (sub-selects of selectMessages) are then read
    // for the page's rows only, not for every newer row OFFSET walks past (×5 at page 2,500 of 50k messages).
    const pageIds = db
      .select({ id: messages.id })
      .from(messages)
      .where(conversation)
      .orderBy(...newestFirst)
      .limit(MESSAGES_PAGE_SIZE + 1)
      .offset(sql.placeholder("offset"));
    return selectMessages(db)
      .where(and(eq(messages.companyId, sql.placeholder("companyId")), inArray(messages.id, pageIds)))
      .orderBy(...newestFirst)
      .prepare(name);
  }
  const query = selectMessages(db)
    .where(
      form === "before"
        ? and(
            conversation,
            sql`(${messages.createdAt}, ${messages.id}) < (select m2.created_at, m2.id from messages m2 where m2.id = ${sql.placeholder("beforeId")} and m2.company_id = ${sql.placeholder("companyId")})`,
          )
        : conversation,
    )
    .orderBy(...newestFirst)
    .limit(MESSAGES_PAGE_SIZE + 1);
  return query.prepare(name);
}

/**
 * The conversation's page query in each form of its text (keyset, first page — drizzle writes no OFFSET 0 —,
 * OFFSET; a ticket without connection reads "is null"): each built once with placeholders (db/statement.ts) and
 * named, so drizzle writes each SQL once and each pooled connection plans it once, as the page of every
 * conversation opened.
 */
const pageForms = new Map(
  (["before", "first", "offset"] as const).flatMap((form) =>
    [true, false].map((withConnection) => [`${form}_${withConnection}`, statement((db) => buildPage(db, form, withConnection))] as const),
  ),
);

function messagesPage(db: DbOrTx, form: PageForm, withConnection: boolean) {
  return pageForms.get(`${form}_${withConnection}`)!(db);
}
