/**
 * Kanban board through the HTTP API: lanes from Kanban tags, visibility per profile, one-call moves with
 * conflict detection, live `ticket` events to another user's socket, isolation, and a 5,000-ticket board.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KANBAN_PREVIEW_CHARS, type KanbanResponse, type TicketDTO, type TicketEvent } from "@balcao/shared";
import { connections, ticketTags, tickets, userQueues } from "../../db/schema";
import {
  buildContact,
  buildQueue,
  buildTag,
  buildTenant,
  buildUser,
  collectEvents,
  connectSocket,
  login,
  nextEventWhere,
  type Session,
} from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const db = () => t.ctx.database.db;
const call = (s: Session, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: s.headers, ...(payload ? { payload } : {}) });

async function board() {
  const d = await buildTenant(t.app);
  const [connection] = await db()
    .insert(connections)
    .values({ companyId: d.company.id, name: "Conexão", isDefault: true, status: "CONNECTED" })
    .returning();
  const sales = await buildQueue(t.ctx, d.company.id, { name: "Vendas" });
  const support = await buildQueue(t.ctx, d.company.id, { name: "Suporte" });
  await db().insert(userQueues).values({ companyId: d.company.id, userId: d.user.id, queueId: sales.id });
  const userSession = await login(t.app, d.user.email);
  const proposal = await buildTag(t.ctx, d.company.id, { name: "Proposta", kanban: 1 });
  const closing = await buildTag(t.ctx, d.company.id, { name: "Fechamento", kanban: 1 });
  const vip = await buildTag(t.ctx, d.company.id, { name: "VIP", kanban: 0 });
  const ticket = async (overrides: Partial<typeof tickets.$inferInsert> = {}) => {
    const contact = await buildContact(t.ctx, d.company.id);
    const [row] = await db()
      .insert(tickets)
      .values({
        companyId: d.company.id,
        contactId: contact.id,
        connectionId: connection!.id,
        status: "pending",
        lastMessage: "Quero um orçamento",
        ...overrides,
      })
      .returning();
    return row!;
  };
  return { ...d, userSession, sales, support, proposal, closing, vip, ticket };
}

async function cardsOf(s: Session, query = "") {
  const res = await call(s, "GET", `/ticket/kanban${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as KanbanResponse;
}

describe("GET /ticket/kanban", () => {
  it("answers pending and open tickets with contact, last message and tags; closed ones stay off the board", async () => {
    const b = await board();
    const a = await b.ticket({ queueId: b.sales.id });
    const c = await b.ticket({ queueId: b.sales.id, status: "open", userId: b.admin.id });
    await b.ticket({ queueId: b.sales.id, status: "closed" });
    await db()
      .insert(ticketTags)
      .values([
        { companyId: b.company.id, ticketId: a.id, tagId: b.proposal.id },
        { companyId: b.company.id, ticketId: a.id, tagId: b.vip.id },
      ]);
    const res = await cardsOf(b.adminSession);
    expect(res.truncated).toBe(false);
    expect(res.tickets.map((x) => x.id).sort()).toEqual([a.id, c.id].sort());
    const card = res.tickets.find((x) => x.id === a.id)!;
    expect(card).toMatchObject({ uuid: a.uuid, status: "pending", lastMessage: "Quero um orçamento", contact: { id: a.contactId } });
    expect(card.tags.map((x) => x.name).sort()).toEqual(["Proposta", "VIP"]);
    expect(Object.keys(card.contact).sort()).toEqual(["id", "name", "number"]);
  });

  it("a profile-user sees only its queues' (and queue-less and its own) tickets; queueIds narrows; admins see all", async () => {
    const b = await board();
    const mine = await b.ticket({ queueId: b.sales.id });
    const other = await b.ticket({ queueId: b.support.id });
    const loose = await b.ticket({ queueId: null });
    const assigned = await b.ticket({ queueId: b.support.id, status: "open", userId: b.user.id });
    const ids = (r: KanbanResponse) => r.tickets.map((x) => x.id).sort();
    expect(ids(await cardsOf(b.userSession))).toEqual([mine.id, loose.id, assigned.id].sort());
    // Asking for another queue does not widen what it sees.
    expect(ids(await cardsOf(b.userSession, `?queueIds=${encodeURIComponent(JSON.stringify([b.support.id]))}`))).toEqual(
      [loose.id, assigned.id].sort(),
    );
    expect(ids(await cardsOf(b.adminSession))).toEqual([mine.id, other.id, loose.id, assigned.id].sort());
    expect(ids(await cardsOf(b.adminSession, `?queueIds=${encodeURIComponent(JSON.stringify([b.support.id]))}`))).toEqual(
      [other.id, loose.id, assigned.id].sort(),
    );
    expect((await call(b.adminSession, "GET", "/ticket/kanban?queueIds=%5B%22x%22%5D")).statusCode).toBe(400);
    expect((await t.app.inject({ method: "GET", url: "/api/ticket/kanban" })).statusCode).toBe(401);
  });

  it("answers a 5,000-ticket board in one response, quickly, with card-sized last messages", async () => {
    const b = await board();
    const contact = await buildContact(t.ctx, b.company.id);
    // One contact per ticket is not needed for the board's cost; distinct connections are (one live ticket per contact and connection).
    const many = await db()
      .insert(connections)
      .values(Array.from({ length: 5000 }, (_, i) => ({ companyId: b.company.id, name: `C${i}`, status: "CONNECTED" })))
      .returning({ id: connections.id });
    const inserted = await db()
      .insert(tickets)
      .values(
        many.map((c, i) => ({
          companyId: b.company.id,
          contactId: contact.id,
          connectionId: c.id,
          queueId: b.sales.id,
          status: i % 2 ? "open" : "pending",
          lastMessage: `Mensagem ${i} `.padEnd(400, "x"),
        })),
      )
      .returning({ id: tickets.id });
    await db()
      .insert(ticketTags)
      .values(inserted.filter((_, i) => i % 3 === 0).map((x) => ({ companyId: b.company.id, ticketId: x.id, tagId: b.proposal.id })));
    const started = performance.now();
    const res = await call(b.adminSession, "GET", "/ticket/kanban");
    const ms = performance.now() - started;
    expect(res.statusCode).toBe(200);
    const body = res.json() as KanbanResponse;
    expect(body.tickets).toHaveLength(5000);
    expect(body.tickets.filter((x) => x.tags.some((tag) => tag.id === b.proposal.id))).toHaveLength(1667);
    expect(Math.max(...body.tickets.map((x) => x.lastMessage.length))).toBe(KANBAN_PREVIEW_CHARS);
    console.log(`kanban board of 5,000 tickets: ${Math.round(ms)} ms, ${(res.rawPayload.length / 1024).toFixed(0)} KiB`);
    expect(ms).toBeLessThan(5000);
  });
});

describe("PUT /ticket/kanban/:ticketId", () => {
  it("moves a card between lanes in one call, keeping other tags, and tells another user's socket", async () => {
    const b = await board();
    const card = await b.ticket({ queueId: b.sales.id });
    await db()
      .insert(ticketTags)
      .values([
        { companyId: b.company.id, ticketId: card.id, tagId: b.proposal.id },
        { companyId: b.company.id, ticketId: card.id, tagId: b.vip.id },
      ]);
    const watcher = await connectSocket(t.app, b.adminSession.token);
    try {
      const seen = nextEventWhere<TicketEvent>(watcher, "ticket", (e) => e.action === "update" && e.ticket.id === card.id, 5000);
      const res = await call(b.userSession, "PUT", `/ticket/kanban/${card.id}`, { fromTagId: b.proposal.id, toTagId: b.closing.id });
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as TicketDTO).tags.map((x) => x.name).sort()).toEqual(["Fechamento", "VIP"]);
      const event = (await seen) as Extract<TicketEvent, { action: "update" }>;
      expect(event.ticket.tags.map((x) => x.name).sort()).toEqual(["Fechamento", "VIP"]);
      // Back to 'Em aberto': only the lane's tag goes.
      const back = await call(b.userSession, "PUT", `/ticket/kanban/${card.id}`, { fromTagId: b.closing.id, toTagId: null });
      expect((back.json() as TicketDTO).tags.map((x) => x.name)).toEqual(["VIP"]);
    } finally {
      watcher.disconnect();
    }
  });

  it("refuses a move from a lane the card already left (409), unknown or non-Kanban lanes (404), and tickets out of sight", async () => {
    const b = await board();
    const card = await b.ticket({ queueId: b.sales.id });
    expect((await call(b.adminSession, "PUT", `/ticket/kanban/${card.id}`, { fromTagId: null, toTagId: b.proposal.id })).statusCode).toBe(200);
    const stale = await call(b.userSession, "PUT", `/ticket/kanban/${card.id}`, { fromTagId: null, toTagId: b.closing.id });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: "ERR_KANBAN_LANE_CHANGED", meta: { laneTagId: b.proposal.id } });
    expect((await call(b.userSession, "PUT", `/ticket/kanban/${card.id}`, { fromTagId: b.proposal.id, toTagId: b.vip.id })).json().error).toBe(
      "ERR_NO_TAG_FOUND",
    );
    expect((await call(b.userSession, "PUT", `/ticket/kanban/${card.id}`, { toTagId: "abc" })).statusCode).toBe(400);
    // A ticket of a queue the attendant does not serve.
    const hidden = await b.ticket({ queueId: b.support.id });
    expect((await call(b.userSession, "PUT", `/ticket/kanban/${hidden.id}`, { toTagId: b.proposal.id })).statusCode).toBe(403);
    // Another company's ticket or lane: 404 like a missing one.
    const other = await board();
    expect((await call(other.adminSession, "PUT", `/ticket/kanban/${card.id}`, { toTagId: other.proposal.id })).json().error).toBe(
      "ERR_NO_TICKET_FOUND",
    );
    expect((await call(b.adminSession, "PUT", `/ticket/kanban/${card.id}`, { toTagId: other.proposal.id })).json().error).toBe("ERR_NO_TAG_FOUND");
    expect((await cardsOf(other.adminSession)).tickets).toEqual([]);
  });

  it("a supervisor moves cards of its queues like an attendant", async () => {
    const b = await board();
    const supervisor = await buildUser(t.ctx, b.company.id, { profile: "supervisor" });
    await db().insert(userQueues).values({ companyId: b.company.id, userId: supervisor.id, queueId: b.support.id });
    const session = await login(t.app, supervisor.email);
    const ofSupport = await b.ticket({ queueId: b.support.id });
    const ofSales = await b.ticket({ queueId: b.sales.id });
    expect((await cardsOf(session)).tickets.map((x) => x.id)).toEqual([ofSupport.id]);
    expect((await call(session, "PUT", `/ticket/kanban/${ofSupport.id}`, { toTagId: b.closing.id })).statusCode).toBe(200);
    expect((await call(session, "PUT", `/ticket/kanban/${ofSales.id}`, { toTagId: b.closing.id })).statusCode).toBe(403);
  });

  it("tags changed from the ticket's tag editor reach the board's sockets too", async () => {
    const b = await board();
    const card = await b.ticket({ queueId: b.sales.id });
    const watcher = await connectSocket(t.app, b.userSession.token);
    const outsider = await connectSocket(t.app, (await board()).adminSession.token);
    try {
      const foreign = collectEvents<TicketEvent>(outsider, "ticket");
      const seen = nextEventWhere<TicketEvent>(
        watcher,
        "ticket",
        (e) => e.action === "update" && e.ticket.id === card.id && e.ticket.tags.length === 1,
        5000,
      );
      expect((await call(b.adminSession, "POST", "/tags/sync", { ticketId: card.id, tags: [{ id: b.closing.id }] })).statusCode).toBe(200);
      const event = (await seen) as Extract<TicketEvent, { action: "update" }>;
      expect(event.ticket.tags.map((x) => x.id)).toEqual([b.closing.id]);
      await t.ctx.events.drain();
      expect(foreign).toEqual([]);
    } finally {
      watcher.disconnect();
      outsider.disconnect();
    }
  });
});
