/**
 * Connection health center (issue 21).
 *
 * - The timeline: the channel manager records every status change with its mapped reason in
 *   connection_events (channels/manager.ts `recordStatus`) and logs it; `connectionHealth` reads it back with
 *   the time connected over the last 24 h and 7 days, the messages in/out and the last error.
 * - The alert: when a connection leaves CONNECTED, one durable job (`connections.healthAlert`, key
 *   `connection-alert:{id}`) is queued for the company's delay (setting `connectionAlertMinutes`, default 5,
 *   "0" = never), so the delay survives a restart; coming back to CONNECTED cancels it. When the job runs and
 *   the connection is still out of CONNECTED and has not been back since, it records an `alert` entry and the
 *   outbox event `connections.healthAlert`, delivered to the company's admins as the socket event
 *   `whatsappHealthAlert` (toast in the web app). Once per outage: a second run finds the alert entry.
 */
import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import {
  CONNECTION_ALERT_DEFAULT_MINUTES,
  CONNECTION_ALERT_SETTING,
  SCAN_AGAIN_REASONS,
  type ConnectionHealthAlertDTO,
  type ConnectionHealthDTO,
  type ConnectionHealthEventDTO,
  type ConnectionReason,
  type ConnectionStatus,
} from "@balcao/shared";
import type { StatusChange } from "../../channels/manager";
import type { AppContext } from "../../context";
import type { DbOrTx } from "../../db/client";
import { connectionEvents, connections, messages, settings } from "../../db/schema";
import { forCompany } from "../../db/tenant";

export const CONNECTION_ALERT_JOB = "connections.healthAlert";
export const connectionAlertKey = (connectionId: number) => `connection-alert:${connectionId}`;

const DAY_MS = 24 * 3600 * 1000;
const WEEK_MS = 7 * DAY_MS;
const TIMELINE_LIMIT = 100;
/** Reasons that are not errors (asked for, or the normal step after a pairing). */
const NOT_ERRORS: readonly (ConnectionReason | null)[] = [null, "requested", "restartRequired"];

declare module "../../events/bus" {
  interface DomainEvents {
    /** A connection stayed out of CONNECTED longer than the company's setting (admins). */
    "connections.healthAlert": { alert: ConnectionHealthAlertDTO };
  }
}

interface AlertJobPayload {
  companyId: number;
  connectionId: number;
  /** When the connection left CONNECTED (ISO). */
  since: string;
  minutes: number;
}

type EventRow = typeof connectionEvents.$inferSelect;

/** Milliseconds spent CONNECTED between `from` and `to`, given the status changes in time order. */
export function connectedMs(rows: Pick<EventRow, "kind" | "status" | "createdAt">[], from: number, to: number): number {
  let total = 0;
  let connectedSince: number | null = null;
  for (const row of rows) {
    if (row.kind !== "status") continue;
    const at = Math.min(Math.max(row.createdAt.getTime(), from), to);
    if (row.status === "CONNECTED") connectedSince ??= at;
    else if (connectedSince !== null) {
      total += at - connectedSince;
      connectedSince = null;
    }
  }
  if (connectedSince !== null) total += to - connectedSince;
  return total;
}

async function alertMinutes(db: DbOrTx, companyId: number): Promise<number> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(and(forCompany(settings, companyId), eq(settings.key, CONNECTION_ALERT_SETTING)))
    .limit(1);
  const minutes = row ? Number(row.value) : CONNECTION_ALERT_DEFAULT_MINUTES;
  return Number.isFinite(minutes) && minutes >= 0 ? minutes : CONNECTION_ALERT_DEFAULT_MINUTES;
}

/** GET /whatsapp/:id/health for a connection of the company (the caller checked it exists there). */
export async function connectionHealth(db: DbOrTx, companyId: number, connectionId: number, now = new Date()): Promise<ConnectionHealthDTO | null> {
  const [connection] = await db
    .select({ id: connections.id, status: connections.status, retries: connections.retries })
    .from(connections)
    .where(and(forCompany(connections, companyId), eq(connections.id, connectionId)))
    .limit(1);
  if (!connection) return null;
  const weekStart = new Date(now.getTime() - WEEK_MS);
  const scope = and(forCompany(connectionEvents, companyId), eq(connectionEvents.connectionId, connectionId));
  const recent = await db
    .select()
    .from(connectionEvents)
    .where(and(scope, gte(connectionEvents.createdAt, weekStart)))
    .orderBy(connectionEvents.createdAt, connectionEvents.id);
  // The status the week started in.
  const [before] = await db
    .select()
    .from(connectionEvents)
    .where(and(scope, eq(connectionEvents.kind, "status"), lt(connectionEvents.createdAt, weekStart)))
    .orderBy(desc(connectionEvents.createdAt), desc(connectionEvents.id))
    .limit(1);
  const ordered = before ? [before, ...recent] : recent;
  const to = now.getTime();
  const statusRows = ordered.filter((r) => r.kind === "status");
  const current = statusRows[statusRows.length - 1];
  const lastError = [...statusRows].reverse().find((r) => !NOT_ERRORS.includes(r.reason as ConnectionReason | null));
  const reason = current && current.status === connection.status ? ((current.reason as ConnectionReason | null) ?? null) : null;

  const counts = await db
    .select({
      in24: sql<number>`count(*) filter (where not ${messages.fromMe} and ${messages.createdAt} >= ${new Date(to - DAY_MS)})`.mapWith(Number),
      out24: sql<number>`count(*) filter (where ${messages.fromMe} and ${messages.createdAt} >= ${new Date(to - DAY_MS)})`.mapWith(Number),
      in7: sql<number>`count(*) filter (where not ${messages.fromMe})`.mapWith(Number),
      out7: sql<number>`count(*) filter (where ${messages.fromMe})`.mapWith(Number),
    })
    .from(messages)
    .where(and(forCompany(messages, companyId), eq(messages.connectionId, connectionId), gte(messages.createdAt, weekStart)));
  const c = counts[0] ?? { in24: 0, out24: 0, in7: 0, out7: 0 };

  const timeline: ConnectionHealthEventDTO[] = recent
    .slice(-TIMELINE_LIMIT)
    .reverse()
    .map((r) => ({
      at: r.createdAt.toISOString(),
      kind: r.kind === "alert" ? "alert" : "status",
      status: r.status as ConnectionStatus,
      reason: (r.reason as ConnectionReason | null) ?? null,
      detail: r.detail,
      retries: r.retries,
    }));
  return {
    connectionId,
    status: connection.status as ConnectionStatus,
    retries: connection.retries,
    reason,
    since: current && current.status === connection.status ? current.createdAt.toISOString() : null,
    needsScan: connection.status === "DISCONNECTED" && !!reason && SCAN_AGAIN_REASONS.includes(reason),
    connectedMs: { last24h: connectedMs(ordered, to - DAY_MS, to), last7d: connectedMs(ordered, to - WEEK_MS, to) },
    messages: { last24h: { in: c.in24, out: c.out24 }, last7d: { in: c.in7, out: c.out7 } },
    lastError: lastError
      ? { at: lastError.createdAt.toISOString(), reason: (lastError.reason as ConnectionReason | null) ?? null, detail: lastError.detail }
      : null,
    timeline,
  };
}

/** Schedules or cancels the alert of a connection whose status changed. */
async function onStatusChange(ctx: AppContext, change: StatusChange): Promise<void> {
  const { companyId, connectionId } = change;
  if (change.status === "CONNECTED") {
    if (change.previous !== "CONNECTED") await ctx.jobs.cancel(CONNECTION_ALERT_JOB, connectionAlertKey(connectionId));
    return;
  }
  if (change.previous !== "CONNECTED") return;
  const minutes = await alertMinutes(ctx.database.db, companyId);
  if (minutes <= 0) return;
  const payload: AlertJobPayload = { companyId, connectionId, since: change.at.toISOString(), minutes };
  await ctx.jobs.enqueue(CONNECTION_ALERT_JOB, payload, {
    runAt: new Date(change.at.getTime() + minutes * 60_000),
    key: connectionAlertKey(connectionId),
  });
}

/** The job: alert once if the connection is still out of CONNECTED and has not been back since it left. */
async function runAlert(ctx: AppContext, payload: AlertJobPayload): Promise<void> {
  const { companyId, connectionId } = payload;
  const since = new Date(payload.since);
  await ctx.database.db.transaction(async (tx) => {
    const [connection] = await tx
      .select({ id: connections.id, name: connections.name, status: connections.status })
      .from(connections)
      .where(and(forCompany(connections, companyId), eq(connections.id, connectionId)))
      .for("update");
    if (!connection || connection.status === "CONNECTED") return;
    const later = await tx
      .select({ kind: connectionEvents.kind, status: connectionEvents.status, reason: connectionEvents.reason })
      .from(connectionEvents)
      .where(and(forCompany(connectionEvents, companyId), eq(connectionEvents.connectionId, connectionId), gte(connectionEvents.createdAt, since)))
      .orderBy(connectionEvents.createdAt, connectionEvents.id);
    if (later.some((e) => e.kind === "alert" || (e.kind === "status" && e.status === "CONNECTED"))) return;
    const reason = ([...later].reverse().find((e) => e.kind === "status")?.reason as ConnectionReason | null | undefined) ?? null;
    const status = connection.status as ConnectionStatus;
    await tx.insert(connectionEvents).values({ companyId, connectionId, kind: "alert", status, reason });
    const alert: ConnectionHealthAlertDTO = {
      connectionId,
      name: connection.name,
      status,
      reason,
      since: since.toISOString(),
      minutes: payload.minutes,
      needsScan: status === "DISCONNECTED" && !!reason && SCAN_AGAIN_REASONS.includes(reason),
    };
    await ctx.events.record(tx, { type: "connections.healthAlert", companyId, alert });
    ctx.log.warn({ companyId, connectionId, status, reason, since: alert.since }, "connection down: admins alerted");
  });
}

/** Module start hook: the alert job and the status listener. */
export function startConnectionHealth(ctx: AppContext): () => void {
  ctx.jobs.register<AlertJobPayload>(CONNECTION_ALERT_JOB, (job) => runAlert(ctx, job.payload), { retryLimit: 3 });
  return ctx.channels.onStatus((change) => onStatusChange(ctx, change));
}
