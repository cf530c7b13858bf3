import type {
  ConnectionStatus,
  SimulatorInboundBody,
  SimulatorMessageDTO,
  SimulatorPhoneDTO,
  SimulatorStateDTO,
  WhatsappEvent,
  WhatsappSessionEvent,
} from "@balcao/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest, type RequestOptions } from "../../api/client";
import { useSocket, useSocketEvent } from "../../api/SocketProvider";

/**
 * How the page reaches the simulator API (docs/api.md, Simulator): signed in (bearer token, live updates by
 * socket) or through the connection's secret link `?key=` (no session, so no socket: the page polls).
 */
export interface SimulatorAccess {
  connectionId: number;
  /** The secret link key; null when signed in. */
  key: string | null;
}

/** Polling while a live socket reports changes (a safety net) and without one (the secret link). */
export const POLL_WITH_SOCKET_MS = 15_000;
export const POLL_WITHOUT_SOCKET_MS = 2_000;
/** While the connection is not connected yet (QR being shown), look more often. */
export const POLL_PAIRING_MS = 2_000;

export const simulatorKeys = {
  all: ["simulator"] as const,
  connections: () => ["simulator", "connections"] as const,
  state: (access: SimulatorAccess) => ["simulator", "state", access.connectionId, access.key ?? ""] as const,
};

function request<T>(access: SimulatorAccess, path: string, opts: RequestOptions = {}): Promise<T> {
  return apiRequest<T>(`/simulator/${access.connectionId}${path}`, {
    ...opts,
    // With the secret link the key authorises the call: never send (nor refresh) a session token.
    anonymous: access.key !== null,
    query: { ...opts.query, ...(access.key !== null && { key: access.key }) },
  });
}

const phonePath = (number: string) => `/phones/${encodeURIComponent(number)}`;

/** URL of a simulated message's file (fetched as a blob by the shared media helpers). */
export function simulatorMediaUrl(access: SimulatorAccess, number: string, messageId: string): string {
  const path = `/api/simulator/${access.connectionId}${phonePath(number)}/messages/${encodeURIComponent(messageId)}/media`;
  return access.key !== null ? `${path}?key=${encodeURIComponent(access.key)}` : path;
}

export interface SimulatorConnectionRef {
  id: number;
  name: string;
  status: ConnectionStatus;
  qrcode: string;
}

/** The company's simulator connections (signed in only). */
export function useSimulatorConnections(enabled: boolean) {
  return useQuery({
    queryKey: simulatorKeys.connections(),
    queryFn: ({ signal }) => apiRequest<SimulatorConnectionRef[]>("/simulator/connections", { signal }),
    enabled,
  });
}

/** The connection, whether it runs here, and its simulated phones with their messages. */
export function useSimulatorState(access: SimulatorAccess | null) {
  const socket = useSocket();
  const queryClient = useQueryClient();
  const withSocket = !!socket && access?.key === null;
  const query = useQuery({
    queryKey: simulatorKeys.state(access ?? { connectionId: 0, key: null }),
    queryFn: ({ signal }) => request<SimulatorStateDTO>(access!, "", { signal }),
    enabled: access !== null,
    refetchInterval: (q) => {
      const status = q.state.data?.connection.status;
      if (status && status !== "CONNECTED") return POLL_PAIRING_MS;
      return withSocket ? POLL_WITH_SOCKET_MS : POLL_WITHOUT_SOCKET_MS;
    },
  });

  const refresh = () => {
    if (access) void queryClient.invalidateQueries({ queryKey: simulatorKeys.state(access) });
  };
  useSocketEvent<{ action: string; connectionId: number; number: string }>("simulator", (event) => {
    if (access && event?.connectionId === access.connectionId) refresh();
  });
  useSocketEvent<WhatsappEvent>("whatsapp", (event) => {
    if (access && event?.action === "update" && event.whatsapp.id === access.connectionId) refresh();
  });
  useSocketEvent<WhatsappSessionEvent>("whatsappSession", (event) => {
    if (access && event?.session?.id === access.connectionId) refresh();
  });
  return query;
}

/** Every customer-side action of the page, each refreshing the state when it lands. */
export function useSimulatorActions(access: SimulatorAccess) {
  const queryClient = useQueryClient();
  const onSettled = () => queryClient.invalidateQueries({ queryKey: simulatorKeys.state(access) });
  return {
    scan: useMutation({
      mutationFn: (code: string) => request<{ status: ConnectionStatus }>(access, "/scan", { method: "POST", body: { code } }),
      onSettled,
    }),
    addPhone: useMutation({
      mutationFn: (body: { number: string; name?: string }) => request<SimulatorPhoneDTO>(access, "/phones", { method: "POST", body }),
      onSettled,
    }),
    send: useMutation({
      mutationFn: ({ number, body }: { number: string; body: SimulatorInboundBody }) =>
        request<SimulatorMessageDTO>(access, `${phonePath(number)}/messages`, { method: "POST", body }),
      onSettled,
    }),
    remove: useMutation({
      mutationFn: ({ number, messageId }: { number: string; messageId: string }) =>
        request<void>(access, `${phonePath(number)}/messages/${encodeURIComponent(messageId)}`, { method: "DELETE" }),
      onSettled,
    }),
    ack: useMutation({
      mutationFn: ({ number, messageId, ack }: { number: string; messageId: string; ack: 1 | 2 | 3 | 4 }) =>
        request<void>(access, `${phonePath(number)}/messages/${encodeURIComponent(messageId)}/ack`, { method: "POST", body: { ack } }),
      onSettled,
    }),
    // Issue 21: the customer reacts to a message ("" removes the reaction) or edits one of their texts.
    react: useMutation({
      mutationFn: ({ number, messageId, emoji }: { number: string; messageId: string; emoji: string }) =>
        request<SimulatorMessageDTO>(access, `${phonePath(number)}/messages/${encodeURIComponent(messageId)}/reaction`, {
          method: "POST",
          body: { emoji },
        }),
      onSettled,
    }),
    edit: useMutation({
      mutationFn: ({ number, messageId, body }: { number: string; messageId: string; body: string }) =>
        request<SimulatorMessageDTO>(access, `${phonePath(number)}/messages/${encodeURIComponent(messageId)}/edit`, {
          method: "POST",
          body: { body },
        }),
      onSettled,
    }),
    call: useMutation({
      mutationFn: ({ number, isVideo }: { number: string; isVideo: boolean }) =>
        request<SimulatorMessageDTO>(access, `${phonePath(number)}/calls`, { method: "POST", body: { isVideo } }),
      onSettled,
    }),
  };
}

export type SimulatorActions = ReturnType<typeof useSimulatorActions>;
