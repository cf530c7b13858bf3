import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Socket } from "socket.io-client";
import { tickets } from "../db/schema";
import { buildContact, buildQueue, buildTenant, buildUser, collectEvents, connectSocket, login, nextEvent, nextEventWhere } from "../test/factories";
import { createTestApp, type TestApp } from "../test/testApp";
import type { TicketTypingEvent, TicketViewersEvent } from "./presence";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const sockets: Socket[] = [];
const open = async (token: string) => {
  const s = await connectSocket(t.app, token);
  sockets.push(s);
  return s;
};
afterAll(() => sockets.forEach((s) => s.close()));

async function ticketOf(companyId: number, overrides: Partial<typeof tickets.$inferInsert> = {}) {
  const contact = await buildContact(t.ctx, companyId);
  const [row] = await t.ctx.database.db
    .insert(tickets)
    .values({ companyId, contactId: contact.id, status: "open", ...overrides })
    .returning();
  return row!;
}

const names = (e: TicketViewersEvent) => e.viewers.map((v) => v.name).sort();
// 10 s, not the helper's 3: with both server runs at once on a 2-core machine, the file's first test once waited
// past 3 s for its first list (the file's first queries and socket connections).
const viewersOf = (s: Socket, ticketId: number, count: number) =>
  nextEventWhere<TicketViewersEvent>(s, "ticketViewers", (e) => e.ticketId === ticketId && e.viewers.length === count, 10_000);
const settle = () => new Promise((r) => setTimeout(r, 300));

describe("who is viewing a ticket (joinChatBox)", () => {
  it("each viewer of the same ticket gets the list; leaving and disconnecting take the user out", async () => {
    const a = await buildTenant(t.app);
    const ticket = await ticketOf(a.company.id);
    const admin = await open(a.adminSession.token);
    const user = await open(a.userSession.token);

    const first = viewersOf(admin, ticket.id, 1);
    admin.emit("joinChatBox", ticket.id);
    expect((await first).viewers).toEqual([{ id: a.admin.id, name: a.admin.name }]);

    const both = [viewersOf(admin, ticket.id, 2), viewersOf(user, ticket.id, 2)];
    user.emit("joinChatBox", String(ticket.id));
    for (const e of await Promise.all(both)) expect(names(e)).toEqual([a.admin.name, a.user.name].sort());

    // A second tab of the same user is one viewer.
    const adminTab = await open(a.adminSession.token);
    const seenByUser = collectEvents<TicketViewersEvent>(user, "ticketViewers");
    adminTab.emit("joinChatBox", ticket.id);
    await settle();
    expect(seenByUser.at(-1)?.viewers).toHaveLength(2);
    adminTab.close();

    const afterLeave = viewersOf(admin, ticket.id, 1);
    user.emit("leaveChatBox", ticket.id);
    expect(names(await afterLeave)).toEqual([a.admin.name]);

    const again = viewersOf(admin, ticket.id, 2);
    user.emit("joinChatBox", ticket.id);
    await again;
    const afterDisconnect = viewersOf(admin, ticket.id, 1);
    user.close();
    expect(names(await afterDisconnect)).toEqual([a.admin.name]);
  });

  it("opening another ticket leaves the first one", async () => {
    const a = await buildTenant(t.app);
    const one = await ticketOf(a.company.id);
    const two = await ticketOf(a.company.id);
    const admin = await open(a.adminSession.token);
    const user = await open(a.userSession.token);
    admin.emit("joinChatBox", one.id);
    user.emit("joinChatBox", one.id);
    await viewersOf(admin, one.id, 2);
    const left = viewersOf(admin, one.id, 1);
    user.emit("joinChatBox", two.id);
    expect(names(await left)).toEqual([a.admin.name]);
  });

  it("never crosses companies, nor reaches a ticket the user may not see", async () => {
    const a = await buildTenant(t.app);
    const b = await buildTenant(t.app);
    const ticket = await ticketOf(a.company.id);
    const mine = await open(a.adminSession.token);
    const foreign = await open(b.adminSession.token);
    const foreignSeen = collectEvents(foreign, "ticketViewers");
    const foreignTyping = collectEvents(foreign, "ticketTyping");
    // Company B asks for company A's ticket id: refused silently, no room joined.
    foreign.emit("joinChatBox", ticket.id);
    mine.emit("joinChatBox", ticket.id);
    expect((await viewersOf(mine, ticket.id, 1)).viewers[0]!.id).toBe(a.admin.id);
    foreign.emit("typing", ticket.id);
    const mineTyping = collectEvents(mine, "ticketTyping");
    await settle();
    expect(foreignSeen).toEqual([]);
    expect(foreignTyping).toEqual([]);
    expect(mineTyping).toEqual([]);

    // An attendant outside the ticket's queue cannot join it either.
    const queue = await buildQueue(t.ctx, a.company.id);
    const queued = await ticketOf(a.company.id, { queueId: queue.id });
    const outsider = await buildUser(t.ctx, a.company.id, { profile: "user" });
    const outsiderSocket = await open((await login(t.app, outsider.email)).token);
    const outsiderSeen = collectEvents(outsiderSocket, "ticketViewers");
    outsiderSocket.emit("joinChatBox", queued.id);
    mine.emit("joinChatBox", queued.id);
    await viewersOf(mine, queued.id, 1);
    await settle();
    expect(outsiderSeen).toEqual([]);
    // Garbage ids are ignored.
    for (const bad of [null, "abc", -1, { ticketId: "1; drop" }, 1e20]) outsiderSocket.emit("joinChatBox", bad);
    await settle();
    expect(outsiderSocket.connected).toBe(true);
  });
});

describe("typing", () => {
  it("reaches the other viewers of the ticket only, throttled", async () => {
    const a = await buildTenant(t.app);
    const ticket = await ticketOf(a.company.id);
    const other = await ticketOf(a.company.id);
    const admin = await open(a.adminSession.token);
    const user = await open(a.userSession.token);
    // Another admin of the company (a second login of the same admin would end the first one's session, and close
    // its socket 200 ms after the outbox delivers that).
    const otherAdmin = await buildUser(t.ctx, a.company.id, { profile: "admin" });
    const elsewhere = await open((await login(t.app, otherAdmin.email)).token);
    admin.emit("joinChatBox", ticket.id);
    user.emit("joinChatBox", ticket.id);
    elsewhere.emit("joinChatBox", other.id);
    await viewersOf(admin, ticket.id, 2);

    const elsewhereTyping = collectEvents(elsewhere, "ticketTyping");
    const selfTyping = collectEvents(user, "ticketTyping");
    const adminTyping = collectEvents<TicketTypingEvent>(admin, "ticketTyping");
    const typed = nextEvent<TicketTypingEvent>(admin, "ticketTyping");
    user.emit("typing", ticket.id);
    expect(await typed).toEqual({ ticketId: ticket.id, user: { id: a.user.id, name: a.user.name } });
    // A burst within the throttle window is relayed once.
    for (let i = 0; i < 5; i++) user.emit("typing", ticket.id);
    // Typing for a ticket the socket has not joined is dropped.
    user.emit("typing", other.id);
    await settle();
    expect(adminTyping).toHaveLength(1);
    expect(selfTyping).toEqual([]);
    expect(elsewhereTyping).toEqual([]);
  });
});
