import type {
  QueueCreateBody,
  QueueDTO,
  QueueEvent,
  QueueOptionCreateBody,
  QueueOptionDTO,
  QueueOptionUpdateBody,
  QueueUpdateBody,
} from "@balcao/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { queryKeys } from "../../api/queryKeys";
import { useDeleteRecord, useSaveRecord } from "../../components/list/recordMutations";
import { useSocketEvent } from "../../api/SocketProvider";
import { queueKeys } from "./queryKeys";
import { patchQueuesCache } from "./queuesCache";

/** The company's queues in menu order (GET /queue). */
export function useQueues() {
  return useQuery({
    queryKey: queryKeys.queues,
    queryFn: ({ signal }) => api.get<QueueDTO[]>("/queue", undefined, { signal }),
  });
}

export const useSaveQueue = (queueId: number | undefined) =>
  useSaveRecord<QueueCreateBody | QueueUpdateBody, QueueDTO>("/queue", queueId, (queryClient, queue, action) =>
    patchQueuesCache(queryClient, { action, queue }),
  );

export const useDeleteQueue = () => useDeleteRecord("/queue", (queryClient, queueId) => patchQueuesCache(queryClient, { action: "delete", queueId }));

/** Keeps the cached queue list in step with the `queue` socket event. */
export function useQueueRealtime(): void {
  const queryClient = useQueryClient();
  useSocketEvent<QueueEvent>("queue", (event) => patchQueuesCache(queryClient, event));
}

// ─── Option trees ─────────────────────────────────────────────────────────────────────────────

/** The root options of a queue, each carrying its whole subtree (GET /queue-options?parentId=-1). */
export function useQueueOptionTree(queueId: number | undefined) {
  return useQuery({
    queryKey: queueKeys.options(queueId ?? 0),
    queryFn: ({ signal }) => api.get<QueueOptionDTO[]>("/queue-options", { queueId, parentId: -1 }, { signal }),
    enabled: !!queueId,
  });
}

function useRefreshTree(queueId: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queueKeys.options(queueId) });
}

export function useCreateQueueOption(queueId: number) {
  const refresh = useRefreshTree(queueId);
  return useMutation({
    mutationFn: (body: Omit<QueueOptionCreateBody, "queueId">) => api.post<QueueOptionDTO>("/queue-options", { ...body, queueId }),
    onSuccess: refresh,
  });
}

export function useUpdateQueueOption(queueId: number) {
  const refresh = useRefreshTree(queueId);
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: QueueOptionUpdateBody }) => api.put<QueueOptionDTO>(`/queue-options/${id}`, body),
    onSuccess: refresh,
  });
}

export function useDeleteQueueOption(queueId: number) {
  const refresh = useRefreshTree(queueId);
  return useMutation({
    mutationFn: (id: number) => api.delete(`/queue-options/${id}`),
    onSuccess: refresh,
  });
}
