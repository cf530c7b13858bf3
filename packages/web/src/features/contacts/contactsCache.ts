import type { ContactDTO } from "@balcao/shared";
import type { QueryClient } from "@tanstack/react-query";
import { containsSearch, patchPagedLists } from "../../components/list/listCache";
import { contactKeys } from "./queryKeys";

/** Payload of the `contact` socket event (docs/api.md, Contacts). */
export type ContactEvent = { action: "create" | "update"; contact: ContactDTO } | { action: "delete"; contactId: number };

/** The server's search (docs/api.md): name and email, case/accent-insensitive; with ≥ 3 digits also the number. */
export function matchesContactSearch(contact: Pick<ContactDTO, "name" | "email" | "number">, search: string): boolean {
  if (!search.trim() || containsSearch(search, contact.name, contact.email)) return true;
  const digits = search.replace(/\D/g, "");
  return digits.length >= 3 && !!contact.number && contact.number.includes(digits);
}

const lists = {
  listsKey: contactKeys.lists(),
  field: "contacts",
  matches: matchesContactSearch,
  compare: (a: ContactDTO, b: ContactDTO) => a.name.localeCompare(b.name, "pt-BR"),
} as const;

/**
 * Applies a create/update/delete to every cached contacts list (each keyed by its search text; a row keeps
 * the extra info the event lacks) and to the contact's detail entry.
 */
export function patchContactsCache(queryClient: QueryClient, event: ContactEvent): void {
  patchPagedLists(queryClient, lists, event.action === "delete" ? { remove: event.contactId } : { upsert: event.contact });
  if (event.action === "delete") queryClient.removeQueries({ queryKey: contactKeys.detail(event.contactId) });
  else if (event.contact.extraInfo) queryClient.setQueryData(contactKeys.detail(event.contact.id), event.contact);
  else void queryClient.invalidateQueries({ queryKey: contactKeys.detail(event.contact.id) });
}
