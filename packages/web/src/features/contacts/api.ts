import type {
  ContactCreateBody,
  ContactDTO,
  ContactImportResponse,
  ContactListResponse,
  ContactUpdateBody,
  QueueDTO,
  TicketDTO,
} from "@balcao/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { queryKeys } from "../../api/queryKeys";
import { useDeleteRecord, useSaveRecord } from "../../components/list/recordMutations";
import { usePagedQuery } from "../../components/list/useListData";
import { patchContactsCache } from "./contactsCache";
import { contactKeys } from "./queryKeys";

export function fetchContactsPage(searchParam: string, pageNumber: number, signal?: AbortSignal) {
  return api.get<ContactListResponse>("/contacts", { searchParam, pageNumber }, { signal });
}

export function useContactsList(searchParam: string) {
  return usePagedQuery<ContactListResponse>(contactKeys.list(searchParam), "/contacts", searchParam);
}

/** One contact with its extra info rows (the list rows do not carry them). */
export function useContact(contactId: number | undefined) {
  return useQuery({
    queryKey: contactKeys.detail(contactId ?? 0),
    queryFn: ({ signal }) => api.get<ContactDTO>(`/contacts/${contactId}`, undefined, { signal }),
    enabled: !!contactId,
  });
}

export const useSaveContact = (contactId: number | undefined) =>
  useSaveRecord<ContactCreateBody | ContactUpdateBody, ContactDTO>("/contacts", contactId, (queryClient, contact, action) =>
    patchContactsCache(queryClient, { action, contact }),
  );

export const useDeleteContact = () =>
  useDeleteRecord("/contacts", (queryClient, contactId) => patchContactsCache(queryClient, { action: "delete", contactId }));

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
