import type { ContactCreateBody, ContactDTO, ContactImportResponse, ContactListResponse, ContactUpdateBody, QueueDTO, TicketDTO } from "@balcao/shared";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { queryKeys } from "../../api/queryKeys";
import { patchContactsCache } from "./contactsCache";
import { contactKeys } from "./queryKeys";

export function fetchContactsPage(searchParam: string, pageNumber: number, signal?: AbortSignal) {
  return api.get<ContactListResponse>("/contacts", { searchParam, pageNumber }, { signal });
}

export function useContactsList(searchParam: string) {
  return useInfiniteQuery({
    queryKey: contactKeys.list(searchParam),
    queryFn: ({ pageParam, signal }) => fetchContactsPage(searchParam, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** One contact with its extra info rows (the list rows do not carry them). */
export function useContact(contactId: number | undefined) {
  return useQuery({
    queryKey: contactKeys.detail(contactId ?? 0),
    queryFn: ({ signal }) => api.get<ContactDTO>(`/contacts/${contactId}`, undefined, { signal }),
    enabled: !!contactId,
  });
}

export function useSaveContact(contactId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ContactCreateBody | ContactUpdateBody) =>
      contactId ? api.put<ContactDTO>(`/contacts/${contactId}`, body) : api.post<ContactDTO>("/contacts", body),
    onSuccess: (contact) => patchContactsCache(queryClient, { action: contactId ? "update" : "create", contact }),
  });
}

export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (contactId: number) => api.delete(`/contacts/${contactId}`),
    onSuccess: (_data, contactId) => patchContactsCache(queryClient, { action: "delete", contactId }),
  });
}

export function useImportContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<ContactImportResponse>("/contacts/import"),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactKeys.lists() }),
  });
}

/** The company's queues for the start-ticket dialog (GET /queue). */
export function useQueues(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.queues,
    queryFn: () => api.get<QueueDTO[]>("/queue"),
    enabled,
    select: (queues) => (Array.isArray(queues) ? queues : []),
  });
}

/** POST /tickets {contactId, queueId, status:"open"}: the ticket opens assigned to the caller. */
export function useStartTicket() {
  return useMutation({
    mutationFn: ({ contactId, queueId }: { contactId: number; queueId: number | null }) =>
      api.post<TicketDTO>("/tickets", { contactId, queueId: queueId ?? undefined, status: "open" }),
  });
}
