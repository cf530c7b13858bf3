import type {
  ContactDTO,
  ContactListResponse,
  QueueRefDTO,
  TagDTO,
  TicketCreateBody,
  TicketDTO,
  TicketListResponse,
  TicketUpdateBody,
  UserSimpleDTO,
} from "@balcao/shared";
import { isAdmin } from "@balcao/shared";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { queryKeys } from "../../api/queryKeys";
import { useSession } from "../auth/SessionProvider";
import { ticketKeys, type TicketListFilters } from "./queryKeys";
import { patchTicketsCache } from "./ticketsCache";

const idList = (ids?: number[]) => (ids && ids.length > 0 ? JSON.stringify(ids) : undefined);

export function ticketListQuery(filters: TicketListFilters) {
  return {
    status: filters.status,
    searchParam: filters.searchParam || undefined,
    tags: idList(filters.tags),
    users: idList(filters.users),
    queueIds: idList(filters.queueIds),
    showAll: filters.showAll ? "true" : undefined,
  };
}

/** One infinite ticket list (40 per page, newest activity first). */
export function useTicketsList(filters: TicketListFilters, enabled = true) {
  return useInfiniteQuery({
    queryKey: ticketKeys.list(filters),
    // Keyset pages: each page names where the next starts, so tickets arriving or moving meanwhile
    // neither repeat nor skip rows (pageNumber's OFFSET would).
    queryFn: ({ pageParam, signal }) =>
      api.get<TicketListResponse>("/tickets", { ...ticketListQuery(filters), cursor: pageParam ?? undefined }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.hasMore && last.nextCursor ? last.nextCursor : undefined),
    enabled,
  });
}

/** Visible tickets with unread messages (the top-bar bell). */
export function useUnreadTickets(enabled: boolean) {
  return useQuery({
    queryKey: ticketKeys.unread,
    queryFn: ({ signal }) => api.get<TicketListResponse>("/tickets", { withUnreadMessages: "true" }, { signal }),
    enabled,
  });
}

export function useTicket(uuid: string | undefined) {
  return useQuery({
    queryKey: ticketKeys.detail(uuid ?? ""),
    queryFn: ({ signal }) => api.get<TicketDTO>(`/tickets/u/${uuid}`, undefined, { signal }),
    enabled: !!uuid,
  });
}

/** PUT /tickets/:id (accept, return, resolve, reopen, transfer); the answer patches the caches at once. */
export function useUpdateTicket() {
  const queryClient = useQueryClient();
  const { user } = useSession();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: TicketUpdateBody }) => api.put<TicketDTO>(`/tickets/${id}`, body),
    onSuccess: (ticket) => {
      if (user) patchTicketsCache(queryClient, { action: "update", ticket }, user);
    },
  });
}

export function useCreateTicket() {
  const queryClient = useQueryClient();
  const { user } = useSession();
  return useMutation({
    mutationFn: (body: TicketCreateBody) => api.post<TicketDTO>("/tickets", body),
    onSuccess: (ticket) => {
      if (user) patchTicketsCache(queryClient, { action: "update", ticket }, user);
    },
  });
}

export function useDeleteTicket() {
  const queryClient = useQueryClient();
  const { user } = useSession();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ message: string }>(`/tickets/${id}`),
    onSuccess: (_data, id) => {
      if (user) patchTicketsCache(queryClient, { action: "delete", ticketId: id }, user);
    },
  });
}

/** Opening a ticket zeroes its unread counter (POST /tickets/:id/read). */
export function markTicketRead(id: number): Promise<void> {
  return api.post<void>(`/tickets/${id}/read`);
}

/**
 * Queues offered by the filter, the new-ticket and transfer modals: admins get every queue of the
 * company (GET /queue); others their own. When GET /queue fails (not available), the session's queues.
 */
export function useQueueChoices(): { queues: QueueRefDTO[]; loading: boolean } {
  const { user } = useSession();
  const admin = isAdmin(user);
  const all = useQuery({
    queryKey: queryKeys.queues,
    queryFn: () => api.get<QueueRefDTO[]>("/queue"),
    enabled: admin,
    retry: false,
    select: (queues) => (Array.isArray(queues) ? queues.map((q) => ({ id: q.id, name: q.name, color: q.color })) : []),
  });
  const own = user?.queues ?? [];
  if (!admin) return { queues: own, loading: false };
  return { queues: all.isSuccess && all.data.length > 0 ? all.data : own, loading: all.isLoading };
}

/** Tags for the search filter and the tag editor (GET /tags/list); empty when unavailable. */
export function useTagOptions(enabled = true) {
  return useQuery({
    queryKey: ticketKeys.tagOptions,
    queryFn: () => api.get<TagDTO[]>("/tags/list"),
    enabled,
    retry: false,
    staleTime: 30_000,
    select: (tags) => (Array.isArray(tags) ? tags : []),
  });
}

/** Users of the company for the admin user filter and the transfer modal (GET /users/list). */
export function useUserOptions(enabled = true) {
  return useQuery({
    queryKey: ticketKeys.userOptions,
    queryFn: () => api.get<UserSimpleDTO[]>("/users/list"),
    enabled,
    retry: false,
    staleTime: 30_000,
    select: (users) => (Array.isArray(users) ? users : []),
  });
}

/** Contact search of the new-ticket modal: only from 3 characters (spec §5); the caller debounces. */
export function useContactSearch(searchParam: string) {
  return useQuery({
    queryKey: ticketKeys.contactSearch(searchParam),
    queryFn: ({ signal }) => api.get<ContactListResponse>("/contacts", { searchParam, pageNumber: 1 }, { signal }),
    enabled: searchParam.length >= 3,
    retry: false,
    select: (data) => (Array.isArray(data?.contacts) ? data.contacts : ([] as ContactDTO[])),
  });
}

export function syncTicketTags(ticketId: number, tagIds: number[]): Promise<unknown> {
  return api.post("/tags/sync", { ticketId, tags: tagIds.map((id) => ({ id })) });
}
