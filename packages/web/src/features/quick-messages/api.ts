import type { QuickMessageBody, QuickMessageDTO, QuickMessageListResponse, QuickMessageUpdateBody } from "@balcao/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useSocketEvent } from "../../api/SocketProvider";
import { useDeleteRecord, useSaveRecord } from "../../components/list/recordMutations";
import { usePagedQuery } from "../../components/list/useListData";
import { quickMessageKeys } from "./queryKeys";
import { patchQuickMessagesCache, type QuickMessageEvent } from "./quickMessagesCache";

export function useQuickMessagesList(searchParam: string) {
  return usePagedQuery<QuickMessageListResponse>(quickMessageKeys.list(searchParam), "/quick-messages", searchParam);
}

export const useSaveQuickMessage = (id: number | undefined) =>
  useSaveRecord<QuickMessageBody | QuickMessageUpdateBody, QuickMessageDTO>("/quick-messages", id, (queryClient, record, action) =>
    patchQuickMessagesCache(queryClient, { action, record }),
  );

export const useDeleteQuickMessage = () =>
  useDeleteRecord("/quick-messages", (queryClient, id) => patchQuickMessagesCache(queryClient, { action: "delete", id }));

/** Keeps cached quick-message lists in step with the `quickmessage` socket event. */
export function useQuickMessagesRealtime(): void {
  const queryClient = useQueryClient();
  useSocketEvent<QuickMessageEvent>("quickmessage", (event) => patchQuickMessagesCache(queryClient, event));
}
