/**
 * Prometheus metrics (issue 20): GET /metrics, in the text exposition format, for a scraper holding
 * METRICS_TOKEN (`Authorization: Bearer <token>`). Without METRICS_TOKEN nothing is measured and /metrics
 * answers 404 in every environment: the figures (routes, backlog, connections) describe the platform, so they
 * are never open, and a deployment that does not scrape pays nothing (docs/operations.md, "Metrics").
 *
 * - balcao_http_request_duration_seconds{method,route,status_code}: route is Fastify's pattern
 *   (/api/tickets/:ticketId), never the raw URL; hashed assets count as /assets/*, unknown URLs as "unmatched".
 * - balcao_inbound_pipeline_duration_seconds{event}: the inbound pipeline's handling of one channel event
 *   (message, ack…), timed around InboundPipeline.handle from outside, its behaviour unchanged.
 * - balcao_outbox_backlog{consumer}: outbox events each consumer group has not handled yet.
 * - balcao_jobs_backlog{name}: durable jobs waiting or running, by name.
 * - balcao_sockets_connected: Socket.IO clients connected to this process.
 * - balcao_connections{channel,status}: WhatsApp connections of the platform by channel and status.
 * - the default Node.js process metrics (CPU, memory, event loop lag, GC), prefixed balcao_.
 * The backlogs and connections are read from the database at each scrape, over all companies on purpose.
 */
import { timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { App } from "../app";
import type { ChannelEvent } from "../channels/types";
import { pipelines } from "../modules/messages/module";

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const INBOUND_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The route label of a request: its route pattern, with the per-file static routes of dist/assets folded. */
export function routeLabel(pattern: string | undefined): string {
  if (!pattern) return "unmatched";
  return pattern.startsWith("/assets/") ? "/assets/*" : pattern;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function rows<T>(app: App, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await app.ctx.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Outbox events each consumer group has not handled, over every company (listed in test/tenantGuard.ts). */
function metricsOutboxBacklog(app: App) {
  return rows<{ consumer: string; backlog: string }>(
    app,
    sql`select c.consumer, (select count(*) from outbox_events e where (e.txid, e.id) > (c.txid, c.event_id)) as backlog
        from outbox_cursors c`,
  );
}

/** Connections by channel and status, over every company (listed in test/tenantGuard.ts). */
function metricsConnectionsByStatus(app: App) {
  return rows<{ channel: string; status: string; count: string }>(
    app,
    sql`select channel, status, count(*) as count from connections group by channel, status`,
  );
}

/** Registers the HTTP timing hook and GET /metrics; call before the routes it should time. */
export function registerMetrics(app: App): void {
  const token = app.ctx.config.metricsToken;
  // The scrape route exists either way, so the route table (http/access.ts) is the same in every setup.
  const registry = token ? new Registry() : null;
  app.get("/metrics", { schema: { tags: ["metrics"] } }, async (request, reply) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (!registry || !token) return reply.status(404).send({ error: "ERR_NOT_FOUND" });
    if (!given || !sameToken(given, token)) return reply.status(401).header("WWW-Authenticate", "Bearer").send({ error: "ERR_UNAUTHORIZED" });
    const body = await registry.metrics();
    return reply.type(registry.contentType).header("Cache-Control", "no-store").send(body);
  });
  if (!registry) return;

  collectDefaultMetrics({ register: registry, prefix: "balcao_" });
  const http = new Histogram({
    name: "balcao_http_request_duration_seconds",
    help: "HTTP requests by route pattern, method and status code",
    labelNames: ["method", "route", "status_code"],
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  app.addHook("onResponse", async (request, reply) => {
    http.observe(
      { method: request.method, route: routeLabel(request.routeOptions.url), status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  const inbound = new Histogram({
    name: "balcao_inbound_pipeline_duration_seconds",
    help: "Handling of one inbound channel event by the inbound pipeline, by event type",
    labelNames: ["event"],
    buckets: INBOUND_BUCKETS,
    registers: [registry],
  });
  // The pipeline exists once the messages module registered (app.ts registers the routes before ready).
  app.addHook("onReady", async () => {
    const pipeline = pipelines.get(app.ctx);
    if (!pipeline) return;
    const handle = pipeline.handle.bind(pipeline);
    pipeline.handle = async (source, event: ChannelEvent) => {
      const end = inbound.startTimer({ event: event.type });
      try {
        return await handle(source, event);
      } finally {
        end();
      }
    };
  });

  new Gauge({
    name: "balcao_outbox_backlog",
    help: "Outbox events not yet handled, by consumer group",
    labelNames: ["consumer"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await metricsOutboxBacklog(app)) this.set({ consumer: row.consumer }, Number(row.backlog));
    },
  });
  new Gauge({
    name: "balcao_jobs_backlog",
    help: "Durable jobs waiting or running, by name",
    labelNames: ["name"],
    registers: [registry],
    async collect() {
      this.reset();
      if (!app.ctx.database.pool) return;
      for (const [name, count] of Object.entries(await app.ctx.jobs.backlog())) this.set({ name }, count);
    },
  });
  new Gauge({
    name: "balcao_sockets_connected",
    help: "Socket.IO clients connected to this process",
    registers: [registry],
    collect() {
      this.set(app.io?.engine.clientsCount ?? 0);
    },
  });
  new Gauge({
    name: "balcao_connections",
    help: "WhatsApp connections (provider sessions) of the platform, by channel and status",
    labelNames: ["channel", "status"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await metricsConnectionsByStatus(app)) this.set({ channel: row.channel, status: row.status }, Number(row.count));
    },
  });
}
