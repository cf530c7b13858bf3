import type { ContactDTO, ContactListResponse } from "@balcao/shared";
import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import { contactKeys } from "./queryKeys";

/** Payload of the `contact` socket event (docs/api.md, Contacts). */
export type ContactEvent = { action: "create" | "update"; contact: ContactDTO } | { action: "delete"; contactId: number };

type ContactPages = InfiniteData<ContactListResponse, number>;

const fold = (text: string) => text.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();

/** The server's search (docs/api.md): name and email, case/accent-insensitive; with ≥ 3 digits also the number. */
export function matchesContactSearch(contact: Pick<ContactDTO, "name" | "email" | "number">, search: string): boolean {
  const needle = fold(search.trim());
  if (!needle) return true;
  if (fold(contact.name).includes(needle) || fold(contact.email ?? "").includes(needle)) return true;
  const digits = search.replace(/\D/g, "");
  return digits.length >= 3 && !!contact.number && contact.number.includes(digits);
}

const byName = (a: ContactDTO, b: ContactDTO) => a.name.localeCompare(b.name, "pt-BR");

/** Replaces the contact where it is listed (keeping extra info the event lacks); otherwise adds it, by name, when it matches. */
export function upsertContact(data: ContactPages, contact: ContactDTO, search: string): ContactPages {
  const present = data.pages.some((page) => page.contacts.some((c) => c.id === contact.id));
  if (present) {
    if (!matchesContactSearch(contact, search)) return removeContact(data, contact.id);
    return {
      ...data,
      pages: data.pages.map((page) => ({ ...page, contacts: page.contacts.map((c) => (c.id === contact.id ? { ...c, ...contact } : c)) })),
    };
  }
  if (!matchesContactSearch(contact, search) || data.pages.length === 0) return data;
  // Insert in name order among the loaded pages; past the last loaded row it arrives with its page.
  const last = data.pages[data.pages.length - 1]!;
  const lastRow = last.contacts[last.contacts.length - 1];
  if (last.hasMore && lastRow && byName(contact, lastRow) > 0) return data;
  const index = data.pages.findIndex((page, i) => i === data.pages.length - 1 || page.contacts.some((c) => byName(contact, c) < 0));
  return {
    ...data,
    pages: data.pages.map((page, i) => (i === index ? { ...page, contacts: [...page.contacts, contact].sort(byName) } : page)),
  };
}

export function removeContact(data: ContactPages, contactId: number): ContactPages {
  return { ...data, pages: data.pages.map((page) => ({ ...page, contacts: page.contacts.filter((c) => c.id !== contactId) })) };
}

/** Applies a create/update/delete to every cached contacts list (each keyed by its search text) and the detail entry. */
export function patchContactsCache(queryClient: QueryClient, event: ContactEvent): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: contactKeys.lists() })) {
    const search = String(query.queryKey[2] ?? "");
    queryClient.setQueryData<ContactPages>(query.queryKey, (old) => {
      if (!old) return old;
      return event.action === "delete" ? removeContact(old, event.contactId) : upsertContact(old, event.contact, search);
    });
  }
  if (event.action === "delete") queryClient.removeQueries({ queryKey: contactKeys.detail(event.contactId) });
  else if (event.contact.extraInfo) queryClient.setQueryData(contactKeys.detail(event.contact.id), event.contact);
  else void queryClient.invalidateQueries({ queryKey: contactKeys.detail(event.contact.id) });
}
