import type { WebhookBody, WebhookDeliveryDTO, WebhookDeliveryListResponse, WebhookDTO } from "@balcao/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";

export const webhookKeys = {
  all: ["webhooks"] as const,
  list: () => ["webhooks", "list"] as const,
  deliveries: (webhookId: number) => ["webhooks", "deliveries", webhookId] as const,
};

/** The company's outgoing webhooks (admins). */
export function useWebhooks(enabled = true) {
  return useQuery({ queryKey: webhookKeys.list(), queryFn: ({ signal }) => api.get<WebhookDTO[]>("/webhooks", undefined, { signal }), enabled });
}

/** The latest deliveries of a webhook (first page), refreshed every 5 s while shown: retries move on their own. */
export function useWebhookDeliveries(webhookId: number | null) {
  return useQuery({
    queryKey: webhookKeys.deliveries(webhookId ?? 0),
    queryFn: ({ signal }) => api.get<WebhookDeliveryListResponse>(`/webhooks/${webhookId}/deliveries`, { pageNumber: 1 }, { signal }),
    enabled: webhookId !== null,
    refetchInterval: 5_000,
  });
}

export function useSaveWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: WebhookBody }) =>
      id ? api.put<WebhookDTO>(`/webhooks/${id}`, body) : api.post<WebhookDTO>("/webhooks", body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: webhookKeys.list() }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<void>(`/webhooks/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: webhookKeys.list() }),
  });
}

export function useResendDelivery(webhookId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: number) => api.post<WebhookDeliveryDTO>(`/webhooks/deliveries/${deliveryId}/resend`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(webhookId) }),
  });
}
