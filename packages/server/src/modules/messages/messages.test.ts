import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessageDTO } from "@balcao/shared";
import { connections, messageEdits, messageReactions, messages, outboxEvents, tickets, userQueues } from "../../db/schema";
import type { ChannelAddress, InboundMessage } from "../../channels/types";
import { buildQueue, buildTenant, collectEvents, connectSocket, login, nextEvent, type Session } from "../../test/factories";
import { statementsOf } from "../../test/statementCount";
import { createTestApp, type TestApp } from "../../test/testApp";
import { pipelines } from "./module";
import { presentMessagesById } from "./presenter";
import { OWN_REACTION_SENDER } from "./reactions";

let t: TestApp;
let seq = 0;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

async function desk() {
  const tenant = await buildTenant(t.app);
  const [connection] = await t.ctx.database.db
    .insert(connections)
    .values({ companyId: tenant.company.id, name: `Conexão ${++seq}`, isDefault: true, status: "CONNECTED" })
    .returning();
  return { ...tenant, connection: connection!, source: { companyId: tenant.company.id, connectionId: connection!.id } };
}

const customer = (digits: string, pushName = "Cliente"): ChannelAddress => ({ id: digits, kind: "phone", pushName });
let idSeq = 0;
function inbound(chat: ChannelAddress, overrides: Partial<InboundMessage> = {}): InboundMessage {
  return { providerMessageId: `WA-${++idSeq}-${Date.now()}`, chat, fromMe: false, kind: "chat", body: "Olá", timestamp: new Date(), ...overrides };
}

const call = (s: Session, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: s.headers, ...(payload ? { payload } : {}) });

/** `count` messages from `digits` ("<prefix>1"… one second apart on January `day`, 2026); their ticket as listed. */
async function conversation(d: Awaited<ReturnType<typeof desk>>, digits: string, prefix: string, count: number, day: number) {
  const pipeline = pipelines.get(t.ctx)!;
  const chat = customer(digits);
  for (let i = 1; i <= count; i++)
    await pipeline.receive(d.source, inbound(chat, { body: `${prefix}${i}`, timestamp: new Date(Date.UTC(2026, 0, day, 0, 0, i)) }));
  const [ticket] = (await call(d.adminSession, "GET", "/tickets")).json().tickets;
  return ticket as { id: number };
}

/** The bodies `conversation` writes, "<prefix><from>" to "<prefix><to>". */
const bodiesFrom = (prefix: string, from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${from + i}`);

describe("inbound pipeline", () => {
  it("creates the contact and a pending ticket, counts unread, and ignores a redelivered message", async () => {
    const d = await desk();
    const pipeline = pipelines.get(t.ctx)!;
    const first = inbound(customer("5511991234567", "Ana"), { body: "Bom dia" });
    await pipeline.handle(d.source, { type: "message", message: first });
    await pipeline.handle(d.source, { type: "message", message: first });
    // Same person writing from the number without the 9th digit meets the same contact and ticket.
    await pipeline.handle(d.source, { type: "message", message: inbound(customer("551191234567"), { body: "Alguém?" }) });
    const list = (await call(d.adminSession, "GET", "/tickets?status=pending")).json();
    expect(list.tickets).toHaveLength(1);
    expect(list.tickets[0]).toMatchObject({
      status: "pending",
      unreadMessages: 2,
      lastMessage: "Alguém?",
      contact: { name: "Ana", number: "5511991234567" },
    });
    const history = (await call(d.adminSession, "GET", `/messages/${list.tickets[0].id}`)).json();
    expect(history.messages.map((m: { body: string }) => m.body)).toEqual(["Bom dia", "Alguém?"]);
  });

  it("stores media once and serves it only to users of the owning company", async () => {
    const d = await desk();
    const other = await desk();
    const pipeline = pipelines.get(t.ctx)!;
    await pipeline.handle(d.source, {
      type: "message",
      message: inbound(customer("5511990001111"), {
        kind: "image",
        body: "foto",
        media: { data: PNG, mimeType: "image/png", fileName: "../../etc/passwd.png" },
      }),
    });
    const [ticket] = (await call(d.adminSession, "GET", "/tickets")).json().tickets;
    const [msg] = (await call(d.adminSession, "GET", `/messages/${ticket.id}`)).json().messages;
    expect(msg).toMatchObject({ mediaType: "image", mimeType: "image/png", mediaName: "passwd.png", body: "foto" });
    const file = await t.app.inject({ method: "GET", url: msg.mediaUrl, headers: d.userSession.headers });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    expect(file.headers["x-content-type-options"]).toBe("nosniff");
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect((await t.app.inject({ method: "GET", url: msg.mediaUrl })).statusCode).toBe(401);
    const foreign = await t.app.inject({ method: "GET", url: msg.mediaUrl, headers: other.adminSession.headers });
    expect(foreign.statusCode).toBe(404);
  });

  it("a closed attendance stays as history: the next message opens a new ticket, and the history spans both", async () => {
    const d = await desk();
    const pipeline = pipelines.get(t.ctx)!;
    const chat = customer("5511990002222");
    await pipeline.handle(d.source, { type: "message", message: inbound(chat, { body: "primeira conversa" }) });
    const [first] = (await call(d.adminSession, "GET", "/tickets")).json().tickets;
    await t.app.inject({ method: "PUT", url: `/api/tickets/${first.id}`, headers: d.adminSession.headers, payload: { status: "closed" } });
    await pipeline.handle(d.source, { type: "message", message: inbound(chat, { body: "segunda conversa" }) });
    const rows = await t.ctx.database.db.select().from(tickets).where(eq(tickets.contactId, first.contact.id));
    expect(rows.map((r) => r.status).sort()).toEqual(["closed", "pending"]);
    const second = rows.find((r) => r.status === "pending")!;
    const history = (await call(d.adminSession, "GET", `/messages/${second.id}`)).json();
    expect(history.messages.map((m: { body: string; ticketId: number }) => [m.body, m.ticketId])).toEqual([
      ["primeira conversa", first.id],
      ["segunda conversa", second.id],
    ]);
  });

  it("a message redelivered after its ticket closed opens nothing: no new ticket, no stored copy, no event", async () => {
    const d = await desk();
    const pipeline = pipelines.get(t.ctx)!;
    const message = inbound(customer("5511990003333"), { body: "só uma vez" });
    expect(await pipeline.receive(d.source, message)).toEqual(expect.any(Number));
    const [first] = (await call(d.adminSession, "GET", "/tickets")).json().tickets;
    await t.app.inject({ method: "PUT", url: `/api/tickets/${first.id}`, headers: d.adminSession.headers, payload: { status: "closed" } });
    await t.ctx.events.drain();
    const eventsBefore = await t.ctx.database.db.select().from(outboxEvents).where(eq(outboxEvents.companyId, d.company.id));
    // The unique index refuses the copy at its insert; the ticket the transaction had opened meanwhile goes with it.
    expect(await pipeline.receive(d.source, message)).toBeNull();
    const rows = await t.ctx.database.db.select().from(tickets).where(eq(tickets.contactId, first.contact.id));
    expect(rows.map((r) => r.status)).toEqual(["closed"]);
    const stored = await t.ctx.database.db.select().from(messages).where(eq(messages.companyId, d.company.id));
    expect(stored.map((m) => m.body)).toEqual(["só uma vez"]);
    const eventsAfter = await t.ctx.database.db.select().from(outboxEvents).where(eq(outboxEvents.companyId, d.company.id));
    expect(eventsAfter).toHaveLength(eventsBefore.length);
  });

  it("pages a conversation by pageNumber and by beforeId, in any order, again and again (each form of the page query is its own prepared statement)", async () => {
    const d = await desk();
    const ticket = await conversation(d, "5511990004444", "m", 45, 1);
    const bodies = async (query: string) => {
      const res = await call(d.adminSession, "GET", `/messages/${ticket.id}?${query}`);
      expect(res.statusCode).toBe(200);
      return res.json().messages.map((m: { body: string }) => m.body) as string[];
    };
    const range = (from: number, to: number) => bodiesFrom("m", from, to);
    // More rounds than the pool has connections, so every form meets connections that ran the others.
    for (let round = 0; round < 8; round++) {
      expect(await bodies("pageNumber=2")).toEqual(range(6, 25));
      const first = await bodies("pageNumber=1");
      expect(first).toEqual(range(26, 45));
      expect(await bodies("pageNumber=3")).toEqual(range(1, 5));
      const [oldest] = (await call(d.adminSession, "GET", `/messages/${ticket.id}?pageNumber=1`)).json().messages;
      expect(await bodies(`beforeId=${oldest.id}`)).toEqual(range(6, 25));
    }
  });

  it("a ticket without a connection pages its own conversation, apart from the same contact's on a connection", async () => {
    const d = await desk();
    const onConnection = await conversation(d, "5511990008888", "c", 25, 3);
    const [row] = await t.ctx.database.db.select().from(tickets).where(eq(tickets.id, onConnection.id));
    // The same contact's attendance that lost its connection (a deleted number): its messages have none either.
    const [orphan] = await t.ctx.database.db
      .insert(tickets)
      .values({ companyId: d.company.id, contactId: row!.contactId, connectionId: null, status: "open", userId: d.admin.id })
      .returning();
    await t.ctx.database.db.insert(messages).values(
      Array.from({ length: 23 }, (_, i) => ({
        companyId: d.company.id,
        ticketId: orphan!.id,
        contactId: row!.contactId,
        connectionId: null,
        providerMessageId: `orphan-${i + 1}`,
        body: `o${i + 1}`,
        fromMe: false,
        createdAt: new Date(Date.UTC(2026, 0, 4, 0, 0, i + 1)),
      })),
    );
    const page = async (ticketId: number, query = "") => {
      const res = await call(d.adminSession, "GET", `/messages/${ticketId}${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { messages: { id: number; body: string }[]; hasMore: boolean; ticket: { id: number } };
      expect(body.ticket.id).toBe(ticketId);
      return body;
    };
    for (const [ticketId, prefix, count] of [
      [orphan!.id, "o", 23],
      [onConnection.id, "c", 25],
    ] as const) {
      const first = await page(ticketId);
      expect(first.messages.map((m) => m.body)).toEqual(bodiesFrom(prefix, count - 19, count));
      expect(first.hasMore).toBe(true);
      const before = await page(ticketId, `?beforeId=${first.messages[0]!.id}`);
      expect(before.messages.map((m) => m.body)).toEqual(bodiesFrom(prefix, 1, count - 20));
      expect(before.hasMore).toBe(false);
      expect((await page(ticketId, "?pageNumber=2")).messages.map((m) => m.body)).toEqual(bodiesFrom(prefix, 1, count - 20));
    }
    // Another company's ticket id reads nothing of this conversation.
    const other = await desk();
    expect((await call(other.adminSession, "GET", `/messages/${orphan!.id}`)).statusCode).toBe(404);
    expect(
      (await call(other.adminSession, "GET", `/messages/${onConnection.id}?beforeId=${(await page(onConnection.id)).messages[0]!.id}`)).statusCode,
    ).toBe(404);
  });

  it("a history page is two statements (ticket, page; three with its session's first read) with its messages' reactions and earlier texts", async () => {
    const d = await desk();
    const ticket = await conversation(d, "5511990005555", "r", 3, 2);
    const stored = await t.ctx.database.db.select().from(messages).where(eq(messages.ticketId, ticket.id)).orderBy(messages.id);
    const [first, second] = stored;
    const companyId = d.company.id;
    const at = (second: number) => new Date(Date.UTC(2026, 0, 2, 1, 0, second));
    // On the first message: ❤️ (ours, first given), 👍 twice, 😂 after ❤️: most given first, then the earliest.
    await t.ctx.database.db.insert(messageReactions).values([
      { companyId, messageId: first!.id, sender: OWN_REACTION_SENDER, emoji: "❤️", createdAt: at(1) },
      { companyId, messageId: first!.id, sender: "5511990005555", emoji: "👍", createdAt: at(3) },
      { companyId, messageId: first!.id, sender: "5511990006666", emoji: "👍", createdAt: at(4) },
      { companyId, messageId: first!.id, sender: "5511990007777", emoji: "😂", createdAt: at(2) },
    ]);
    // The second message was edited twice.
    await t.ctx.database.db
      .update(messages)
      .set({ body: "r2 (3)", editedAt: at(20) })
      .where(eq(messages.id, second!.id));
    await t.ctx.database.db.insert(messageEdits).values([
      { companyId, messageId: second!.id, previousBody: "r2", editedAt: at(10) },
      { companyId, messageId: second!.id, previousBody: "r2 (2)", editedAt: at(20) },
    ]);
    let res!: Awaited<ReturnType<typeof call>>;
    // A new login: the first request reads its session, the next ones of the burst find it in the read cache.
    const session = await login(t.app, d.admin.email);
    const pageStatements = () =>
      statementsOf(t, async () => {
        res = await call(session, "GET", `/messages/${ticket.id}`);
      });
    expect(await pageStatements()).toBe(3);
    expect(res.statusCode).toBe(200);
    // Four before (a second, unprepared read of the page's reactions) and five with an edited message on it.
    expect(await pageStatements()).toBe(2);
    expect(res.statusCode).toBe(200);
    const page = res.json().messages as MessageDTO[];
    expect(page.map((m) => [m.body, m.reactions, m.editedAt, m.edits])).toEqual([
      [
        "r1",
        [
          { emoji: "👍", count: 2, fromMe: false },
          { emoji: "❤️", count: 1, fromMe: true },
          { emoji: "😂", count: 1, fromMe: false },
        ],
        null,
        undefined,
      ],
      [
        "r2 (3)",
        [],
        at(20).toISOString(),
        [
          { body: "r2", editedAt: at(10).toISOString() },
          { body: "r2 (2)", editedAt: at(20).toISOString() },
        ],
      ],
      ["r3", [], null, undefined],
    ]);
    // A message's DTO read on its own (events, replies) carries the same, in one statement.
    let alone!: MessageDTO[];
    expect(await statementsOf(t, async () => (alone = await presentMessagesById(t.ctx.database.db, [second!.id, first!.id])))).toBe(1);
    expect(alone).toEqual([page[1], page[0]]);
  });

  it("applies acks monotonically, marks contact deletions, and records missed calls", async () => {
    const d = await desk();
    const pipeline = pipelines.get(t.ctx)!;
    const chat = customer("5511990003333");
    const msg = inbound(chat, { body: "vou apagar" });
    await pipeline.handle(d.source, { type: "message", message: msg });
    await pipeline.handle(d.source, { type: "deleted", providerMessageId: msg.providerMessageId, chat });
    await pipeline.handle(d.source, { type: "call", callId: "CALL1", from: chat, isVideo: false, status: "offer" });
    const [ticket] = (await call(d.adminSession, "GET", "/tickets")).json().tickets;
    const history = (await call(d.adminSession, "GET", `/messages/${ticket.id}`)).json().messages;
    expect(history[0]).toMatchObject({ isDeleted: true, body: "" });
    expect(history[1].mediaType).toBe("call_log");
    expect(history[1].body).toMatch(/^Chamada de voz\/vídeo perdida às \d{2}:\d{2}$/);
    // Acks on an outbound message never move backwards.
    const [out] = await t.ctx.database.db
      .insert(messages)
      .values({
        companyId: d.company.id,
        ticketId: ticket.id,
        contactId: ticket.contact.id,
        connectionId: d.connection.id,
        providerMessageId: "OUT-1",
        fromMe: true,
        body: "oi",
        ack: 1,
      })
      .returning();
    await pipeline.handle(d.source, { type: "ack", providerMessageId: "OUT-1", ack: 3 });
    await pipeline.handle(d.source, { type: "ack", providerMessageId: "OUT-1", ack: 2 });
    const [after] = await t.ctx.database.db.select().from(messages).where(eq(messages.id, out!.id));
    expect(after!.ack).toBe(3);
  });

  it("emits appMessage and ticket events only to sockets that may see the ticket", async () => {
    const d = await desk();
    const other = await desk();
    const q = await buildQueue(t.ctx, d.company.id);
    await t.ctx.database.db.insert(userQueues).values({ companyId: d.company.id, userId: d.user.id, queueId: q.id });
    const adminSocket = await connectSocket(t.app, d.adminSession.token);
    const foreignSocket = await connectSocket(t.app, other.adminSession.token);
    const leaked = collectEvents(foreignSocket, "appMessage");
    const created = nextEvent<{ action: string; message: { body: string }; ticket: { unreadMessages: number } }>(adminSocket, "appMessage");
    await pipelines.get(t.ctx)!.handle(d.source, { type: "message", message: inbound(customer("5511990004444"), { body: "tem alguém?" }) });
    expect(await created).toMatchObject({ action: "create", message: { body: "tem alguém?" }, ticket: { unreadMessages: 1 } });
    await new Promise((r) => setTimeout(r, 100));
    expect(leaked).toEqual([]);
    adminSocket.close();
    foreignSocket.close();
  });
});

describe("sending", () => {
  it("keeps the message and marks it failed with ERR_SENDING_WAPP_MSG when the connection is not live here (setting fail)", async () => {
    const d = await desk();
    // Issue 21: "fail" keeps the behaviour before queueing; "queue" (the default) is in channels/baileys/reconnect.test.ts.
    expect((await call(d.adminSession, "PUT", "/settings/sendWhileDisconnected", { value: "fail" })).statusCode).toBe(200);
    await pipelines.get(t.ctx)!.handle(d.source, { type: "message", message: inbound(customer("5511990005555")) });
    const [ticket] = (await call(d.adminSession, "GET", "/tickets")).json().tickets;
    const notOpen = await call(d.adminSession, "POST", `/messages/${ticket.id}`, { body: "oi" });
    expect(notOpen.json()).toEqual({ error: "ERR_TICKET_NOT_OPEN" });
    await t.app.inject({ method: "PUT", url: `/api/tickets/${ticket.id}`, headers: d.adminSession.headers, payload: { status: "open" } });
    const blank = await call(d.adminSession, "POST", `/messages/${ticket.id}`, { body: "   " });
    expect(blank.statusCode).toBe(400);
    const res = await call(d.adminSession, "POST", `/messages/${ticket.id}`, { body: "Olá, tudo bem?" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_SENDING_WAPP_MSG");
    const history = (await call(d.adminSession, "GET", `/messages/${ticket.id}`)).json().messages;
    expect(history.at(-1)).toMatchObject({ body: "Olá, tudo bem?", fromMe: true, status: "failed", ack: 0 });
    // Another user of the company who is not the assignee cannot send on it.
    const attendant = await login(t.app, d.user.email);
    expect((await call(attendant, "POST", `/messages/${ticket.id}`, { body: "intruso" })).statusCode).toBe(403);
    // With "queue" the same reply waits for the connection instead (pending, the clock).
    expect((await call(d.adminSession, "PUT", "/settings/sendWhileDisconnected", { value: "queue" })).statusCode).toBe(200);
    const queued = await call(d.adminSession, "POST", `/messages/${ticket.id}`, { body: "Fico na fila" });
    expect(queued.statusCode, queued.body).toBeLessThan(300);
    expect(queued.json()).toMatchObject([{ body: "Fico na fila", status: "pending" }]);
  });
});
