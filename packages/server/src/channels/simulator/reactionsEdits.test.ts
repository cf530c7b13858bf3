/**
 * Issue 21 through the simulator's HTTP API: a customer's phone reacts to messages and edits its own texts; the
 * reactions and the edit history are stored on the ticket's messages, listed by GET /messages/:ticketId, and
 * reach the attendants live as appMessage "update". Another company can neither drive nor see any of it.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppMessageEvent, ConnectionDTO, MessageDTO, MessageListResponse, SimulatorMessageDTO } from "@balcao/shared";
import { messageEdits, messageReactions, messages } from "../../db/schema";
import { buildTenant, collectEvents, connectSocket, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 20 });

let t: TestApp;
let a: Awaited<ReturnType<typeof buildTenant>>;
let b: Awaited<ReturnType<typeof buildTenant>>;
let conn: ConnectionDTO;

const call = (session: Session | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session ? session.headers : {}, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0" });
  a = await buildTenant(t.app);
  b = await buildTenant(t.app);
  conn = (await call(a.adminSession, "POST", "/whatsapp", { name: "Simulador" })).json();
  await call(a.adminSession, "POST", `/simulator/${conn.id}/scan`, { code: conn.qrcode });
});
afterAll(() => t.close());

/** The stored message of a simulated one (by provider id), once the pipeline has it. */
async function storedOf(providerMessageId: string) {
  await poll(async () => (await rowsOf(providerMessageId)).length).toBe(1);
  return (await rowsOf(providerMessageId))[0]!;
}
const rowsOf = (providerMessageId: string) =>
  t.ctx.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.companyId, a.company.id), eq(messages.providerMessageId, providerMessageId)));

async function listed(ticketId: number, messageId: number): Promise<MessageDTO | undefined> {
  const res = await call(a.adminSession, "GET", `/messages/${ticketId}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as MessageListResponse).messages.find((m) => m.id === messageId);
}

async function customerSays(phone: string, body: string) {
  const res = await call(a.userSession, "POST", `/simulator/${conn.id}/phones/${phone}/messages`, { type: "text", body });
  expect(res.statusCode, res.body).toBe(201);
  const sent = res.json() as SimulatorMessageDTO;
  return { sent, row: await storedOf(sent.id) };
}

describe("reactions from the customer's phone", () => {
  it("land on the target message, one per sender: a new emoji replaces, '' removes; live to the attendants", async () => {
    const PHONE = "5511987650101";
    const socket = await connectSocket(t.app, a.adminSession.token);
    const updates = collectEvents<AppMessageEvent>(socket, "appMessage");
    try {
      const { sent, row } = await customerSays(PHONE, "Chegou meu pedido?");
      const url = `/simulator/${conn.id}/phones/${PHONE}/messages/${sent.id}/reaction`;
      const res = await call(a.userSession, "POST", url, { emoji: "👍" });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: sent.id, reaction: "👍" });
      const liveReactions = () =>
        updates.filter((e) => e.action === "update" && e.message.id === row.id).map((e) => (e as { message: MessageDTO }).message.reactions);
      await poll(liveReactions).toContainEqual([{ emoji: "👍", count: 1, fromMe: false }]);
      expect((await listed(row.ticketId, row.id))?.reactions).toEqual([{ emoji: "👍", count: 1, fromMe: false }]);

      // Same sender, another emoji: replaced, not added.
      expect((await call(a.userSession, "POST", url, { emoji: "❤️" })).statusCode).toBe(200);
      await poll(liveReactions).toContainEqual([{ emoji: "❤️", count: 1, fromMe: false }]);
      expect(await t.ctx.database.db.select().from(messageReactions).where(eq(messageReactions.messageId, row.id))).toHaveLength(1);

      // A replay of the same reaction changes nothing and says nothing.
      const before = updates.length;
      expect((await call(a.userSession, "POST", url, { emoji: "❤️" })).statusCode).toBe(200);
      expect((await listed(row.ticketId, row.id))?.reactions).toEqual([{ emoji: "❤️", count: 1, fromMe: false }]);

      // "" removes it.
      expect((await call(a.userSession, "POST", url, { emoji: "" })).json()).not.toHaveProperty("reaction");
      await poll(liveReactions).toContainEqual([]);
      expect((await listed(row.ticketId, row.id))?.reactions).toEqual([]);
      expect(updates.slice(before).filter((e) => e.action === "update" && e.message.id === row.id)).toHaveLength(1);
      // A reaction is not a message of its own.
      const fromCustomer = await t.ctx.database.db
        .select({ body: messages.body })
        .from(messages)
        .where(and(eq(messages.ticketId, row.ticketId), eq(messages.fromMe, false)));
      expect(fromCustomer).toEqual([{ body: "Chegou meu pedido?" }]);
    } finally {
      socket.close();
    }
  });

  it("to a company message too; an unknown message is ERR_SIMULATOR_NO_MESSAGE", async () => {
    const PHONE = "5511987650102";
    const { row } = await customerSays(PHONE, "Oi");
    await call(a.adminSession, "PUT", `/tickets/${row.ticketId}`, { status: "open", userId: a.admin.id });
    const sent = await call(a.adminSession, "POST", `/messages/${row.ticketId}`, { body: "Olá! Como posso ajudar?" });
    expect(sent.statusCode, sent.body).toBe(201);
    const reply = (sent.json() as MessageDTO[])[0]!;
    const [stored] = await t.ctx.database.db.select().from(messages).where(eq(messages.id, reply.id));
    const res = await call(a.userSession, "POST", `/simulator/${conn.id}/phones/${PHONE}/messages/${stored!.providerMessageId}/reaction`, {
      emoji: "🙏",
    });
    expect(res.statusCode, res.body).toBe(200);
    await poll(async () => (await listed(row.ticketId, reply.id))?.reactions).toEqual([{ emoji: "🙏", count: 1, fromMe: false }]);

    const unknown = await call(a.userSession, "POST", `/simulator/${conn.id}/phones/${PHONE}/messages/SIMC-NOPE/reaction`, { emoji: "👍" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe("ERR_SIMULATOR_NO_MESSAGE");
    expect(
      (await call(a.userSession, "POST", `/simulator/${conn.id}/phones/${PHONE}/messages/x/reaction`, { emoji: "x".repeat(17) })).statusCode,
    ).toBe(400);
  });
});

describe("edits from the customer's phone", () => {
  it("replace the text, mark the message edited and keep every earlier text with its time; live to the attendants", async () => {
    const PHONE = "5511987650103";
    const socket = await connectSocket(t.app, a.adminSession.token);
    const updates = collectEvents<AppMessageEvent>(socket, "appMessage");
    try {
      const { sent, row } = await customerSays(PHONE, "Quero 2 pizzas");
      const url = `/simulator/${conn.id}/phones/${PHONE}/messages/${sent.id}/edit`;
      const first = await call(a.userSession, "POST", url, { body: "Quero 3 pizzas" });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({ id: sent.id, body: "Quero 3 pizzas", edited: true });
      await poll(() =>
        updates.some((e) => e.action === "update" && e.message.id === row.id && e.message.body === "Quero 3 pizzas" && !!e.message.editedAt),
      ).toBe(true);
      expect((await call(a.userSession, "POST", url, { body: "Quero 4 pizzas" })).statusCode).toBe(200);
      await poll(async () => (await listed(row.ticketId, row.id))?.body).toBe("Quero 4 pizzas");
      const message = (await listed(row.ticketId, row.id))!;
      expect(message.editedAt).toEqual(expect.any(String));
      expect(message.edits!.map((e) => e.body)).toEqual(["Quero 2 pizzas", "Quero 3 pizzas"]);
      expect(Date.parse(message.edits![0]!.editedAt)).toBeLessThanOrEqual(Date.parse(message.edits![1]!.editedAt));
      // The ticket's list preview follows the latest text.
      const list = (await call(a.adminSession, "GET", `/messages/${row.ticketId}`)).json() as MessageListResponse;
      expect(list.ticket.lastMessage).toBe("Quero 4 pizzas");

      // The same text again is not an edit.
      expect((await call(a.userSession, "POST", url, { body: "Quero 4 pizzas" })).statusCode).toBe(200);
      expect(await t.ctx.database.db.select().from(messageEdits).where(eq(messageEdits.messageId, row.id))).toHaveLength(2);
    } finally {
      socket.close();
    }
  });

  it("only the customer's own text messages can be edited", async () => {
    const PHONE = "5511987650104";
    const { row } = await customerSays(PHONE, "Oi");
    const media = await call(a.userSession, "POST", `/simulator/${conn.id}/phones/${PHONE}/messages`, { type: "image", caption: "foto" });
    const image = media.json() as SimulatorMessageDTO;
    await storedOf(image.id);
    const res = await call(a.userSession, "POST", `/simulator/${conn.id}/phones/${PHONE}/messages/${image.id}/edit`, { body: "outra" });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe("ERR_SIMULATOR_NO_MESSAGE");
    const empty = await call(a.userSession, "POST", `/simulator/${conn.id}/phones/${PHONE}/messages/${image.id}/edit`, { body: "  " });
    expect(empty.statusCode).toBe(400);
    expect((await listed(row.ticketId, row.id))?.editedAt).toBeNull();
  });
});

describe("tenant isolation", () => {
  it("another company cannot react to or edit this connection's messages, and sees none of it", async () => {
    const PHONE = "5511987650105";
    const { sent, row } = await customerSays(PHONE, "Segredo");
    const base = `/simulator/${conn.id}/phones/${PHONE}/messages/${sent.id}`;
    for (const [path, body] of [
      ["/reaction", { emoji: "👍" }],
      ["/edit", { body: "invadido" }],
    ] as const) {
      const res = await call(b.adminSession, "POST", `${base}${path}`, body);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe("ERR_NO_WAPP_FOUND");
      // Without a session or link key: nothing either.
      expect((await call(null, "POST", `${base}${path}`, body)).statusCode).not.toBe(200);
    }
    expect((await call(b.adminSession, "GET", `/messages/${row.ticketId}`)).statusCode).toBe(404);
    const [stored] = await rowsOf(sent.id);
    expect(stored).toMatchObject({ body: "Segredo", editedAt: null });
    expect(await t.ctx.database.db.select().from(messageReactions).where(eq(messageReactions.messageId, row.id))).toEqual([]);
  });
});
