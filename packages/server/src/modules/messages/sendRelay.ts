/**
 * Work on a WhatsApp session reaches the process that runs the connection. Behind a load balancer a request
 * can land on any process, but only the lease owner holds the session (channels/manager.ts). One relay
 * carries every kind of session work a request may need — sends, deletions for everyone, read receipts:
 * the receiving process asks over NOTIFY `balcao_send`, the owner does the work exactly as it would for its
 * own request and answers on `balcao_sent` (with the channel error code when the provider refused), and the
 * receiving process then answers the HTTP call with the same result and errors the owner would have given.
 *
 * Sends: the message is already stored as pending; no answer in time (the owner died, or is too busy to
 * answer) queues it when the company's `sendWhileDisconnected` is "queue" (it stays pending and the send queue
 * delivers it through the owner that answers next, sendQueue.ts), else leaves it failed, with retry
 * (messages/service.ts). Never twice: the owner only sends a message still pending and not queued by a
 * requester that gave up on it, and one process never hands the same message over twice at once (`inFlight`).
 * Deletions: no answer in time is the provider's refusal (ERR_DELETE_WAPP_MSG), nothing is marked deleted.
 * Read receipts: a courtesy; the caller does not fail when the owner does not answer.
 */
import { randomBytes } from "node:crypto";
import { and, eq, gt, ne, sql } from "drizzle-orm";
import type { AppContext } from "../../context";
import { connectionLeases, messages } from "../../db/schema";
import { ChannelError } from "../../channels/types";
import { CloudApiSession } from "../../channels/cloudapi/provider";
import { addressOfContact, sessionFor } from "./gateway";
import { perContext } from "../../perContext";

const SEND = "balcao_send";
const SENT = "balcao_sent";

interface Target {
  companyId: number;
  connectionId: number;
}

type ChannelErrorCode = ChannelError["code"];

export type RelayRequest =
  | (Target & { kind: "send"; messageId: number; voice: boolean })
  | (Target & { kind: "delete"; contactId: number; providerMessageId: string })
  | (Target & { kind: "read"; contactId: number; providerMessageIds: string[] })
  | (Target & { kind: "react"; contactId: number; providerMessageId: string; emoji: string });

interface Envelope {
  id: string;
  request: RelayRequest;
}

interface Answer {
  id: string;
  /** The provider's refusal, as the owner saw it; null when the work was done. */
  error: ChannelErrorCode | null;
}

export type RelayOutcome = { error: ChannelErrorCode | null } | "timeout";

export type DeliverHere = (companyId: number, messageId: number, voice: boolean) => Promise<unknown>;

/** One relay per app context: every service of the process shares its waiters and its listener. */
export const relayOf = perContext((ctx) => new SendRelay(ctx));

export class SendRelay {
  private readonly waiters = new Map<string, (answer: Answer) => void>();

  private readonly timeoutMs: number;

  private readonly prefix = randomBytes(6).toString("hex");

  private seq = 0;

  /** Messages this process is handing to WhatsApp right now (messages/service.ts deliverHere). */
  readonly inFlight = new Set<number>();

  constructor(private readonly ctx: AppContext) {
    this.timeoutMs = ctx.config.sendRelayTimeoutMs;
  }

  /** Whether another live process owns the connection (so session work here must go through it). */
  async ownedElsewhere(connectionId: number): Promise<boolean> {
    const channels = this.ctx.channels;
    if (channels.isLocal(connectionId)) return false;
    const [lease] = await this.ctx.database.db
      .select({ ownerId: connectionLeases.ownerId })
      .from(connectionLeases)
      .where(
        and(
          eq(connectionLeases.connectionId, connectionId),
          ne(connectionLeases.ownerId, channels.ownerId),
          gt(connectionLeases.expiresAt, new Date()),
        ),
      );
    return !!lease;
  }

  /**
   * Asks the owner to deliver a pending message; resolves when it has, or "timeout" when the wait gave up (the
   * caller then queues or fails the message, messages/service.ts).
   */
  async request(request: Omit<Extract<RelayRequest, { kind: "send" }>, "kind">): Promise<"delivered" | "timeout"> {
    const outcome = await this.ask({ kind: "send", ...request });
    return outcome === "timeout" ? "timeout" : "delivered";
  }

  /**
   * Deletes a message for everyone or marks messages read through the connection's session: here when this
   * process runs it, else on its owner. Returns the provider's refusal (NOT_CONNECTED when nobody answered).
   */
  async onSession(request: Exclude<RelayRequest, { kind: "send" }>): Promise<ChannelErrorCode | null> {
    if (await this.ownedElsewhere(request.connectionId)) {
      // A read receipt is a courtesy: the caller waits for it a little, never the full send timeout.
      const outcome = await this.ask(request, request.kind === "read" ? Math.min(this.timeoutMs, 3000) : this.timeoutMs);
      return outcome === "timeout" ? "NOT_CONNECTED" : outcome.error;
    }
    try {
      await this.doHere(request);
      return null;
    } catch (err) {
      if (err instanceof ChannelError) return err.code;
      this.ctx.log.error({ err, kind: request.kind }, "session work failed");
      return request.kind === "delete" ? "DELETE_FAILED" : "SEND_FAILED";
    }
  }

  private async doHere(request: Exclude<RelayRequest, { kind: "send" }>): Promise<void> {
    const session = sessionFor(this.ctx, request.companyId, request.connectionId);
    const chat = await addressOfContact(this.ctx.database.db, request.companyId, request.contactId);
    if (request.kind === "delete") await session.deleteMessage(chat, request.providerMessageId);
    else if (request.kind === "react") {
      if (!(session instanceof CloudApiSession)) throw new ChannelError("UNSUPPORTED", "reactions need a Cloud API connection");
      await session.react(chat, request.providerMessageId, request.emoji);
    } else await session.markRead(chat, request.providerMessageIds);
  }

  /** Sends one request to the connection's owner and waits for its answer (or the timeout). */
  async ask(request: RelayRequest, timeoutMs = this.timeoutMs): Promise<RelayOutcome> {
    const id = `${this.prefix}-${++this.seq}`;
    const answered = new Promise<Answer>((resolve) => this.waiters.set(id, resolve));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), timeoutMs)));
    try {
      const envelope: Envelope = { id, request };
      await this.ctx.notifications.notify(this.ctx.database.db, SEND, JSON.stringify(envelope));
      const outcome = await Promise.race([answered, timedOut]);
      return outcome === "timeout" ? outcome : { error: outcome.error };
    } finally {
      clearTimeout(timer);
      this.waiters.delete(id);
    }
  }

  /** Serves other processes' requests for the connections this process runs; returns the teardown. */
  listen(deliverHere: DeliverHere): () => void {
    const stopSend = this.ctx.notifications.on(SEND, (payload) => {
      let envelope: Envelope;
      try {
        envelope = JSON.parse(payload) as Envelope;
      } catch {
        return;
      }
      if (!envelope?.request || !this.ctx.channels.isLocal(envelope.request.connectionId)) return;
      void this.serve(envelope, deliverHere);
    });
    const stopSent = this.ctx.notifications.on(SENT, (payload) => {
      let answer: Answer;
      try {
        answer = JSON.parse(payload) as Answer;
      } catch {
        return;
      }
      this.waiters.get(answer.id)?.(answer);
    });
    return () => {
      stopSend();
      stopSent();
    };
  }

  /** Does the work of a request with this process's own session. */
  private async serve({ id, request }: Envelope, deliverHere: DeliverHere): Promise<void> {
    let error: ChannelErrorCode | null = null;
    try {
      const { companyId } = request;
      if (request.kind === "send") {
        const [m] = await this.ctx.database.db
          .select({ status: messages.status, queued: sql<string | null>`${messages.dataJson}->>'queued'` })
          .from(messages)
          .where(and(eq(messages.companyId, companyId), eq(messages.id, request.messageId)));
        // A repeated request, or one the requester gave up on (failed, or queued: the send queue delivers it
        // in its turn): never send twice.
        if (m?.status === "pending" && m.queued !== "waiting") await deliverHere(companyId, request.messageId, request.voice);
      } else await this.doHere(request);
    } catch (err) {
      error = err instanceof ChannelError ? err.code : "SEND_FAILED";
      if (!(err instanceof ChannelError)) this.ctx.log.error({ err, kind: request.kind }, "relayed session work failed");
    } finally {
      const answer: Answer = { id, error };
      await this.ctx.notifications.notify(this.ctx.database.db, SENT, JSON.stringify(answer)).catch(() => undefined);
    }
  }
}
