import { CONNECTION_ALERT_STATUSES, type ConnectionDTO, type WhatsappEvent } from "@balcao/shared";
import type { QueryClient } from "@tanstack/react-query";
import { connectionKeys } from "./queryKeys";

const byName = (a: ConnectionDTO, b: ConnectionDTO) => a.name.localeCompare(b.name, "pt-BR");

/**
 * Replaces or adds a connection (the list is ordered by name). A connection that became the default
 * takes the star from the others: exactly one default per company.
 */
export function upsertConnection(list: ConnectionDTO[], connection: ConnectionDTO): ConnectionDTO[] {
  const current = list.find((c) => c.id === connection.id);
  // An answer that overtook a newer socket update (e.g. a relayed session command) must not roll it back.
  if (current && Date.parse(connection.updatedAt) < Date.parse(current.updatedAt)) return list;
  const others = list.filter((c) => c.id !== connection.id).map((c) => (connection.isDefault && c.isDefault ? { ...c, isDefault: false } : c));
  return [...others, connection].sort(byName);
}

export function removeConnection(list: ConnectionDTO[], connectionId: number): ConnectionDTO[] {
  return list.filter((c) => c.id !== connectionId);
}

/** Applies a `whatsapp` event (or a session update, same DTO) to the cached list. */
export function patchConnectionsCache(queryClient: QueryClient, event: WhatsappEvent): void {
  queryClient.setQueryData<ConnectionDTO[]>(connectionKeys.list(), (old) => {
    if (!old) return old;
    return event.action === "delete" ? removeConnection(old, event.whatsappId) : upsertConnection(old, event.whatsapp);
  });
}

/** Whether the drawer's connections item deserves its exclamation badge (spec §2). */
export function hasConnectionAlert(connections: readonly Pick<ConnectionDTO, "status">[]): boolean {
  return connections.some((c) => CONNECTION_ALERT_STATUSES.includes(c.status));
}
