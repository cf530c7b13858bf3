import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attendanceCycles, connections, contacts, messages, tags, tickets, ticketTags, userQueues } from "../../db/schema";
import type { AppContext } from "../../context";
import { buildQueue, buildTenant, buildUser, collectEvents, connectSocket, login, nextEventWhere, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

let t: TestApp;
let seq = 0;

async function addConnection(ctx: AppContext, companyId: number, isDefault = true) {
  const [row] = await ctx.database.db
    .insert(connections)
    .values({ companyId, name: `Conexão ${++seq}`, isDefault, status: "CONNECTED" })
    .returning();
  return row!;
}
async function addContact(ctx: AppContext, companyId: number, name = `Cliente ${++seq}`, number = `55119${String(10_000_000 + ++seq)}`) {
  const [row] = await ctx.database.db.insert(contacts).values({ companyId, name, number }).returning();
  return row!;
}
async function addTicket(ctx: AppContext, values: Partial<typeof tickets.$inferInsert> & { companyId: number; contactId: number }) {
  const [row] = await ctx.database.db
    .insert(tickets)
    .values({ status: "pending", ...values })
    .returning();
  return row!;
}

/** A company with two queues, an admin, an attendant in queue 1 and one in queue 2, a connection. */
async function buildDesk() {
  const tenant = await buildTenant(t.app);
  const q1 = await buildQueue(t.ctx, tenant.company.id, { name: `Vendas ${++seq}` });
  const q2 = await buildQueue(t.ctx, tenant.company.id, { name: `Suporte ${++seq}` });
  const db = t.ctx.database.db;
  await db.insert(userQueues).values({ companyId: tenant.company.id, userId: tenant.user.id, queueId: q1.id });
  const other = await buildUser(t.ctx, tenant.company.id);
  await db.insert(userQueues).values({ companyId: tenant.company.id, userId: other.id, queueId: q2.id });
  const connection = await addConnection(t.ctx, tenant.company.id);
  // Log in again: the sessions' actors must include the queues just linked.
  const userSession = await login(t.app, tenant.user.email);
  const otherSession = await login(t.app, other.email);
  return { ...tenant, userSession, q1, q2, other, otherSession, connection };
}

const call = (s: Session | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: s ? s.headers : {}, ...(payload ? { payload } : {}) });

const ids = (res: { json(): { tickets: { id: number }[] } }) => res.json().tickets.map((x) => x.id);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("who sees what", () => {
  it("a profile-user lists its queues' and queue-less tickets only; admins list all", async () => {
    const d = await buildDesk();
    const c = d.company.id;
    const inQ1 = await addTicket(t.ctx, {
      companyId: c,
      contactId: (await addContact(t.ctx, c)).id,
      queueId: d.q1.id,
      connectionId: d.connection.id,
    });
    const inQ2 = await addTicket(t.ctx, {
      companyId: c,
      contactId: (await addContact(t.ctx, c)).id,
      queueId: d.q2.id,
      connectionId: d.connection.id,
    });
    const noQueue = await addTicket(t.ctx, { companyId: c, contactId: (await addContact(t.ctx, c)).id, connectionId: d.connection.id });
    const userView = ids(await call(d.userSession, "GET", "/tickets?status=pending"));
    expect(userView).toEqual(expect.arrayContaining([inQ1.id, noQueue.id]));
    expect(userView).not.toContain(inQ2.id);
    // showAll is an admin switch: ignored for others.
    expect(ids(await call(d.userSession, "GET", "/tickets?status=pending&showAll=true"))).not.toContain(inQ2.id);
    expect(ids(await call(d.adminSession, "GET", "/tickets?status=pending"))).toEqual(expect.arrayContaining([inQ1.id, inQ2.id, noQueue.id]));
  });

  it("opening another queue's ticket answers 'Acesso não permitido'; another company's is a 404 like a missing one", async () => {
    const d = await buildDesk();
    const foreign = await buildDesk();
    const c = d.company.id;
    const inQ2 = await addTicket(t.ctx, { companyId: c, contactId: (await addContact(t.ctx, c)).id, queueId: d.q2.id });
    const denied = await call(d.userSession, "GET", `/tickets/${inQ2.id}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: "Acesso não permitido" });
    expect((await call(d.userSession, "GET", `/tickets/u/${inQ2.uuid}`)).statusCode).toBe(403);
    expect((await call(d.otherSession, "GET", `/tickets/${inQ2.id}`)).statusCode).toBe(200);
    const cross = await call(foreign.adminSession, "GET", `/tickets/${inQ2.id}`);
    const missing = await call(foreign.adminSession, "GET", `/tickets/2000000000`);
    expect(cross.statusCode).toBe(404);
    expect(cross.body).toBe(missing.body);
    expect((await call(foreign.adminSession, "GET", `/tickets/u/${inQ2.uuid}`)).statusCode).toBe(404);
    expect(ids(await call(foreign.adminSession, "GET", "/tickets"))).not.toContain(inQ2.id);
    for (const [method, body] of [
      ["PUT", { status: "open" }],
      ["DELETE", undefined],
    ] as const) {
      expect((await call(foreign.adminSession, method, `/tickets/${inQ2.id}`, body)).statusCode).toBe(404);
    }
    const [still] = await t.ctx.database.db.select().from(tickets).where(eq(tickets.id, inQ2.id));
    expect(still).toMatchObject({ status: "pending", userId: null });
  });

  it("the open and closed tabs show one's own tickets unless an admin asks for all", async () => {
    const d = await buildDesk();
    const c = d.company.id;
    const mine = await addTicket(t.ctx, {
      companyId: c,
      contactId: (await addContact(t.ctx, c)).id,
      queueId: d.q1.id,
      status: "open",
      userId: d.user.id,
    });
    const theirs = await addTicket(t.ctx, {
      companyId: c,
      contactId: (await addContact(t.ctx, c)).id,
      queueId: d.q1.id,
      status: "open",
      userId: d.admin.id,
    });
    expect(ids(await call(d.userSession, "GET", "/tickets?status=open"))).toEqual([mine.id]);
    expect(ids(await call(d.adminSession, "GET", "/tickets?status=open"))).toEqual([theirs.id]);
    expect(ids(await call(d.adminSession, "GET", "/tickets?status=open&showAll=true"))).toEqual([theirs.id, mine.id]);
    expect(ids(await call(d.adminSession, "GET", `/tickets?status=open&showAll=true&users=[${d.user.id}]`))).toEqual([mine.id]);
  });
});

describe("listing filters", () => {
  it("searches contact name (accents, case), number and message text; filters by tags (all), unread, queues, date", async () => {
    const d = await buildDesk();
    const c = d.company.id;
    const db = t.ctx.database.db;
    const joao = await addTicket(t.ctx, {
      companyId: c,
      contactId: (await addContact(t.ctx, c, "João Conceição", "5511987650001")).id,
      connectionId: d.connection.id,
    });
    const maria = await addTicket(t.ctx, {
      companyId: c,
      contactId: (await addContact(t.ctx, c, "Maria", "5511987650002")).id,
      connectionId: d.connection.id,
      unreadMessages: 2,
      queueId: d.q1.id,
    });
    await db.insert(messages).values({ companyId: c, ticketId: maria.id, body: "Quero um orçamento de PÃO" });
    expect(ids(await call(d.adminSession, "GET", "/tickets?searchParam=joao%20CONCEICAO"))).toEqual([joao.id]);
    expect(ids(await call(d.adminSession, "GET", "/tickets?searchParam=650002"))).toEqual([maria.id]);
    expect(ids(await call(d.adminSession, "GET", "/tickets?searchParam=orcamento%20de%20pao"))).toEqual([maria.id]);
    expect(ids(await call(d.adminSession, "GET", "/tickets?searchParam=%25"))).toEqual([]);
    expect(ids(await call(d.adminSession, "GET", "/tickets?withUnreadMessages=true"))).toEqual([maria.id]);
    expect(ids(await call(d.adminSession, "GET", `/tickets?queueIds=[${d.q2.id}]`))).toEqual([joao.id]);
    const [vip, hot] = await db
      .insert(tags)
      .values([
        { companyId: c, name: "VIP", color: "#000" },
        { companyId: c, name: "Quente", color: "#f00" },
      ])
      .returning();
    await db.insert(ticketTags).values([
      { companyId: c, ticketId: joao.id, tagId: vip!.id },
      { companyId: c, ticketId: maria.id, tagId: vip!.id },
      { companyId: c, ticketId: maria.id, tagId: hot!.id },
    ]);
    expect(ids(await call(d.adminSession, "GET", `/tickets?tags=${vip!.id},${hot!.id}`)).sort()).toEqual([maria.id]);
    const res = await call(d.adminSession, "GET", `/tickets?tags=[${vip!.id}]`);
    expect(ids(res).sort()).toEqual([joao.id, maria.id].sort());
    expect(
      res
        .json()
        .tickets.find((x: { id: number }) => x.id === maria.id)
        .tags.map((g: { name: string }) => g.name),
    ).toEqual(["Quente", "VIP"]);
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date());
    expect(ids(await call(d.adminSession, "GET", `/tickets?date=${today}`)).sort()).toEqual([joao.id, maria.id].sort());
    expect(ids(await call(d.adminSession, "GET", `/tickets?date=2001-01-01`))).toEqual([]);
    for (const bad of ["tags=abc", "queueIds=[1,'x']", "status=weird", "date=yesterday", "pageNumber=0"]) {
      expect((await call(d.adminSession, "GET", `/tickets?${bad}`)).statusCode).toBe(400);
    }
  });

  it("pages by 40, newest activity first, with hasMore and without COUNT", async () => {
    const d = await buildDesk();
    const c = d.company.id;
    const base = Date.now();
    for (let i = 0; i < 41; i++) {
      await addTicket(t.ctx, { companyId: c, contactId: (await addContact(t.ctx, c)).id, updatedAt: new Date(base - i * 1000) });
    }
    const p1 = (await call(d.adminSession, "GET", "/tickets")).json();
    const p2 = (await call(d.adminSession, "GET", "/tickets?pageNumber=2")).json();
    expect(p1.tickets).toHaveLength(40);
    expect(p1.hasMore).toBe(true);
    expect(p2.tickets).toHaveLength(1);
    expect(p2.hasMore).toBe(false);
    const times = p1.tickets.map((x: { updatedAt: string }) => Date.parse(x.updatedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});

describe("lifecycle (PUT /tickets/:id)", () => {
  it("accept → return → accept → resolve → reopen, with one attendance cycle per attendance", async () => {
    const d = await buildDesk();
    const c = d.company.id;
    const ticket = await addTicket(t.ctx, {
      companyId: c,
      contactId: (await addContact(t.ctx, c)).id,
      queueId: d.q1.id,
      connectionId: d.connection.id,
      unreadMessages: 3,
    });
    const put = (s: Session, body: object) => call(s, "PUT", `/tickets/${ticket.id}`, body);
    const accepted = await put(d.userSession, { status: "open", userId: d.admin.id });
    expect(accepted.statusCode).toBe(200);
    // Accept assigns the caller, whatever userId the body carries.
    expect(accepted.json()).toMatchObject({ status: "open", userId: d.user.id, user: { id: d.user.id }, unreadMessages: 0, queue: { id: d.q1.id } });
    // Someone else cannot return or resolve my ticket.
    expect((await put(d.otherSession, { status: "pending", userId: null })).statusCode).toBe(403);
    expect((await put(d.userSession, { status: "pending", userId: null })).json()).toMatchObject({ status: "pending", userId: null });
    await put(d.userSession, { status: "open" });
    const closed = await put(d.userSession, { status: "closed" });
    expect(closed.json()).toMatchObject({ status: "closed", userId: d.user.id, queueId: d.q1.id });
    const reopened = await put(d.adminSession, { status: "open" });
    expect(reopened.json()).toMatchObject({ status: "open", userId: d.admin.id });
    const rows = await t.ctx.database.db.select().from(attendanceCycles).where(eq(attendanceCycles.ticketId, ticket.id)).orderBy(attendanceCycles.id);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ userId: d.user.id, queueId: d.q1.id });
    expect(rows[0]!.startedAt).toBeInstanceOf(Date);
    expect(rows[0]!.finishedAt).toBeInstanceOf(Date);
    expect(rows[1]).toMatchObject({ userId: d.admin.id, finishedAt: null });
  });

  it("transfer: queue only → pending with the user cleared; queue + user → assigned to that user", async () => {
    const d = await buildDesk();
    const c = d.company.id;
    const ticket = await addTicket(t.ctx, {
      companyId: c,
      contactId: (await addContact(t.ctx, c)).id,
      queueId: d.q1.id,
      status: "open",
      userId: d.user.id,
    });
    const toQueue = await call(d.userSession, "PUT", `/tickets/${ticket.id}`, { queueId: d.q2.id, userId: null, status: "pending" });
    expect(toQueue.json()).toMatchObject({ status: "pending", userId: null, queueId: d.q2.id });
    // Now in queue 2, the first attendant no longer sees it.
    expect((await call(d.userSession, "GET", `/tickets/${ticket.id}`)).statusCode).toBe(403);
    const toUser = await call(d.adminSession, "PUT", `/tickets/${ticket.id}`, { queueId: d.q1.id, userId: d.user.id });
    expect(toUser.json()).toMatchObject({ status: "open", userId: d.user.id, queueId: d.q1.id });
    // A user outside the target queue cannot receive it; a foreign queue is refused.
    expect((await call(d.adminSession, "PUT", `/tickets/${ticket.id}`, { queueId: d.q1.id, userId: d.other.id })).json()).toEqual({
      error: "Acesso não permitido",
    });
    const foreign = await buildDesk();
    expect((await call(d.adminSession, "PUT", `/tickets/${ticket.id}`, { queueId: foreign.q1.id })).json()).toEqual({ error: "ERR_NO_QUEUE_FOUND" });
  });

  it("reopening when the contact already has a live ticket answers ERR_OTHER_OPEN_TICKET", async () => {
    const d = await buildDesk();
    const c = d.company.id;
    const contact = await addContact(t.ctx, c);
    const old = await addTicket(t.ctx, { companyId: c, contactId: contact.id, connectionId: d.connection.id, status: "closed" });
    await addTicket(t.ctx, { companyId: c, contactId: contact.id, connectionId: d.connection.id, status: "pending" });
    const res = await call(d.adminSession, "PUT", `/tickets/${old.id}`, { status: "open" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_OTHER_OPEN_TICKET");
  });
});

describe("POST /tickets and DELETE /tickets/:id", () => {
  it("opens a ticket for a contact on the default connection; a second one is ERR_OTHER_OPEN_TICKET", async () => {
    const d = await buildDesk();
    const contact = await addContact(t.ctx, d.company.id);
    const noQueue = await call(d.userSession, "POST", "/tickets", { contactId: contact.id, status: "open" });
    expect(noQueue.statusCode).toBe(400);
    expect(noQueue.json()).toEqual({ error: "Selecione uma fila" });
    expect((await call(d.userSession, "POST", "/tickets", { contactId: contact.id, queueId: d.q2.id })).statusCode).toBe(403);
    const created = await call(d.userSession, "POST", "/tickets", { contactId: contact.id, queueId: d.q1.id, userId: d.user.id, status: "open" });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      status: "open",
      userId: d.user.id,
      queueId: d.q1.id,
      whatsappId: d.connection.id,
      contact: { id: contact.id },
    });
    const again = await call(d.adminSession, "POST", "/tickets", { contactId: contact.id, status: "open" });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe("ERR_OTHER_OPEN_TICKET");
    const foreign = await buildDesk();
    expect((await call(foreign.adminSession, "POST", "/tickets", { contactId: contact.id })).json()).toEqual({ error: "ERR_NO_CONTACT_FOUND" });
  });

  it("only admins delete, and the ticket is gone", async () => {
    const d = await buildDesk();
    const ticket = await addTicket(t.ctx, { companyId: d.company.id, contactId: (await addContact(t.ctx, d.company.id)).id, queueId: d.q1.id });
    expect((await call(d.userSession, "DELETE", `/tickets/${ticket.id}`)).statusCode).toBe(403);
    const res = await call(d.adminSession, "DELETE", `/tickets/${ticket.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: "Ticket deleted sucessfully." });
    expect((await call(d.adminSession, "GET", `/tickets/${ticket.id}`)).statusCode).toBe(404);
  });
});

describe("live ticket events", () => {
  it("reach only sockets allowed to see the ticket, and tell the old queue when it moves away", async () => {
    const d = await buildDesk();
    const foreign = await buildDesk();
    const c = d.company.id;
    const ticket = await addTicket(t.ctx, {
      companyId: c,
      contactId: (await addContact(t.ctx, c)).id,
      queueId: d.q1.id,
      connectionId: d.connection.id,
      unreadMessages: 1,
    });
    const q1Socket = await connectSocket(t.app, d.userSession.token);
    const q2Socket = await connectSocket(t.app, d.otherSession.token);
    const adminSocket = await connectSocket(t.app, d.adminSession.token);
    const foreignSocket = await connectSocket(t.app, foreign.adminSession.token);
    const q2Seen = collectEvents(q2Socket, "ticket");
    const foreignSeen = collectEvents(foreignSocket, "ticket");
    const q1Events = collectEvents<{ action: string }>(q1Socket, "ticket");
    const adminUpdate = nextEventWhere<{ action: string; ticket: { id: number; status: string } }>(
      adminSocket,
      "ticket",
      (e) => e.action === "update",
    );
    await call(d.userSession, "PUT", `/tickets/${ticket.id}`, { status: "open" });
    expect(await adminUpdate).toMatchObject({ action: "update", ticket: { id: ticket.id, status: "open" } });
    // Events reach sockets through the outbox: each arrives shortly after the call, in order.
    await expect.poll(() => q1Events.map((e) => e.action), { timeout: 5_000 }).toEqual(expect.arrayContaining(["update", "updateUnread"]));
    expect(q2Seen).toEqual([]);
    // Transfer to queue 2: queue 1 gets a delete, queue 2 the update.
    const q2Update = nextEventWhere<{ action: string }>(q2Socket, "ticket", (e) => e.action === "update");
    const q1Delete = nextEventWhere<{ action: string; ticketId: number }>(q1Socket, "ticket", (e) => e.action === "delete");
    await call(d.userSession, "PUT", `/tickets/${ticket.id}`, { queueId: d.q2.id, userId: null });
    expect(await q2Update).toMatchObject({ action: "update" });
    expect(await q1Delete).toEqual({ action: "delete", ticketId: ticket.id });
    await t.ctx.events.drain();
    await new Promise((r) => setTimeout(r, 100));
    expect(foreignSeen).toEqual([]);
    for (const s of [q1Socket, q2Socket, adminSocket, foreignSocket]) s.close();
  });

  it("a user added to a queue starts receiving that queue's events without reconnecting", async () => {
    const d = await buildDesk();
    const c = d.company.id;
    const socket = await connectSocket(t.app, d.userSession.token);
    await call(d.adminSession, "PUT", `/users/${d.user.id}`, { queueIds: [d.q1.id, d.q2.id] });
    await new Promise((r) => setTimeout(r, 150));
    const ticket = await addTicket(t.ctx, { companyId: c, contactId: (await addContact(t.ctx, c)).id, queueId: d.q2.id, status: "pending" });
    const event = nextEventWhere<{ action: string; ticket: { id: number } }>(socket, "ticket", (e) => e.action === "update");
    await call(d.adminSession, "PUT", `/tickets/${ticket.id}`, { status: "open" });
    expect(await event).toMatchObject({ action: "update", ticket: { id: ticket.id } });
    socket.close();
    const [member] = await t.ctx.database.db
      .select()
      .from(userQueues)
      .where(and(eq(userQueues.userId, d.user.id), eq(userQueues.queueId, d.q2.id)));
    expect(member).toBeTruthy();
  });
});
