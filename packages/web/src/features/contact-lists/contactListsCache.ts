import type { ContactListDTO, ContactListEvent, ContactListItemDTO, ContactListItemEvent } from "@balcao/shared";
import type { QueryClient } from "@tanstack/react-query";
import { containsSearch, patchPagedLists } from "../../components/list/listCache";
import { contactListKeys } from "./queryKeys";

const byName = (a: { name: string; id: number }, b: { name: string; id: number }) => a.name.localeCompare(b.name, "pt-BR") || a.id - b.id;

/** The server's search of GET /contact-lists: the name, case- and accent-insensitive. */
export const matchesListSearch = (list: Pick<ContactListDTO, "name">, search: string) => containsSearch(search, list.name);

/** The server's search of GET /contact-list-items: name or email, or the digits of the number. */
export function matchesItemSearch(item: Pick<ContactListItemDTO, "name" | "email" | "number">, search: string): boolean {
  const digits = search.replace(/\D/g, "");
  return containsSearch(search, item.name, item.email) || (digits !== "" && item.number.includes(digits));
}

/** Applies a `ContactList` event (or a save's answer) to every cached page of lists and to the list's detail. */
export function patchContactListsCache(queryClient: QueryClient, event: ContactListEvent): void {
  const options = { listsKey: contactListKeys.lists(), field: "records", matches: matchesListSearch, compare: byName } as const;
  if (event.action === "delete") {
    patchPagedLists(queryClient, options, { remove: event.id });
    queryClient.removeQueries({ queryKey: contactListKeys.detail(event.id) });
    return;
  }
  const record = event.record;
  if (!record) return;
  patchPagedLists(queryClient, options, { upsert: record });
  queryClient.setQueryData<ContactListDTO>(contactListKeys.detail(record.id), record);
}

/** Applies a `ContactListItem` event to the cached pages of its list; `reload` refetches them. */
export function patchContactListItemsCache(queryClient: QueryClient, event: ContactListItemEvent): void {
  if (event.action === "reload") {
    void queryClient.invalidateQueries({ queryKey: contactListKeys.items(event.contactListId) });
    return;
  }
  const listId = event.action === "delete" ? event.contactListId : event.record.contactListId;
  const options = { listsKey: contactListKeys.items(listId), field: "contacts", matches: matchesItemSearch, compare: byName } as const;
  patchPagedLists(queryClient, options, event.action === "delete" ? { remove: event.id } : { upsert: event.record });
}
