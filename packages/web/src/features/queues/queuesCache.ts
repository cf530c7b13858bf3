import type { QueueDTO, QueueEvent } from "@balcao/shared";
import type { QueryClient } from "@tanstack/react-query";
import { queryKeys } from "../../api/queryKeys";
import { removeById, upsertSorted } from "../../components/list/listCache";
import { queueKeys } from "./queryKeys";

/** The server's menu order (docs/api.md): orderQueue ascending, empty last, then creation. */
export function compareQueues(a: QueueDTO, b: QueueDTO): number {
  const oa = a.orderQueue ?? Number.POSITIVE_INFINITY;
  const ob = b.orderQueue ?? Number.POSITIVE_INFINITY;
  if (oa !== ob) return oa < ob ? -1 : 1;
  const ca = a.createdAt ?? "";
  const cb = b.createdAt ?? "";
  if (ca !== cb) return ca < cb ? -1 : 1;
  return a.id - b.id;
}

/**
 * Applies a `queue` socket event (or a mutation's result) to the cached company queue list, which the
 * tickets filter and the user modal read too. A deleted queue also drops its cached option tree.
 */
export function patchQueuesCache(queryClient: QueryClient, event: QueueEvent): void {
  queryClient.setQueryData<QueueDTO[]>(queryKeys.queues, (old) => {
    if (!Array.isArray(old)) return old;
    return event.action === "delete" ? removeById(old, event.queueId) : upsertSorted(old, event.queue, compareQueues);
  });
  if (event.action === "delete") queryClient.removeQueries({ queryKey: queueKeys.options(event.queueId) });
}
