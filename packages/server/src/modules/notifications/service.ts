/**
 * The admins' notification bell (issue 21, item 3): the company's connection alerts (connection_events of
 * kind 'alert', written by the `connections.healthAlert` job) newest first, with a per-user read marker.
 *
 * The marker is the id of the newest alert the user marked read, kept as a company setting row
 * `notificationsRead:{userId}` (hidden from GET /settings): no migration was free to add a users column in
 * this round (docs/decisions.md, "Notification bell and alert e-mails"). Ids rather than times: an id is
 * exact, while a time written by JavaScript (ms) would not match PostgreSQL's µs timestamps.
 */
import { and, count, desc, eq, gt } from "drizzle-orm";
import type { ConnectionReason, ConnectionStatus, NotificationDTO, NotificationListResponse, NotificationsReadResponse } from "@balcao/shared";
import type { DbOrTx } from "../../db/client";
import { connectionEvents, connections, settings } from "../../db/schema";
import { requireAdmin } from "../../http/auth";
import type { Actor } from "../auth/service";

export const NOTIFICATIONS_PAGE = 20;
export const READ_MARKER_PREFIX = "notificationsRead:";
const readKey = (userId: number) => `${READ_MARKER_PREFIX}${userId}`;

async function readMarker(db: DbOrTx, actor: Actor): Promise<number> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.companyId, actor.companyId), eq(settings.key, readKey(actor.id))))
    .limit(1);
  const id = Number(row?.value ?? 0);
  return Number.isSafeInteger(id) && id > 0 ? id : 0;
}

const alertsOf = (companyId: number) => and(eq(connectionEvents.companyId, companyId), eq(connectionEvents.kind, "alert"));

/** GET /notifications: a page of the company's connection alerts and the caller's unread count. */
export async function listNotifications(db: DbOrTx, actor: Actor, pageNumber: number): Promise<NotificationListResponse> {
  requireAdmin(actor);
  const lastRead = await readMarker(db, actor);
  const rows = await db
    .select({
      id: connectionEvents.id,
      connectionId: connectionEvents.connectionId,
      name: connections.name,
      status: connectionEvents.status,
      reason: connectionEvents.reason,
      createdAt: connectionEvents.createdAt,
    })
    .from(connectionEvents)
    .innerJoin(connections, and(eq(connections.id, connectionEvents.connectionId), eq(connections.companyId, connectionEvents.companyId)))
    .where(alertsOf(actor.companyId))
    .orderBy(desc(connectionEvents.id))
    .limit(NOTIFICATIONS_PAGE + 1)
    .offset((pageNumber - 1) * NOTIFICATIONS_PAGE);
  const [unread] = await db
    .select({ n: count() })
    .from(connectionEvents)
    .where(and(alertsOf(actor.companyId), gt(connectionEvents.id, lastRead)));
  const notifications: NotificationDTO[] = rows.slice(0, NOTIFICATIONS_PAGE).map((r) => ({
    id: r.id,
    connectionId: r.connectionId,
    name: r.name,
    status: r.status as ConnectionStatus,
    reason: (r.reason as ConnectionReason | null) ?? null,
    at: r.createdAt.toISOString(),
    read: r.id <= lastRead,
  }));
  return { notifications, unreadCount: unread?.n ?? 0, hasMore: rows.length > NOTIFICATIONS_PAGE };
}

/** PUT /notifications/read: every alert of the company up to now is read for the caller. */
export async function markNotificationsRead(db: DbOrTx, actor: Actor): Promise<NotificationsReadResponse> {
  requireAdmin(actor);
  const [newest] = await db
    .select({ id: connectionEvents.id })
    .from(connectionEvents)
    .where(alertsOf(actor.companyId))
    .orderBy(desc(connectionEvents.id))
    .limit(1);
  const lastReadId = newest?.id ?? 0;
  await db
    .insert(settings)
    .values({ companyId: actor.companyId, key: readKey(actor.id), value: String(lastReadId) })
    .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value: String(lastReadId), updatedAt: new Date() } });
  return { lastReadId };
}
