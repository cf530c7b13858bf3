import type { TicketListResponse } from "@balcao/shared";
import { QueryClient, type InfiniteData } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { makeTicket } from "./fixtures";
import { ticketKeys, type TicketListFilters } from "./queryKeys";
import { belongsToList, countLabel, patchTicketsCache, upsertTicket, type TicketPages } from "./ticketsCache";

const me = { id: 1, profile: "user" as const };
const admin = { id: 9, profile: "admin" as const };

const pages = (...lists: number[][]): TicketPages => ({
  pageParams: lists.map((_, i) => i + 1),
  pages: lists.map((ids, i) => ({
    tickets: ids.map((id) => makeTicket({ id })),
    hasMore: i < lists.length - 1,
    nextCursor: i < lists.length - 1 ? `cursor-${i + 2}` : null,
  })),
});
const ids = (data?: InfiniteData<TicketListResponse, unknown>) => data?.pages.map((p) => p.tickets.map((t) => t.id));

describe("belongsToList (live list rules of spec §4)", () => {
  const open: TicketListFilters = { status: "open", queueIds: [5] };
  it("keeps open/closed lists to the caller's own tickets unless an admin turned show-all on", () => {
    expect(belongsToList(makeTicket({ userId: 1 }), open, me)).toBe(true);
    expect(belongsToList(makeTicket({ userId: 2 }), open, me)).toBe(false);
    expect(belongsToList(makeTicket({ userId: 2 }), { ...open, showAll: true }, me)).toBe(false);
    expect(belongsToList(makeTicket({ userId: 2 }), { ...open, showAll: true }, admin)).toBe(true);
    // A supervisor's show-all too (its sockets only hear its queues' tickets).
    expect(belongsToList(makeTicket({ userId: 2 }), { ...open, showAll: true }, { id: 1, profile: "supervisor" })).toBe(true);
  });
  it("matches the status tab and the selected queues (queue-less tickets always pass)", () => {
    expect(belongsToList(makeTicket({ status: "pending", userId: null }), open, me)).toBe(false);
    expect(belongsToList(makeTicket({ status: "pending", userId: null }), { status: "pending", queueIds: [5] }, me)).toBe(true);
    expect(belongsToList(makeTicket({ status: "pending", userId: null, queueId: 7 }), { status: "pending", queueIds: [5] }, me)).toBe(false);
    expect(belongsToList(makeTicket({ status: "pending", userId: null, queueId: null, queue: null }), { status: "pending", queueIds: [5] }, me)).toBe(
      true,
    );
    expect(belongsToList(makeTicket({ status: "pending", userId: null, queueId: 7 }), { status: "pending", queueIds: [] }, me)).toBe(true);
  });
});

describe("patchTicketsCache (socket ticket / appMessage / contact events)", () => {
  function setup() {
    const client = new QueryClient();
    const openKey = ticketKeys.list({ status: "open", queueIds: [5] });
    const pendingKey = ticketKeys.list({ status: "pending", queueIds: [5] });
    const searchKey = ticketKeys.list({ searchParam: "ana", queueIds: [5] });
    client.setQueryData(openKey, pages([1, 2], [3]));
    client.setQueryData(pendingKey, {
      pageParams: [1],
      pages: [{ tickets: [makeTicket({ id: 10, status: "pending", userId: null, user: null })], hasMore: false }],
    });
    client.setQueryData(searchKey, pages([2]));
    return { client, openKey, pendingKey, searchKey };
  }

  it("accepting a pending ticket moves it from Aguardando to Atendendo", () => {
    const { client, openKey, pendingKey } = setup();
    patchTicketsCache(client, { action: "update", ticket: makeTicket({ id: 10, status: "open", userId: 1 }) }, me);
    expect(ids(client.getQueryData(openKey))).toEqual([[10, 1, 2], [3]]);
    expect(ids(client.getQueryData(pendingKey))).toEqual([[]]);
  });

  it("replaces in place on update, removes when the queue is no longer selected, and on delete", () => {
    const { client, openKey, searchKey } = setup();
    patchTicketsCache(client, { action: "update", ticket: makeTicket({ id: 2, lastMessage: "novo" }) }, me);
    expect(ids(client.getQueryData(openKey))).toEqual([[1, 2], [3]]);
    expect(client.getQueryData<TicketPages>(openKey)?.pages[0].tickets[1].lastMessage).toBe("novo");
    expect(client.getQueryData<TicketPages>(searchKey)?.pages[0].tickets[0].lastMessage).toBe("novo");

    patchTicketsCache(client, { action: "update", ticket: makeTicket({ id: 3, queueId: 7, queue: { id: 7, name: "Suporte", color: "#00f" } }) }, me);
    expect(ids(client.getQueryData(openKey))).toEqual([[1, 2], []]);

    patchTicketsCache(client, { action: "delete", ticketId: 2 }, me);
    expect(ids(client.getQueryData(openKey))).toEqual([[1], []]);
    expect(ids(client.getQueryData(searchKey))).toEqual([[]]);
  });

  it("a ticket given to another user leaves my open list; search lists never gain rows locally", () => {
    const { client, openKey, searchKey } = setup();
    patchTicketsCache(client, { action: "update", ticket: makeTicket({ id: 1, userId: 2, user: { id: 2, name: "Bia" } }) }, me);
    expect(ids(client.getQueryData(openKey))).toEqual([[2], [3]]);
    patchTicketsCache(client, { action: "update", ticket: makeTicket({ id: 44 }) }, me);
    expect(ids(client.getQueryData(searchKey))).toEqual([[2]]);
  });

  it("a new message moves the ticket to the top with its unread count; updateUnread zeroes it", () => {
    const { client, openKey } = setup();
    patchTicketsCache(client, { action: "message", ticket: makeTicket({ id: 3, unreadMessages: 4 }) }, me);
    const data = client.getQueryData<TicketPages>(openKey);
    expect(ids(data)).toEqual([[3, 1, 2], []]);
    expect(data?.pages[0].tickets[0].unreadMessages).toBe(4);
    patchTicketsCache(client, { action: "updateUnread", ticketId: 3 }, me);
    expect(client.getQueryData<TicketPages>(openKey)?.pages[0].tickets[0].unreadMessages).toBe(0);
  });

  it("a contact update refreshes the contact on its rows and the opened ticket", () => {
    const { client, openKey } = setup();
    const ticket = makeTicket({ id: 1 });
    client.setQueryData(ticketKeys.detail(ticket.uuid), ticket);
    patchTicketsCache(client, { action: "contact", contact: { id: ticket.contactId, name: "Novo Nome" } }, me);
    expect(client.getQueryData<TicketPages>(openKey)?.pages[0].tickets[0].contact.name).toBe("Novo Nome");
    expect(client.getQueryData<typeof ticket>(ticketKeys.detail(ticket.uuid))?.contact.name).toBe("Novo Nome");
  });

  it("keeps the bell's unread list: adds unread open/pending tickets, drops read or others' ones", () => {
    const client = new QueryClient();
    client.setQueryData(ticketKeys.unread, { tickets: [], hasMore: false });
    patchTicketsCache(client, { action: "message", ticket: makeTicket({ id: 5, unreadMessages: 1 }) }, me);
    patchTicketsCache(client, { action: "message", ticket: makeTicket({ id: 6, unreadMessages: 1, userId: 2 }) }, me);
    expect(client.getQueryData<TicketListResponse>(ticketKeys.unread)?.tickets.map((t) => t.id)).toEqual([5]);
    patchTicketsCache(client, { action: "updateUnread", ticketId: 5 }, me);
    expect(client.getQueryData<TicketListResponse>(ticketKeys.unread)?.tickets).toEqual([]);
  });
});

describe("upsertTicket / countLabel", () => {
  it("adds a new matching ticket at the top of the first page", () => {
    const next = upsertTicket(pages([1]), makeTicket({ id: 7 }), { status: "open" }, me);
    expect(ids(next)).toEqual([[7, 1]]);
  });
  it("counts loaded rows and shows '+' when more pages exist (no COUNT endpoint)", () => {
    expect(countLabel(pages([1, 2]))).toBe("2");
    expect(countLabel(pages([1, 2], [3]))).toBe("3");
    const more: TicketPages = {
      pageParams: [1],
      pages: [{ tickets: Array.from({ length: 40 }, (_, i) => makeTicket({ id: i + 1 })), hasMore: true, nextCursor: "cursor-2" }],
    };
    expect(countLabel(more)).toBe("40+");
    expect(countLabel(undefined)).toBe("0");
  });
});
