/**
 * Outgoing webhooks per company (issue 19). Admins subscribe URLs to events; the `webhooks` outbox group turns
 * every matching domain event into one delivery row per subscribed webhook (idempotent per outbox event), and
 * the durable job `webhooks.deliver` POSTs it signed (sender.ts), retrying with exponential backoff. The rows are
 * the delivery log (last status code, response, error) and what "resend" sends again.
 */
import { randomBytes } from "node:crypto";
import { and, asc, desc, eq } from "drizzle-orm";
import { webhookBody, type WebhookDeliveryDTO, type WebhookDeliveryListResponse, type WebhookDTO, type WebhookEventName } from "@balcao/shared";
import type { z } from "zod";
import { readCache } from "../../cache/readCache";
import type { AppContext } from "../../context";
import { webhookDeliveries, webhooks } from "../../db/schema";
import { BACKGROUND_PACE_MS, type DeliveredEvent } from "../../events/bus";
import { AppError, notFound } from "../../http/errors";
import type { Actor } from "../auth/service";
import { requireAdmin } from "../../http/auth";
import { postSigned, RESPONSE_KEEP } from "./sender";
import { assertPublicTarget, PrivateTargetError } from "./ssrf";
import "./events";

export const WEBHOOK_GROUP = "webhooks";
export const WEBHOOK_JOB = "webhooks.deliver";
/** Retries after the first attempt; delays double from RETRY_DELAY_SEC (5, 10, 20, 40, 80 s). */
export const RETRY_LIMIT = 5;
const RETRY_DELAY_SEC = 5;
const DELIVERIES_PAGE = 20;

type WebhookRow = typeof webhooks.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type Input = z.output<typeof webhookBody>;

export interface DeliverJob {
  companyId: number;
  deliveryId: number;
}

const presentWebhook = (w: WebhookRow): WebhookDTO => ({
  id: w.id,
  url: w.url,
  events: w.events as WebhookEventName[],
  secret: w.secret,
  active: w.active,
  createdAt: w.createdAt.toISOString(),
  updatedAt: w.updatedAt.toISOString(),
});

const presentDelivery = (d: DeliveryRow): WebhookDeliveryDTO => ({
  id: d.id,
  webhookId: d.webhookId,
  event: d.event as WebhookEventName,
  status: d.status as WebhookDeliveryDTO["status"],
  attempts: d.attempts,
  lastStatusCode: d.lastStatusCode,
  lastResponse: d.lastResponse,
  lastError: d.lastError,
  lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
  deliveredAt: d.deliveredAt?.toISOString() ?? null,
  createdAt: d.createdAt.toISOString(),
});

/** What a domain event means for webhooks: the event name, what it is about, and the data sent. */
interface Mapped {
  name: WebhookEventName;
  subjectId: number;
  data: unknown;
  /** tickets.updated: the ticket, for the once-per-ticket `ticket.created`. */
  ticket?: { id: number; createdAt: string };
}

function mapEvent(event: DeliveredEvent): Mapped | null {
  switch (event.type) {
    case "messages.created":
      return {
        name: event.message.fromMe ? "message.sent" : "message.received",
        subjectId: event.message.id,
        data: { message: event.message, ticket: event.ticket },
      };
    case "messages.updated":
      return { name: "message.ack", subjectId: event.message.id, data: { message: event.message } };
    case "tickets.updated": {
      const closed = event.ticket.status === "closed" && event.previous !== undefined && event.previous.status !== "closed";
      return {
        name: closed ? "ticket.closed" : "ticket.updated",
        subjectId: event.ticket.id,
        data: { ticket: event.ticket },
        ticket: { id: event.ticket.id, createdAt: event.ticket.createdAt },
      };
    }
    case "contacts.created":
      return { name: "contact.created", subjectId: event.contact.id, data: { contact: event.contact } };
    default:
      return null;
  }
}

export class WebhooksService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  private async assertTarget(url: string): Promise<void> {
    if (this.ctx.config.webhookAllowPrivateTargets) return;
    try {
      await assertPublicTarget(url);
    } catch (err) {
      if (err instanceof PrivateTargetError) throw new AppError("ERR_WEBHOOK_PRIVATE_TARGET", 400);
      throw err;
    }
  }

  private async findScoped(actor: Actor, id: number): Promise<WebhookRow> {
    const [row] = await this.db
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.companyId, actor.companyId), eq(webhooks.id, id)))
      .limit(1);
    if (!row) throw notFound("ERR_NO_WEBHOOK_FOUND");
    return row;
  }

  async list(actor: Actor): Promise<WebhookDTO[]> {
    requireAdmin(actor);
    const rows = await this.db.select().from(webhooks).where(eq(webhooks.companyId, actor.companyId)).orderBy(asc(webhooks.id));
    return rows.map(presentWebhook);
  }

  async create(actor: Actor, input: Input): Promise<WebhookDTO> {
    requireAdmin(actor);
    await this.assertTarget(input.url);
    const row = await this.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(webhooks)
        .values({
          companyId: actor.companyId,
          url: input.url,
          events: [...new Set(input.events)],
          active: input.active,
          secret: randomBytes(24).toString("hex"),
        })
        .returning();
      await this.ctx.events.record(tx, { type: "webhooks.created", companyId: actor.companyId, id: inserted!.id });
      return inserted!;
    });
    return presentWebhook(row);
  }

  async update(actor: Actor, id: number, input: Input): Promise<WebhookDTO> {
    requireAdmin(actor);
    await this.findScoped(actor, id);
    await this.assertTarget(input.url);
    const row = await this.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(webhooks)
        .set({ url: input.url, events: [...new Set(input.events)], active: input.active, updatedAt: new Date() })
        .where(and(eq(webhooks.companyId, actor.companyId), eq(webhooks.id, id)))
        .returning();
      await this.ctx.events.record(tx, { type: "webhooks.updated", companyId: actor.companyId, id });
      return updated!;
    });
    return presentWebhook(row);
  }

  async remove(actor: Actor, id: number): Promise<void> {
    requireAdmin(actor);
    await this.findScoped(actor, id);
    await this.db.transaction(async (tx) => {
      await tx.delete(webhooks).where(and(eq(webhooks.companyId, actor.companyId), eq(webhooks.id, id)));
      await this.ctx.events.record(tx, { type: "webhooks.deleted", companyId: actor.companyId, id });
    });
  }

  async deliveries(actor: Actor, webhookId: number, pageNumber: number): Promise<WebhookDeliveryListResponse> {
    requireAdmin(actor);
    await this.findScoped(actor, webhookId);
    const rows = await this.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.companyId, actor.companyId), eq(webhookDeliveries.webhookId, webhookId)))
      .orderBy(desc(webhookDeliveries.id))
      .limit(DELIVERIES_PAGE + 1)
      .offset((pageNumber - 1) * DELIVERIES_PAGE);
    return { deliveries: rows.slice(0, DELIVERIES_PAGE).map(presentDelivery), hasMore: rows.length > DELIVERIES_PAGE };
  }

  /** Sends a delivery again (whatever its state), with the same id and payload and a fresh signature. */
  async resend(actor: Actor, deliveryId: number): Promise<WebhookDeliveryDTO> {
    requireAdmin(actor);
    const [row] = await this.db
      .update(webhookDeliveries)
      .set({ status: "pending", updatedAt: new Date() })
      .where(and(eq(webhookDeliveries.companyId, actor.companyId), eq(webhookDeliveries.id, deliveryId)))
      .returning();
    if (!row) throw notFound("ERR_NOT_FOUND");
    await this.enqueue(actor.companyId, row.id, `delivery:${row.id}:resend:${Date.now()}`);
    return presentDelivery(row);
  }

  private enqueue(companyId: number, deliveryId: number, key = `delivery:${deliveryId}`) {
    return this.ctx.jobs.enqueue(WEBHOOK_JOB, { companyId, deliveryId } satisfies DeliverJob, { key });
  }

  /** The `webhooks` outbox group: one delivery per subscribed, active webhook of the event's company. */
  async fanOut(event: DeliveredEvent): Promise<void> {
    const mapped = mapEvent(event);
    if (!mapped) return;
    // Read through the cache: this runs for every message and ticket change, and webhooks barely change.
    const hooks = await readCache(this.ctx).activeWebhooks(event.companyId);
    for (const hook of hooks) {
      const events = hook.events as string[];
      // The first event about a ticket opened after the subscription is its `ticket.created` (once per ticket).
      if (mapped.ticket && events.includes("ticket.created") && Date.parse(mapped.ticket.createdAt) >= hook.createdAt.getTime() - 1000) {
        const created = await this.record(hook, event, { ...mapped, name: "ticket.created" });
        if (created) continue;
      }
      if (events.includes(mapped.name)) await this.record(hook, event, mapped);
    }
  }

  private async record(hook: Readonly<WebhookRow>, event: DeliveredEvent, mapped: Mapped): Promise<boolean> {
    const [row] = await this.db
      .insert(webhookDeliveries)
      .values({
        companyId: hook.companyId,
        webhookId: hook.id,
        sourceEventId: String(event.eventId),
        event: mapped.name,
        subjectId: mapped.subjectId,
        payload: mapped.data as object,
      })
      .onConflictDoNothing()
      .returning({ id: webhookDeliveries.id });
    if (!row) return false;
    await this.enqueue(hook.companyId, row.id);
    return true;
  }

  /** The job: one attempt; throws to be retried (backoff) until the last attempt, which marks it failed. */
  async deliver({ companyId, deliveryId }: DeliverJob, attempt: number): Promise<void> {
    const [found] = await this.db
      .select({ delivery: webhookDeliveries, hook: webhooks })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.id, deliveryId)))
      .limit(1);
    if (!found || found.delivery.status === "delivered") return;
    const { delivery, hook } = found;
    const body = JSON.stringify({ id: delivery.id, event: delivery.event, createdAt: delivery.createdAt.toISOString(), data: delivery.payload });
    let statusCode: number | null = null;
    let response: string | null = null;
    let error: string | null = null;
    let final = false;
    try {
      const outcome = await postSigned(hook.url, body, {
        secret: hook.secret,
        event: delivery.event,
        deliveryId: delivery.id,
        allowPrivate: this.ctx.config.webhookAllowPrivateTargets,
      });
      statusCode = outcome.statusCode;
      response = outcome.body.slice(0, RESPONSE_KEEP);
      if (statusCode < 200 || statusCode >= 300) error = `HTTP ${statusCode}`;
    } catch (err) {
      if (err instanceof PrivateTargetError) {
        error = "ERR_WEBHOOK_PRIVATE_TARGET";
        final = true; // Retrying cannot help.
      } else error = ((err as Error)?.message ?? String(err)).slice(0, 500);
    }
    const ok = error === null;
    const last = final || attempt >= RETRY_LIMIT;
    await this.db
      .update(webhookDeliveries)
      .set({
        status: ok ? "delivered" : last ? "failed" : "retrying",
        attempts: delivery.attempts + 1,
        lastStatusCode: statusCode,
        lastResponse: response,
        lastError: error,
        lastAttemptAt: new Date(),
        ...(ok && { deliveredAt: new Date() }),
        updatedAt: new Date(),
      })
      .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.id, delivery.id)));
    if (!ok && !last) throw new Error(`webhook delivery ${delivery.id}: ${error}`);
  }
}

/** The module's background work: the outbox group that fans events out, and the delivery job. */
export function startWebhooks(ctx: AppContext): () => void {
  const service = new WebhooksService(ctx);
  ctx.jobs.register<DeliverJob>(WEBHOOK_JOB, (job) => service.deliver(job.payload, job.attempt), {
    retryLimit: RETRY_LIMIT,
    retryDelaySec: RETRY_DELAY_SEC,
    expireInSeconds: 60,
    concurrency: 2,
  });
  // The cases of mapEvent.
  return ctx.events.subscribe(WEBHOOK_GROUP, (event) => service.fanOut(event), {
    types: ["messages.created", "messages.updated", "tickets.updated", "contacts.created"],
    paceMs: BACKGROUND_PACE_MS,
  });
}
