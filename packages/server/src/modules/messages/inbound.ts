import { dateTimeFormat } from "@balcao/shared";
import { and, eq, sql } from "drizzle-orm";
import { readCache } from "../../cache/readCache";
import type { AppContext } from "../../context";
import { isUniqueViolation, type Tx } from "../../db/client";
import { statement } from "../../db/statement";
import { companies, messages, tickets } from "../../db/schema";
import type { ChannelEvent, InboundMessage } from "../../channels/types";
import type { DomainEvent } from "../../events/bus";
import { resolveInboundContact, type ContactRow } from "../contacts/identity";
import { presentContact } from "../contacts/presenter";
import { MediaStore } from "../media/service";
import { insertPendingTicket } from "../tickets/cycles";
import type { TicketScope } from "../tickets/policy";
import { presentTicketById, presentTicketRow, selectTicketsWithTags, ticketContactOf, type TicketRowShown } from "../tickets/presenter";
import { previewOf } from "./labels";
import { presentMessage, presentMessagesById } from "./presenter";
import { applyEdit, OWN_REACTION_SENDER, storeReaction } from "./reactions";
import { sessionFor } from "./gateway";
import type { MessagesService } from "./service";

export interface ChannelSource {
  companyId: number;
  connectionId: number;
}

type TicketRecord = typeof tickets.$inferSelect;
type StoredMessage = { messageId: number; ticket: TicketRecord; created: boolean; claim?: InboundClaim };
/** A text message waiting for its connection's next batch, and who waits for its stored id. */
type Waiting = { msg: InboundMessage; resolve: (messageId: number | null) => void; reject: (err: unknown) => void };
/** A connection's messages waiting for a batch, and how many of its batches are being stored. */
type ConnectionBatch = { waiting: Waiting[]; running: number };
/** The most messages one batch stores: bounds how long its transaction holds its tickets' locks. */
const MAX_BATCH = 32;
/**
 * A connection's batches stored at once, on as many pooled connections: with one, PostgreSQL ran a busy
 * connection's statements one after another on one backend (the embedded default's closed loop lost 13%); two keep
 * both cores working while the batches still grow under load (bench/README.md, "inbound").
 */
const BATCHES_IN_FLIGHT = 2;
/** Advisory lock namespace (with the contact id) of opening a contact's ticket. */
const OPEN_TICKET_LOCK = 7_243_102;
type QuotedRow = { id: number; body: string; fromMe: boolean; mediaType: string; isDeleted: boolean };
const scopeOf = (t: TicketRecord): TicketScope => ({ userId: t.userId, queueId: t.queueId, status: t.status });
/** The message a provider knows by this id on this connection (the unique index's columns). */
const ofProviderId = (source: ChannelSource, providerMessageId: string) =>
  and(eq(messages.companyId, source.companyId), eq(messages.connectionId, source.connectionId), eq(messages.providerMessageId, providerMessageId));

/**
 * A contact's live ticket on a connection, locked, with what its DTO shows (contact, attendant, queue, connection,
 * tags), so the usual message builds its event from rows in hand (issue 20). Built once and named: drizzle writes
 * its SQL once, and each pooled connection parses and plans this five-table join once, not per message.
 */
const liveTicketOf = statement((tx) =>
  selectTicketsWithTags(tx)
    .where(
      and(
        eq(tickets.companyId, sql.placeholder("companyId")),
        eq(tickets.contactId, sql.placeholder("contactId")),
        eq(tickets.connectionId, sql.placeholder("connectionId")),
        // A literal: the text then shows the live-ticket unique index's predicate, for a generic plan too.
        sql`${tickets.status} <> 'closed'`,
      ),
    )
    .limit(1)
    .for("update", { of: tickets })
    .prepare("inbound_live_ticket"),
);

/** What a stored message does to its ticket's unread count: our own resets it, a claimed one leaves it. */
type UnreadChange = "reset" | "keep" | "increment";

/**
 * A customer's (or our own, from another device) message as the pipeline stores it, with its ticket's preview and
 * unread count in the same statement (a data-modifying WITH: one round trip less per message); built once (issue 20).
 */
const storeMessage = statement((tx) => {
  const value = (name: string) => sql.placeholder(name);
  const ticketChange = tx.$with("ticket_change", {}).as(
    sql`update tickets set last_message = ${value("lastMessage")}, last_message_at = ${value("lastMessageAt")}, updated_at = ${value("updatedAt")},
          unread_messages = case ${value("unread")}::text when 'reset' then 0 when 'keep' then unread_messages else unread_messages + 1 end
        where id = ${value("ticketId")} and company_id = ${value("companyId")}`,
  );
  return tx
    .with(ticketChange)
    .insert(messages)
    .values({
      companyId: value("companyId"),
      ticketId: value("ticketId"),
      contactId: value("contactId"),
      connectionId: value("connectionId"),
      providerMessageId: value("providerMessageId"),
      remoteJid: value("remoteJid"),
      participant: value("participant"),
      body: value("body"),
      fromMe: value("fromMe"),
      read: value("fromMe"),
      mediaType: value("mediaType"),
      mediaPath: value("mediaPath"),
      mediaName: value("mediaName"),
      mimeType: value("mimeType"),
      quotedMsgId: value("quotedMsgId"),
      // Our own messages, sent from another device, are sent already.
      ack: sql`case when ${value("fromMe")}::boolean then 1 else 0 end`,
      status: "sent",
      createdAt: value("createdAt"),
    })
    .returning()
    .prepare("inbound_store_message");
});

/** Spec §2 text of a missed call, in the company's clock. */
export function missedCallText(at: Date, timeZone: string): string {
  const time = dateTimeFormat("pt-BR", { timeZone, hour: "2-digit", minute: "2-digit", hour12: false }).format(at);
  return `Chamada de voz/vídeo perdida às ${time}`;
}

export const CALLS_DISABLED_TEXT =
  "*Mensagem Automática:*\n\nAs chamadas de voz e vídeo estão desabilitadas para esse WhatsApp, favor enviar uma mensagem de texto. Obrigado";

/**
 * Extension point of the pipeline (docs/decisions.md "Inbound interceptors"): when a customer message
 * would open a new ticket (its contact has no live ticket on this connection), each registered
 * interceptor may first claim it for an existing ticket of that contact, e.g. the closed ticket whose
 * rating prompt it answers. A claimed message is stored on that ticket, which is left as it is (no new
 * ticket, no reopening, no unread count, no `messages.received`); `afterCommit` runs once the message
 * is stored and its events are published. `claim` runs inside the storing transaction: use `tx`.
 */
export interface InboundInterceptor {
  name: string;
  claim(tx: Tx, input: { source: ChannelSource; contactId: number; message: InboundMessage }): Promise<InboundClaim | null>;
}

export interface InboundClaim {
  ticketId: number;
  afterCommit?: () => Promise<void>;
}

/**
 * The inbound pipeline every provider feeds (DESIGN §4.6): message → contact → ticket → stored message
 * → events. Idempotent per provider message id, so a provider's redelivery is harmless.
 */
export class InboundPipeline {
  private readonly media: MediaStore;
  private interceptors: InboundInterceptor[] = [];
  /** Per connection ("companyId:connectionId"), the text messages waiting for its next batch (see `enqueue`). */
  private readonly batches = new Map<string, ConnectionBatch>();

  constructor(
    private readonly ctx: AppContext,
    private readonly messagesService: MessagesService,
  ) {
    this.media = new MediaStore(ctx);
  }

  private get db() {
    return this.ctx.database.db;
  }

  /** Registers an interceptor (see InboundInterceptor); returns the function that removes it. */
  intercept(interceptor: InboundInterceptor): () => void {
    this.interceptors.push(interceptor);
    return () => {
      this.interceptors = this.interceptors.filter((i) => i !== interceptor);
    };
  }

  async handle(source: ChannelSource, event: ChannelEvent): Promise<void> {
    switch (event.type) {
      case "message":
        await this.receive(source, event.message);
        return;
      case "ack":
        await this.updateByProviderId(source, event.providerMessageId, { ack: sql`greatest(${messages.ack}, ${event.ack})` });
        return;
      case "failed":
        // The provider's reason (e.g. the Cloud API's "(#131026) Message undeliverable") is kept for the message's view.
        await this.updateByProviderId(source, event.providerMessageId, {
          status: "failed",
          dataJson: sql`coalesce(${messages.dataJson}, '{}'::jsonb) || jsonb_build_object('failure', ${event.error}::text)`,
        });
        return;
      case "deleted":
        await this.updateByProviderId(source, event.providerMessageId, { isDeleted: true }, false);
        return;
      case "call":
        if (event.status === "offer" || event.status === "missed") await this.missedCall(source, event);
        return;
      case "reaction":
        await this.reaction(source, event);
        return;
      case "edited":
        await this.edited(source, event);
        return;
      default:
        return;
    }
  }

  /** A company setting, from the process's read cache (issue 20; dropped by `settings.updated`). */
  private setting(companyId: number, key: string): Promise<string | undefined> {
    return readCache(this.ctx).setting(companyId, key);
  }

  /**
   * The contact's live ticket on this connection, else a new pending one (a new attendance cycle). `shown`: the
   * ticket's row with what its DTO shows, when in hand (a live ticket, locked since read, or the new one).
   */
  private async liveTicket(
    tx: Tx,
    source: ChannelSource,
    contact: ContactRow,
    msg: InboundMessage,
    newContact: boolean,
  ): Promise<{ ticket: TicketRecord; shown?: TicketRowShown; created: boolean; claim?: InboundClaim }> {
    const contactId = contact.id;
    const findLive = async () => {
      const [live] = await liveTicketOf(tx).execute({ companyId: source.companyId, contactId, connectionId: source.connectionId });
      return live;
    };
    // A contact created by this transaction is seen by no other until it commits: it has no ticket, and no
    // interceptor's ticket (a rating awaited) can be its; it goes straight to its first ticket (issue 20: the
    // first message of 200 new customers arriving at once).
    if (!newContact) {
      const live = await findLive();
      if (live) return { ticket: live.ticket, shown: live, created: false };
      // Chats run concurrently (issue 20): two addresses of one person (a LID and a phone, the 9th digit) may
      // reach here at once. The first to lock the contact opens the ticket; the other then finds it.
      await tx.execute(sql`select pg_advisory_xact_lock(${OPEN_TICKET_LOCK}, ${contactId})`);
      const opened = await findLive();
      if (opened) return { ticket: opened.ticket, shown: opened, created: false };
    }
    if (!msg.fromMe && !newContact)
      for (const interceptor of this.interceptors) {
        const claim = await interceptor.claim(tx, { source, contactId, message: msg });
        if (!claim) continue;
        const [claimed] = await tx
          .select()
          .from(tickets)
          .where(and(eq(tickets.id, claim.ticketId), eq(tickets.companyId, source.companyId), eq(tickets.contactId, contactId)))
          .limit(1);
        if (claimed) return { ticket: claimed, created: false, claim };
      }
    const [opened] = await insertPendingTicket(tx).execute({
      companyId: source.companyId,
      contactId,
      connectionId: source.connectionId,
      isGroup: contact.isGroup,
      queuedAt: new Date(),
    });
    const { ticket, connectionName } = opened!;
    // A new ticket has no attendant, queue or tag yet.
    const shown = { ticket, contact: ticketContactOf(contact), userName: null, queueName: null, queueColor: null, connectionName, tags: [] };
    return { ticket, shown, created: true };
  }

  async receive(source: ChannelSource, msg: InboundMessage): Promise<number | null> {
    if (msg.chat.kind === "group" && (await this.setting(source.companyId, "CheckMsgIsGroup")) === "enabled") return null;
    // A media message writes its file in its transaction: it goes alone.
    if (msg.media) return this.storeAlone(source, msg);
    return this.enqueue(source, msg);
  }

  /**
   * Stores one message in a transaction of its own, with its events (one outbox write, durable with the message);
   * null for a redelivery. What every message did before the batches (issue 20), and what a message of a batch
   * that failed does again.
   */
  private async storeAlone(source: ChannelSource, msg: InboundMessage): Promise<number | null> {
    let stored: StoredMessage | null;
    try {
      [stored = null] = await this.storeTogether(source, [msg]);
    } catch (err) {
      // Two deliveries of one message raced: the unique index kept one.
      if (isUniqueViolation(err, "messages_company_connection_provider_id_uq")) return null;
      throw err;
    }
    if (!stored) return null;
    // The commit's NOTIFY wakes the outbox groups that handle these events (events/bus.ts), in this process too.
    await this.afterCommit(stored);
    return stored.messageId;
  }

  /** Stores messages in one transaction, in order, with all their events in one outbox write. */
  private storeTogether(source: ChannelSource, msgs: InboundMessage[]): Promise<(StoredMessage | null)[]> {
    return this.db.transaction(async (tx) => {
      const events: DomainEvent[] = [];
      const results: (StoredMessage | null)[] = [];
      for (const msg of msgs) results.push(await this.store(tx, source, msg, events));
      await this.ctx.events.record(tx, ...events);
      return results;
    });
  }

  private async afterCommit(stored: StoredMessage): Promise<void> {
    if (stored.claim) await stored.claim.afterCommit?.().catch((err) => this.ctx.log.error({ err }, "inbound interceptor failed"));
  }

  /**
   * Queues a text message on its connection's batch (issue 20): while `BATCHES_IN_FLIGHT` transactions of the
   * connection store its messages, the messages that arrive meanwhile wait and are then stored together, in arrival
   * order, in the next one, with one outbox write and one commit for all of them. A lone message goes at once, as
   * before. Each chat has at most one message in flight (the channel manager's lanes), so a batch keeps every
   * customer's order.
   */
  private enqueue(source: ChannelSource, msg: InboundMessage): Promise<number | null> {
    const key = `${source.companyId}:${source.connectionId}`;
    const queue = this.batches.get(key) ?? { waiting: [], running: 0 };
    this.batches.set(key, queue);
    return new Promise((resolve, reject) => {
      queue.waiting.push({ msg, resolve, reject });
      if (queue.running < BATCHES_IN_FLIGHT) void this.drain(key, source, queue);
    });
  }

  private async drain(key: string, source: ChannelSource, queue: ConnectionBatch): Promise<void> {
    queue.running++;
    try {
      while (queue.waiting.length > 0) await this.storeBatch(source, queue.waiting.splice(0, MAX_BATCH));
    } finally {
      queue.running--;
      if (queue.running === 0 && queue.waiting.length === 0 && this.batches.get(key) === queue) this.batches.delete(key);
    }
  }

  private async storeBatch(source: ChannelSource, batch: Waiting[]): Promise<void> {
    const alone = async (item: Waiting) => {
      try {
        item.resolve(await this.storeAlone(source, item.msg));
      } catch (err) {
        item.reject(err);
      }
    };
    if (batch.length === 1) return alone(batch[0]!);
    let stored: (StoredMessage | null)[];
    try {
      stored = await this.storeTogether(
        source,
        batch.map((item) => item.msg),
      );
    } catch {
      // One of them was refused (a redelivery's unique index, a deadlock with another connection's batch…): the
      // transaction stored none of them, so each goes again alone, as if it had come by itself.
      for (const item of batch) await alone(item);
      return;
    }
    for (const [i, item] of batch.entries()) {
      const result = stored[i] ?? null;
      if (result) await this.afterCommit(result);
      item.resolve(result?.messageId ?? null);
    }
  }

  /** Stores one message in `tx`, its events added to `events`; null when it is a redelivery (media checked first). */
  private async store(tx: Tx, source: ChannelSource, msg: InboundMessage, events: DomainEvent[]): Promise<StoredMessage | null> {
    // A redelivered text message is refused by the unique index at its insert, which rolls all of this back
    // (caught below): one statement less for every message (issue 20). A media message is checked first,
    // so a redelivery does not write its file again.
    if (msg.media) {
      const [duplicate] = await tx.select({ id: messages.id }).from(messages).where(ofProviderId(source, msg.providerMessageId)).limit(1);
      if (duplicate) return null;
    }
    const { contact, created: newContact } = await resolveInboundContact(tx, source.companyId, source.connectionId, msg.chat, msg.chat.pushName);
    const { ticket, shown, created, claim } = await this.liveTicket(tx, source, contact, msg, newContact);
    const file = msg.media ? await this.media.save(tx, source.companyId, msg.media.data, msg.media.fileName, msg.media.mimeType) : null;
    let quoted: QuotedRow | null = null;
    if (msg.quotedProviderMessageId) {
      const [q] = await tx
        .select({ id: messages.id, body: messages.body, fromMe: messages.fromMe, mediaType: messages.mediaType, isDeleted: messages.isDeleted })
        .from(messages)
        .where(ofProviderId(source, msg.quotedProviderMessageId))
        .limit(1);
      quoted = q ?? null;
    }
    const changes = {
      lastMessage: previewOf(msg.kind, msg.body, file?.originalName),
      lastMessageAt: msg.timestamp,
      updatedAt: new Date(),
    };
    const unread: UnreadChange = msg.fromMe ? "reset" : claim ? "keep" : "increment";
    const [row] = await storeMessage(tx).execute({
      ...changes,
      unread,
      companyId: source.companyId,
      ticketId: ticket.id,
      contactId: contact.id,
      connectionId: source.connectionId,
      providerMessageId: msg.providerMessageId,
      remoteJid: msg.chat.id.slice(0, 100),
      participant: msg.participant ? (msg.participant.pushName || msg.participant.id).slice(0, 100) : null,
      body: msg.body,
      fromMe: msg.fromMe,
      mediaType: msg.kind,
      mediaPath: file?.id ?? null,
      mediaName: file?.originalName ?? null,
      mimeType: file?.mimeType ?? null,
      quotedMsgId: quoted?.id ?? null,
      createdAt: msg.timestamp,
    });
    // A live ticket is locked since it was read, a new one is this transaction's: the DTO is that row with the
    // changes above.
    const ticketDto = shown
      ? presentTicketRow({ ...shown, ticket: { ...shown.ticket, ...changes, unreadMessages: msg.fromMe ? 0 : shown.ticket.unreadMessages + 1 } })
      : (await presentTicketById(tx, source.companyId, ticket.id))!;
    const message = presentMessage({ message: row!, contactName: contact.name, quoted });
    events.push(
      // A person writing for the first time is a new contact: the contacts page and webhooks hear of it.
      ...(newContact ? [{ type: "contacts.created" as const, companyId: source.companyId, contact: presentContact(contact) }] : []),
      { type: "tickets.updated", companyId: source.companyId, ticket: ticketDto },
      { type: "messages.created", companyId: source.companyId, message, ticket: ticketDto },
      ...(claim || msg.fromMe
        ? []
        : [
            {
              type: "messages.received" as const,
              companyId: source.companyId,
              messageId: row!.id,
              ticketId: ticket.id,
              ticketCreated: created,
              connectionId: source.connectionId,
              contactId: contact.id,
              body: row!.body,
              mediaType: row!.mediaType,
              ticket: { status: ticket.status, userId: ticket.userId, queueId: ticket.queueId, isGroup: ticket.isGroup },
            },
          ]),
    );
    return { messageId: row!.id, ticket, created, claim };
  }

  private async updateByProviderId(
    source: ChannelSource,
    providerMessageId: string,
    set: Partial<Record<keyof typeof messages.$inferInsert, unknown>>,
    fromMe?: boolean,
  ) {
    const conditions = [ofProviderId(source, providerMessageId)];
    if (fromMe !== undefined) conditions.push(eq(messages.fromMe, fromMe));
    const [row] = await this.db
      .update(messages)
      .set({ ...(set as object), updatedAt: new Date() })
      .where(and(...conditions))
      .returning({ id: messages.id, ticketId: messages.ticketId });
    if (!row) return;
    const [t] = await this.db.select().from(tickets).where(eq(tickets.id, row.ticketId));
    const [message] = await presentMessagesById(this.db, [row.id]);
    if (t) this.ctx.events.publish({ type: "messages.updated", companyId: source.companyId, message: message!, scope: scopeOf(t) });
  }

  /**
   * A reaction (issue 21) lands on the message it targets, by provider id within the connection; a reaction to a
   * message we never stored is dropped. The ticket's sockets get the message again (appMessage "update").
   */
  private async reaction(source: ChannelSource, event: Extract<ChannelEvent, { type: "reaction" }>): Promise<void> {
    const [m] = await this.db
      .select({ id: messages.id, ticketId: messages.ticketId })
      .from(messages)
      .where(ofProviderId(source, event.providerMessageId))
      .limit(1);
    if (!m) return;
    const sender = event.fromMe ? OWN_REACTION_SENDER : (event.sender ?? event.chat).id;
    if (await storeReaction(this.db, source.companyId, m.id, sender, event.emoji)) await this.publishUpdated(source.companyId, m.id, m.ticketId);
  }

  /** An edit (issue 21): the new text replaces the body, the old one is kept in the message's history. */
  private async edited(source: ChannelSource, event: Extract<ChannelEvent, { type: "edited" }>): Promise<void> {
    const outcome = await this.db.transaction((tx) =>
      applyEdit(
        tx,
        { ...source, providerMessageId: event.providerMessageId, fromMe: event.fromMe },
        { body: event.body, editId: event.editId, at: event.timestamp },
      ),
    );
    if (!outcome) return;
    await this.publishUpdated(source.companyId, outcome.messageId, outcome.ticketId);
    if (outcome.previewChanged) {
      const ticket = await presentTicketById(this.db, source.companyId, outcome.ticketId);
      if (ticket) this.ctx.events.publish({ type: "tickets.updated", companyId: source.companyId, ticket });
    }
  }

  private async publishUpdated(companyId: number, messageId: number, ticketId: number): Promise<void> {
    const [t] = await this.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));
    const [message] = await presentMessagesById(this.db, [messageId]);
    if (t && message) this.ctx.events.publish({ type: "messages.updated", companyId, message, scope: scopeOf(t) });
  }

  /** A call is recorded as a call_log message; with the `call` setting disabled it is rejected and answered. */
  private async missedCall(source: ChannelSource, event: Extract<ChannelEvent, { type: "call" }>): Promise<void> {
    const callsDisabled = (await this.setting(source.companyId, "call")) === "disabled";
    if (callsDisabled && event.status === "offer") {
      // sessionFor throws at once when no live session exists: the call is still logged and answered.
      await Promise.resolve()
        .then(() => sessionFor(this.ctx, source.companyId, source.connectionId).rejectCall(event.callId, event.from))
        .catch(() => undefined);
    }
    const [company] = await this.db.select({ timeZone: companies.timeZone }).from(companies).where(eq(companies.id, source.companyId));
    const now = new Date();
    const messageId = await this.receive(source, {
      providerMessageId: `call:${event.callId}`,
      chat: event.from,
      fromMe: false,
      kind: "call_log",
      body: missedCallText(now, company?.timeZone ?? this.ctx.config.defaultTimeZone),
      timestamp: now,
    });
    if (callsDisabled && messageId) {
      const [m] = await this.db.select({ ticketId: messages.ticketId }).from(messages).where(eq(messages.id, messageId));
      if (m) await this.messagesService.sendAutomatic(source.companyId, m.ticketId, CALLS_DISABLED_TEXT);
    }
  }
}
