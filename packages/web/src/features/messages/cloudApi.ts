import type { AppMessageEvent, CloudApiTemplateListResponse, CloudApiTemplateSendBody, CloudApiWindowDTO, MessageDTO } from "@balcao/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { api } from "../../api/client";
import { useSocketEvent } from "../../api/SocketProvider";
import { appendMessage, messageKeys, type MessagePages } from "./messagesCache";

export const cloudApiKeys = {
  window: (ticketId: number) => ["cloudapi", "window", ticketId] as const,
  templates: (connectionId: number) => ["cloudapi", "templates", connectionId] as const,
};

/**
 * The ticket's WhatsApp Cloud API 24-hour window (GET /cloudapi/tickets/:id/window; `applies` is false on the
 * other channels). Asked again when the customer writes (the window reopens) and when it closes.
 */
export function useCustomerWindow(ticketId: number, enabled: boolean) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: cloudApiKeys.window(ticketId),
    queryFn: ({ signal }) => api.get<CloudApiWindowDTO>(`/cloudapi/tickets/${ticketId}/window`, undefined, { signal }),
    enabled,
    retry: false,
    staleTime: 30_000,
  });
  useSocketEvent<AppMessageEvent>("appMessage", (event) => {
    if (event.action === "create" && event.message.ticketId === ticketId && !event.message.fromMe)
      void queryClient.invalidateQueries({ queryKey: cloudApiKeys.window(ticketId) });
  });
  const closesAt = query.data?.applies && query.data.open ? query.data.closesAt : null;
  useEffect(() => {
    if (!closesAt) return;
    const wait = new Date(closesAt).getTime() - Date.now();
    // setTimeout holds at most ~24.8 days; a window is never longer than 24 h.
    const timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: cloudApiKeys.window(ticketId) }), Math.max(wait, 0) + 1000);
    return () => clearTimeout(timer);
  }, [closesAt, queryClient, ticketId]);
  return query;
}

/** The connection's approved templates, as last synced from the WhatsApp Business Account. */
export function useCloudTemplates(connectionId: number | null) {
  return useQuery({
    queryKey: cloudApiKeys.templates(connectionId ?? 0),
    queryFn: ({ signal }) => api.get<CloudApiTemplateListResponse>(`/cloudapi/${connectionId}/templates`, undefined, { signal }),
    enabled: connectionId !== null,
    retry: false,
  });
}

/** Copies the approved templates from the WhatsApp Business Account again (admins). */
export function useSyncTemplates(connectionId: number | null) {
  const queryClient = useQueryClient();
  return async (): Promise<void> => {
    const list = await api.post<CloudApiTemplateListResponse>(`/cloudapi/${connectionId}/templates/sync`);
    queryClient.setQueryData(cloudApiKeys.templates(connectionId ?? 0), list);
  };
}

/** Sends an approved template on the ticket and puts the stored message in the conversation. */
export function useSendTemplate(ticketId: number) {
  const queryClient = useQueryClient();
  return async (body: CloudApiTemplateSendBody): Promise<MessageDTO[]> => {
    const sent = await api.post<MessageDTO[]>(`/cloudapi/tickets/${ticketId}/template`, body);
    queryClient.setQueryData<MessagePages>(messageKeys.list(ticketId), (old) => (old ? sent.reduce(appendMessage, old) : old));
    return sent;
  };
}
