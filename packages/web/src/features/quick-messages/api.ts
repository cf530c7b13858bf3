import type { QuickMessageBody, QuickMessageDTO, QuickMessageListResponse, QuickMessageUpdateBody } from "@balcao/shared";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useSocketEvent } from "../../api/SocketProvider";
import { api } from "../../api/client";
import { quickMessageKeys } from "./queryKeys";
import { patchQuickMessagesCache, type QuickMessageEvent } from "./quickMessagesCache";

export function useQuickMessagesList(searchParam: string) {
  return useInfiniteQuery({
    queryKey: quickMessageKeys.list(searchParam),
    queryFn: ({ pageParam, signal }) => api.get<QuickMessageListResponse>("/quick-messages", { searchParam, pageNumber: pageParam }, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export function useSaveQuickMessage(id: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: QuickMessageBody | QuickMessageUpdateBody) =>
      id ? api.put<QuickMessageDTO>(`/quick-messages/${id}`, body) : api.post<QuickMessageDTO>("/quick-messages", body),
    onSuccess: (record) => patchQuickMessagesCache(queryClient, { action: id ? "update" : "create", record }),
  });
}

export function useDeleteQuickMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/quick-messages/${id}`),
    onSuccess: (_data, id) => patchQuickMessagesCache(queryClient, { action: "delete", id }),
  });
}

/** Keeps cached quick-message lists in step with the `quickmessage` socket event. */
export function useQuickMessagesRealtime(): void {
  const queryClient = useQueryClient();
  useSocketEvent<QuickMessageEvent>("quickmessage", (event) => patchQuickMessagesCache(queryClient, event));
}
