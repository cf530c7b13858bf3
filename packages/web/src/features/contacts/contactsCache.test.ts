import type { ContactListResponse } from "@balcao/shared";
import { QueryClient, type InfiniteData } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { makeContact } from "./fixtures";
import { matchesContactSearch, patchContactsCache } from "./contactsCache";
import { contactKeys } from "./queryKeys";

type Pages = InfiniteData<ContactListResponse, number>;

let nextId = 100;
const contact = (name: string, number = `55119${String(nextId).padStart(8, "0")}`) =>
  makeContact({ id: nextId++, name, number, email: `${name.toLowerCase()}@x.test` });

const pages = (...lists: ReturnType<typeof contact>[][]): Pages => ({
  pageParams: lists.map((_, i) => i + 1),
  pages: lists.map((contacts, i) => ({ contacts, hasMore: i < lists.length - 1 })),
});

const names = (data?: Pages) => data?.pages.map((p) => p.contacts.map((c) => c.name));

describe("patchContactsCache (socket `contact` event)", () => {
  it("adds a created contact to the lists it matches, in name order, updates in place and deletes", () => {
    const client = new QueryClient();
    const ana = contact("Ana");
    const caio = contact("Caio");
    client.setQueryData(contactKeys.list(""), pages([ana, caio]));
    client.setQueryData(contactKeys.list("caio"), pages([caio]));

    const bia = contact("Bia");
    patchContactsCache(client, { action: "create", contact: bia });
    expect(names(client.getQueryData(contactKeys.list("")))).toEqual([["Ana", "Bia", "Caio"]]);
    expect(names(client.getQueryData(contactKeys.list("caio")))).toEqual([["Caio"]]);

    patchContactsCache(client, { action: "update", contact: { ...bia, name: "Beatriz" } });
    expect(names(client.getQueryData(contactKeys.list("")))).toEqual([["Ana", "Beatriz", "Caio"]]);

    // A renamed contact that no longer matches a search leaves that list.
    patchContactsCache(client, { action: "update", contact: { ...caio, name: "Carlos", email: "carlos@x.test" } });
    expect(names(client.getQueryData(contactKeys.list("caio")))).toEqual([[]]);

    patchContactsCache(client, { action: "delete", contactId: ana.id });
    expect(names(client.getQueryData(contactKeys.list("")))).toEqual([["Beatriz", "Carlos"]]);
  });

  it("leaves a contact past the loaded pages to its own page and keeps the detail entry in step", () => {
    const client = new QueryClient();
    const ana = contact("Ana");
    const bia = contact("Bia");
    // Two loaded pages, the last with more to come: "Zé" sorts after everything loaded.
    client.setQueryData(contactKeys.list(""), {
      ...pages([ana], [bia]),
      pages: [
        { contacts: [ana], hasMore: true },
        { contacts: [bia], hasMore: true },
      ],
    });
    patchContactsCache(client, { action: "create", contact: contact("Zé") });
    expect(names(client.getQueryData(contactKeys.list("")))).toEqual([["Ana"], ["Bia"]]);
    patchContactsCache(client, { action: "create", contact: contact("Amanda") });
    expect(names(client.getQueryData(contactKeys.list("")))).toEqual([["Amanda", "Ana"], ["Bia"]]);

    const withInfo = { ...bia, extraInfo: [{ id: 1, name: "CPF", value: "1" }] };
    patchContactsCache(client, { action: "update", contact: withInfo });
    expect(client.getQueryData(contactKeys.detail(bia.id))).toEqual(withInfo);
    patchContactsCache(client, { action: "delete", contactId: bia.id });
    expect(client.getQueryData(contactKeys.detail(bia.id))).toBeUndefined();
  });

  it("matches the server's search: name and email without accents or case, digits from 3 on", () => {
    const joao = makeContact({ name: "João Müller", email: "JM@Empresa.test", number: "5511987654321" });
    expect(matchesContactSearch(joao, "joao")).toBe(true);
    expect(matchesContactSearch(joao, "MULLER")).toBe(true);
    expect(matchesContactSearch(joao, "empresa")).toBe(true);
    expect(matchesContactSearch(joao, "(11) 98765")).toBe(true);
    expect(matchesContactSearch(joao, "55")).toBe(false);
    expect(matchesContactSearch(joao, "maria")).toBe(false);
  });
});
