/**
 * Sends reach the process that runs the connection. Behind a load balancer a reply can land on any process,
 * but only the lease owner holds the WhatsApp session (channels/manager.ts). The message is already stored as
 * pending; the receiving process asks over NOTIFY `balcao_send`, the owner delivers it exactly as it would
 * its own request and answers on `balcao_sent`, and the receiving process then answers the HTTP call with
 * the same result and errors the owner would have given. No answer in time (the owner died mid-request)
 * leaves the message failed, with retry, never half-sent twice: the owner only sends a message still pending.
 */
import { and, eq, gt, ne } from "drizzle-orm";
import type { AppContext } from "../../context";
import { connectionLeases, messages } from "../../db/schema";

const SEND = "balcao_send";
const SENT = "balcao_sent";

interface SendRequest {
  companyId: number;
  messageId: number;
  connectionId: number;
  voice: boolean;
}

export type DeliverHere = (companyId: number, messageId: number, voice: boolean) => Promise<unknown>;

export class SendRelay {
  private readonly waiters = new Map<number, () => void>();

  private readonly timeoutMs: number;

  constructor(private readonly ctx: AppContext) {
    this.timeoutMs = ctx.config.sendRelayTimeoutMs;
  }

  /** Whether another live process owns the connection (so a send here must go through it). */
  async ownedElsewhere(connectionId: number): Promise<boolean> {
    if (this.ctx.channels.isLocal(connectionId)) return false;
    const [lease] = await this.ctx.database.db
      .select({ ownerId: connectionLeases.ownerId })
      .from(connectionLeases)
      .where(
        and(
          eq(connectionLeases.connectionId, connectionId),
          ne(connectionLeases.ownerId, this.ctx.channels.ownerId),
          gt(connectionLeases.expiresAt, new Date()),
        ),
      );
    return !!lease;
  }

  /** Asks the owner to deliver a pending message; resolves when it has (or the wait gave up: then failed). */
  async request(request: SendRequest): Promise<"delivered" | "timeout"> {
    const answered = new Promise<void>((resolve) => this.waiters.set(request.messageId, resolve));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), this.timeoutMs)));
    try {
      await this.ctx.notifications.notify(this.ctx.database.db, SEND, JSON.stringify(request));
      const outcome = await Promise.race([answered.then(() => "delivered" as const), timedOut]);
      if (outcome === "timeout") {
        await this.ctx.database.db
          .update(messages)
          .set({ status: "failed", updatedAt: new Date() })
          .where(and(eq(messages.companyId, request.companyId), eq(messages.id, request.messageId), eq(messages.status, "pending")));
      }
      return outcome;
    } finally {
      clearTimeout(timer);
      this.waiters.delete(request.messageId);
    }
  }

  /** Serves other processes' requests for the connections this process runs; returns the teardown. */
  listen(deliverHere: DeliverHere): () => void {
    const stopSend = this.ctx.notifications.on(SEND, (payload) => {
      let request: SendRequest;
      try {
        request = JSON.parse(payload) as SendRequest;
      } catch {
        return;
      }
      if (!this.ctx.channels.isLocal(request.connectionId)) return;
      void this.serve(request, deliverHere);
    });
    const stopSent = this.ctx.notifications.on(SENT, (payload) => this.waiters.get(Number(payload))?.());
    return () => {
      stopSend();
      stopSent();
    };
  }

  private async serve(request: SendRequest, deliverHere: DeliverHere): Promise<void> {
    try {
      const [m] = await this.ctx.database.db
        .select({ status: messages.status })
        .from(messages)
        .where(and(eq(messages.companyId, request.companyId), eq(messages.id, request.messageId)));
      // A repeated request, or one the requester gave up on: never send twice.
      if (m?.status === "pending") await deliverHere(request.companyId, request.messageId, request.voice);
    } catch (err) {
      this.ctx.log.error({ err, messageId: request.messageId }, "relayed send failed");
    } finally {
      await this.ctx.notifications.notify(this.ctx.database.db, SENT, String(request.messageId)).catch(() => undefined);
    }
  }
}
