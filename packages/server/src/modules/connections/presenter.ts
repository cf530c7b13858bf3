import { and, asc, eq, inArray } from "drizzle-orm";
import type { ConnectionDTO, ConnectionStatus, QueueRefDTO } from "@balcao/shared";
import type { DbOrTx } from "../../db/client";
import { connectionQueues, connections, queues } from "../../db/schema";
import { forCompany } from "../../db/tenant";

type ConnectionRow = typeof connections.$inferSelect;

export interface PresentOptions {
  /** Admins see the QR string and the send-API token; other profiles get "" and null. */
  admin: boolean;
}

/**
 * The wire shape of a connection. Built from the connections row only: credentials live in
 * connection_auth / connection_auth_keys and are never read here (reference defect 10).
 */
export async function presentConnections(db: DbOrTx, rows: ConnectionRow[], options: PresentOptions): Promise<ConnectionDTO[]> {
  if (rows.length === 0) return [];
  const queueRows = await db
    .select({ connectionId: connectionQueues.connectionId, id: queues.id, name: queues.name, color: queues.color })
    .from(connectionQueues)
    .innerJoin(queues, eq(queues.id, connectionQueues.queueId))
    .where(
      and(
        forCompany(connectionQueues, rows[0]!.companyId),
        inArray(
          connectionQueues.connectionId,
          rows.map((r) => r.id),
        ),
      ),
    )
    .orderBy(asc(queues.name));
  const byConnection = new Map<number, QueueRefDTO[]>();
  for (const q of queueRows) {
    const list = byConnection.get(q.connectionId) ?? [];
    list.push({ id: q.id, name: q.name, color: q.color });
    byConnection.set(q.connectionId, list);
  }
  return rows.map((c) => presentRow(c, byConnection.get(c.id) ?? [], options));
}

export async function presentConnection(db: DbOrTx, row: ConnectionRow, options: PresentOptions): Promise<ConnectionDTO> {
  const [dto] = await presentConnections(db, [row], options);
  return dto!;
}

function presentRow(c: ConnectionRow, queueRefs: QueueRefDTO[], { admin }: PresentOptions): ConnectionDTO {
  return {
    id: c.id,
    name: c.name,
    status: c.status as ConnectionStatus,
    qrcode: admin ? c.qrcode : "",
    retries: c.retries,
    isDefault: c.isDefault,
    greetingMessage: c.greetingMessage,
    complationMessage: c.complationMessage,
    outOfHoursMessage: c.outOfHoursMessage,
    ratingMessage: c.ratingMessage,
    farewellMessage: c.farewellMessage,
    token: admin ? c.token : null,
    provider: c.provider,
    channel: c.channel,
    timeSendQueue: c.timeSendQueue,
    sendIdQueue: c.sendIdQueue,
    number: c.number,
    queues: queueRefs,
    cloudApi: admin && c.channel === "cloud-api" ? { phoneNumberId: c.providerAccountId, webhookPath: `/api/cloudapi/${c.id}/webhook` } : null,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** The same DTO as another profile sees it (socket fan-out to non-admins). */
export function redactConnection(dto: ConnectionDTO): ConnectionDTO {
  return { ...dto, qrcode: "", token: null, cloudApi: null };
}
