import type {
  ConnectionCreateBody,
  ConnectionHealthAlertDTO,
  ConnectionHealthDTO,
  PairingCodeDTO,
  ConnectionDTO,
  ConnectionUpdateBody,
  QueueDTO,
  SimulatorLinkDTO,
  WhatsappEvent,
  WhatsappSessionEvent,
} from "@balcao/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { enqueueSnackbar } from "../../components/toasts";
import { useTranslation } from "react-i18next";
import { api, ApiError } from "../../api/client";
import { queryKeys } from "../../api/queryKeys";
import { useSocketEvent } from "../../api/SocketProvider";
import { useDeleteRecord, useSaveRecord } from "../../components/list/recordMutations";
import { patchConnectionsCache } from "./connectionsCache";
import { connectionKeys } from "./queryKeys";

/** The company's connections, by name (GET /whatsapp/). Any signed-in user may read them. */
export function useConnections(enabled = true) {
  return useQuery({
    queryKey: connectionKeys.list(),
    queryFn: ({ signal }) => api.get<ConnectionDTO[]>("/whatsapp/", undefined, { signal }),
    enabled,
  });
}

/** The company's queues for the connection dialog (GET /queue). */
export function useConnectionQueues(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.queues,
    queryFn: ({ signal }) => api.get<QueueDTO[]>("/queue", undefined, { signal }),
    enabled,
  });
}

export const useSaveConnection = (connectionId: number | undefined) =>
  useSaveRecord<ConnectionCreateBody | ConnectionUpdateBody, ConnectionDTO>("/whatsapp", connectionId, (queryClient, connection) =>
    patchConnectionsCache(queryClient, { action: "update", whatsapp: connection }),
  );

export const useDeleteConnection = () =>
  useDeleteRecord("/whatsapp", (queryClient, connectionId) => {
    patchConnectionsCache(queryClient, { action: "delete", whatsappId: connectionId });
    // Deleting the default moves the star to another connection: the server tells us by socket, but refetch too.
    void queryClient.invalidateQueries({ queryKey: connectionKeys.list() });
  });

/** Session commands of the connections page: start / try again, new QR, disconnect. */
export type SessionCommand = "start" | "newQr" | "disconnect";
const SESSION_METHOD = { start: "post", newQr: "put", disconnect: "delete" } as const;

export function useSessionCommand() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ connectionId, command }: { connectionId: number; command: SessionCommand }) => {
      const path = `/whatsappsession/${connectionId}`;
      const method = SESSION_METHOD[command];
      return method === "delete" ? api.delete<ConnectionDTO>(path) : api[method]<ConnectionDTO>(path);
    },
    onSuccess: (connection) => {
      if (connection && typeof connection === "object" && "id" in connection)
        patchConnectionsCache(queryClient, { action: "update", whatsapp: connection });
    },
  });
}

/** The secret link that opens a simulator connection's phone page without signing in (admins). */
export function useSimulatorLink(connectionId: number | null) {
  return useQuery({
    queryKey: connectionKeys.simulatorLink(connectionId ?? 0),
    queryFn: ({ signal }) => api.get<SimulatorLinkDTO>(`/simulator/${connectionId}/link`, undefined, { signal }),
    enabled: connectionId !== null,
    staleTime: 60_000,
  });
}

/** Keeps the cached list in step with `whatsapp` (create/edit/delete) and `whatsappSession` (status, QR). */
export function useConnectionsRealtime(): void {
  const queryClient = useQueryClient();
  useSocketEvent<WhatsappEvent>("whatsapp", (event) => patchConnectionsCache(queryClient, event));
  useSocketEvent<WhatsappSessionEvent>("whatsappSession", (event) => {
    if (event?.session) patchConnectionsCache(queryClient, { action: "update", whatsapp: event.session });
  });
}

/** Whether this server offers the simulator (its API answers 404 everywhere when switched off). */
export function useSimulatorAvailable(enabled: boolean) {
  return useQuery({
    queryKey: ["simulator", "available"] as const,
    queryFn: async ({ signal }) => {
      try {
        await api.get<unknown>("/simulator/connections", undefined, { signal });
        return true;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return false;
        throw err;
      }
    },
    enabled,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** A new send-API token for a connection (POST /whatsapp/:id/token, admins); the old one stops working at once. */
export function useRegenerateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (connectionId: number) => api.post<ConnectionDTO>(`/whatsapp/${connectionId}/token`),
    onSuccess: (connection) => patchConnectionsCache(queryClient, { action: "update", whatsapp: connection }),
  });
}

/** A connection's health (GET /whatsapp/:id/health, admins): timeline with reasons, time connected, messages, last error. */
export function useConnectionHealth(connectionId: number | null) {
  return useQuery({
    queryKey: connectionKeys.health(connectionId ?? 0),
    queryFn: ({ signal }) => api.get<ConnectionHealthDTO>(`/whatsapp/${connectionId}/health`, undefined, { signal }),
    enabled: connectionId !== null,
  });
}

/** Pairing by phone code (POST /whatsappsession/:id/pairing-code): the 8-character code to type on the phone. */
export function useRequestPairingCode() {
  return useMutation({
    mutationFn: ({ connectionId, phoneNumber }: { connectionId: number; phoneNumber: string }) =>
      api.post<PairingCodeDTO>(`/whatsappsession/${connectionId}/pairing-code`, { phoneNumber }),
  });
}

/**
 * The live alert of a connection that stayed out of CONNECTED past the company's setting (`whatsappHealthAlert`,
 * admins): a toast, and the open health views refresh.
 */
export function useConnectionHealthAlerts(): void {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  useSocketEvent<ConnectionHealthAlertDTO>("whatsappHealthAlert", (alert) => {
    if (!alert?.connectionId) return;
    const reason = alert.reason ? t(`connections.reasons.${alert.reason}`) : t(`connections.status.${alert.status}`);
    const key = alert.needsScan ? "connections.health.alertScan" : "connections.health.alert";
    enqueueSnackbar(t(key, { name: alert.name, minutes: alert.minutes, reason }), { variant: "warning", persist: true, preventDuplicate: true });
    void queryClient.invalidateQueries({ queryKey: connectionKeys.health(alert.connectionId) });
  });
}
