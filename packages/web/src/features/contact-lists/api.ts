import type {
  ContactListBody,
  ContactListDTO,
  ContactListEvent,
  ContactListImportDTO,
  ContactListItemCreateBody,
  ContactListItemDTO,
  ContactListItemEvent,
  ContactListItemsResponse,
  ContactListItemUpdateBody,
  ContactListsResponse,
} from "@balcao/shared";
import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ApiError, buildUrl } from "../../api/client";
import { sessionStore } from "../../api/session";
import { useSocketEvent } from "../../api/SocketProvider";
import { useDeleteRecord, useSaveRecord } from "../../components/list/recordMutations";
import { usePagedQuery } from "../../components/list/useListData";
import { patchContactListItemsCache, patchContactListsCache } from "./contactListsCache";
import { contactListKeys } from "./queryKeys";

export function useContactLists(searchParam: string) {
  return usePagedQuery<ContactListsResponse>(contactListKeys.list(searchParam), "/contact-lists/", searchParam);
}

export function useContactList(contactListId: number) {
  return useQuery({
    queryKey: contactListKeys.detail(contactListId),
    queryFn: ({ signal }) => api.get<ContactListDTO>(`/contact-lists/${contactListId}`, undefined, { signal }),
    enabled: contactListId > 0,
    retry: false,
  });
}

export const useSaveContactList = (contactListId: number | undefined) =>
  useSaveRecord<ContactListBody, ContactListDTO>("/contact-lists", contactListId, (queryClient, record, action) =>
    patchContactListsCache(queryClient, { action, record }),
  );

export const useDeleteContactList = () =>
  useDeleteRecord("/contact-lists", (queryClient, id) => patchContactListsCache(queryClient, { action: "delete", id }));

/** GET /contact-list-items?searchParam&pageNumber&contactListId, page by page. */
export function useContactListItems(contactListId: number, searchParam: string) {
  return useInfiniteQuery({
    queryKey: contactListKeys.itemsList(contactListId, searchParam),
    queryFn: ({ pageParam, signal }) =>
      api.get<ContactListItemsResponse>("/contact-list-items", { searchParam, pageNumber: pageParam, contactListId }, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled: contactListId > 0,
  });
}

export const useSaveContactListItem = (itemId: number | undefined) =>
  useSaveRecord<ContactListItemCreateBody | ContactListItemUpdateBody, ContactListItemDTO>(
    "/contact-list-items",
    itemId,
    (queryClient, record, action) => patchContactListItemsCache(queryClient, { action, record }),
  );

export const useDeleteContactListItem = (contactListId: number) =>
  useDeleteRecord("/contact-list-items", (queryClient, id) => patchContactListItemsCache(queryClient, { action: "delete", id, contactListId }));

/** Keeps the cached lists in step with `ContactList` events; `onEvent` sees every event (imports' progress). */
export function useContactListsRealtime(onEvent?: (event: ContactListEvent) => void): void {
  const queryClient = useQueryClient();
  useSocketEvent<ContactListEvent>("ContactList", (event) => {
    patchContactListsCache(queryClient, event);
    onEvent?.(event);
  });
}

/** Keeps one list's cached items in step with `ContactListItem-{id}` (spec §7: "also per list"). */
export function useContactListItemsRealtime(contactListId: number): void {
  const queryClient = useQueryClient();
  useSocketEvent<ContactListItemEvent>(`ContactListItem-${contactListId}`, (event) => patchContactListItemsCache(queryClient, event));
}

/** POST /contact-lists/:id/upload (multipart `file`): the import's state (done at once for small files). */
export const uploadSpreadsheet = (contactListId: number, file: File) => {
  const form = new FormData();
  form.append("file", file, file.name);
  return api.post<ContactListImportDTO>(`/contact-lists/${contactListId}/upload`, form);
};

export const fetchImport = (contactListId: number, importId: number) =>
  api.get<ContactListImportDTO>(`/contact-lists/${contactListId}/imports/${importId}`);

/** Downloads the sample spreadsheet (an authorised GET, handed to the browser as a file). */
export async function downloadSample(): Promise<void> {
  const token = sessionStore.getToken();
  const res = await fetch(buildUrl("/contact-lists/sample"), {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    credentials: "include",
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({ error: res.statusText }))) as { error: string };
    throw new ApiError(res.status, body);
  }
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = "modelo-lista-de-contatos.xlsx";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
