/**
 * Issue 21 through the simulator's HTTP API. The connection drops and comes back (item 4): a reply sent
 * meanwhile waits (pending) and reaches the phone once when it is back. Groups (item 2): a group with a subject and several participants,
 * messages from each (the ticket and contact take the subject, each message its participant's name), a rename
 * (socket `contact` update), the company's reply into the group, status codes and tenant isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, isNotNull } from "drizzle-orm";
import type { ConnectionDTO, MessageDTO, SimulatorGroupDTO, SimulatorGroupMessageDTO, SimulatorPhoneDTO } from "@balcao/shared";
import { contacts, messages, tickets } from "../../db/schema";
import { buildTenant, collectEvents, connectSocket, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { sendQueueOf } from "../../modules/messages/sendQueue";

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 25 });

let t: TestApp;
let a: Awaited<ReturnType<typeof buildTenant>>;
let b: Awaited<ReturnType<typeof buildTenant>>;
let conn: ConnectionDTO;

const call = (session: Session | null, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session ? session.headers : {}, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0" });
  a = await buildTenant(t.app);
  b = await buildTenant(t.app);
  conn = (await call(a.adminSession, "POST", "/whatsapp", { name: "Simulador grupos" })).json();
  expect((await call(a.adminSession, "POST", `/simulator/${conn.id}/scan`, { code: conn.qrcode })).statusCode).toBe(200);
  // Group messages are ignored by default (CheckMsgIsGroup): this company takes them.
  expect((await call(a.adminSession, "PUT", "/settings/CheckMsgIsGroup", { value: "disabled" })).statusCode).toBe(200);
});
afterAll(() => t.close());

describe("the simulated connection drops and comes back", () => {
  it("a reply sent while it is lost stays pending and reaches the phone once when it is back", async () => {
    const PHONE = "5511955550001";
    const first = await call(a.userSession, "POST", `/simulator/${conn.id}/phones/${PHONE}/messages`, { type: "text", body: "oi", name: "Rita" });
    expect(first.statusCode, first.body).toBe(201);
    const ticketOf = async () =>
      (
        await t.ctx.database.db
          .select()
          .from(messages)
          .where(and(eq(messages.companyId, a.company.id), eq(messages.body, "oi")))
      )[0]?.ticketId;
    await poll(ticketOf).toBeTruthy();
    const ticketId = (await ticketOf())!;
    await call(a.adminSession, "PUT", `/tickets/${ticketId}`, { status: "open", userId: a.admin.id });
    const phone = async () =>
      ((await call(a.userSession, "GET", `/simulator/${conn.id}/phones`)).json() as SimulatorPhoneDTO[]).find((p) => p.number === PHONE)!;

    const lost = await call(a.userSession, "POST", `/simulator/${conn.id}/connection`, { state: "lost" });
    expect(lost.statusCode, lost.body).toBe(200);
    expect(lost.json()).toEqual({ status: "TIMEOUT" });
    // Lost already: nothing to drop (400), and another company cannot drive it (404).
    expect((await call(a.userSession, "POST", `/simulator/${conn.id}/connection`, { state: "lost" })).statusCode).toBe(400);
    expect((await call(b.adminSession, "POST", `/simulator/${conn.id}/connection`, { state: "back" })).statusCode).toBe(404);
    expect((await call(a.userSession, "POST", `/simulator/${conn.id}/connection`, { state: "later" })).statusCode).toBe(400);

    const sent = await call(a.adminSession, "POST", `/messages/${ticketId}`, { body: "já te respondo" });
    expect(sent.statusCode, sent.body).toBe(201);
    const [reply] = sent.json() as MessageDTO[];
    expect(reply!.status).toBe("pending");
    expect((await phone()).messages.map((m) => m.body)).toEqual(["oi"]);

    const back = await call(a.userSession, "POST", `/simulator/${conn.id}/connection`, { state: "back" });
    expect(back.statusCode, back.body).toBe(200);
    // No customer wrote meanwhile: the late batch is empty.
    expect(back.json()).toEqual({ status: "CONNECTED", delivered: 0 });
    await poll(async () => (await phone()).messages.map((m) => m.body)).toEqual(["oi", "já te respondo"]);
    await poll(async () => (await t.ctx.database.db.select().from(messages).where(eq(messages.id, reply!.id)))[0]!.status).toBe("sent");
    // Once: another run finds nothing more to send.
    await sendQueueOf(t.ctx).flush(t.ctx.services.messages, { companyId: a.company.id, connectionId: conn.id });
    expect((await phone()).messages.map((m) => m.body)).toEqual(["oi", "já te respondo"]);
  });
});

describe("simulator groups", () => {
  it("create, write as two participants, rename, reply into the group", async () => {
    const created = await call(a.userSession, "POST", `/simulator/${conn.id}/groups`, {
      subject: "Condomínio Bloco B",
      participants: [
        { number: "5511966660001", name: "Carla" },
        { number: "5511966660002", name: "Diego" },
      ],
    });
    expect(created.statusCode, created.body).toBe(201);
    const group = created.json() as SimulatorGroupDTO;
    expect(group).toMatchObject({
      subject: "Condomínio Bloco B",
      participants: [
        { number: "5511966660001", name: "Carla" },
        { number: "5511966660002", name: "Diego" },
      ],
      messages: [],
    });
    expect(group.id).toMatch(/^120363\d{12}$/);

    for (const [from, body] of [
      ["5511966660001", "a água vai faltar?"],
      ["5511966660002", "também quero saber"],
    ]) {
      const res = await call(a.userSession, "POST", `/simulator/${conn.id}/groups/${group.id}/messages`, { from, body });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json() as SimulatorGroupMessageDTO).toMatchObject({ direction: "out", body, from });
    }
    const stored = () =>
      t.ctx.database.db
        .select({ body: messages.body, participant: messages.participant, contactId: messages.contactId, ticketId: messages.ticketId })
        .from(messages)
        .where(and(eq(messages.companyId, a.company.id), eq(messages.connectionId, conn.id), isNotNull(messages.participant)))
        .orderBy(messages.id);
    await poll(async () => (await stored()).map((r) => [r.body, r.participant])).toEqual([
      ["a água vai faltar?", "Carla"],
      ["também quero saber", "Diego"],
    ]);
    const [first] = await stored();
    const [contact] = await t.ctx.database.db.select().from(contacts).where(eq(contacts.id, first!.contactId!));
    expect(contact).toMatchObject({ name: "Condomínio Bloco B", isGroup: true, number: group.id });
    const [ticket] = await t.ctx.database.db.select().from(tickets).where(eq(tickets.id, first!.ticketId));
    expect(ticket).toMatchObject({ isGroup: true });

    // A rename reaches the contact; the company's screens hear of it.
    const socket = await connectSocket(t.app, a.adminSession.token);
    const events = collectEvents<{ action: string; contact: { id: number; name: string } }>(socket, "contact");
    try {
      const renamed = await call(a.userSession, "PUT", `/simulator/${conn.id}/groups/${group.id}`, { subject: "Bloco B — avisos" });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json()).toMatchObject({ id: group.id, subject: "Bloco B — avisos" });
      await poll(() => events.some((e) => e.action === "update" && e.contact.id === contact!.id && e.contact.name === "Bloco B — avisos")).toBe(true);
    } finally {
      socket.disconnect();
    }

    // The attendant answers in the group: it lands in the group's log.
    await call(a.adminSession, "PUT", `/tickets/${ticket!.id}`, { status: "open", userId: a.admin.id });
    const reply = await call(a.adminSession, "POST", `/messages/${ticket!.id}`, { body: "sim, das 9h às 12h" });
    expect(reply.statusCode, reply.body).toBe(201);
    expect((reply.json() as MessageDTO[])[0]).toMatchObject({ status: "sent" });
    const groups = (await call(a.userSession, "GET", `/simulator/${conn.id}/groups`)).json() as SimulatorGroupDTO[];
    expect(groups.find((g) => g.id === group.id)!.messages.map((m) => [m.direction, m.body, m.from ?? null])).toEqual([
      ["out", "a água vai faltar?", "5511966660001"],
      ["out", "também quero saber", "5511966660002"],
      ["in", "sim, das 9h às 12h", null],
    ]);
  });

  it("status codes: a non-participant cannot write, unknown group 404, invalid body 400, another company's connection 404", async () => {
    const group = (
      await call(a.userSession, "POST", `/simulator/${conn.id}/groups`, {
        subject: "Só Ana",
        participants: [{ number: "5511966660003", name: "Ana" }],
      })
    ).json() as SimulatorGroupDTO;
    const outsider = await call(a.userSession, "POST", `/simulator/${conn.id}/groups/${group.id}/messages`, { from: "5511966660009", body: "oi" });
    expect(outsider.statusCode).toBe(400);
    expect(outsider.json().error).toBe("ERR_WAPP_INVALID_CONTACT");
    const unknown = await call(a.userSession, "POST", `/simulator/${conn.id}/groups/120363999999999999/messages`, {
      from: "5511966660003",
      body: "oi",
    });
    expect(unknown.statusCode).toBe(404);
    expect((await call(a.userSession, "POST", `/simulator/${conn.id}/groups`, { subject: "", participants: [] })).statusCode).toBe(400);
    // Tenant isolation: company B cannot see or drive company A's simulator.
    for (const res of [
      await call(b.adminSession, "GET", `/simulator/${conn.id}/groups`),
      await call(b.adminSession, "POST", `/simulator/${conn.id}/groups`, { subject: "Intruso", participants: [{ number: "5511966660004" }] }),
      await call(b.adminSession, "PUT", `/simulator/${conn.id}/groups/${group.id}`, { subject: "Intruso" }),
      await call(b.adminSession, "POST", `/simulator/${conn.id}/groups/${group.id}/messages`, { from: "5511966660003", body: "oi" }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe("ERR_NO_WAPP_FOUND");
    }
    expect((await call(null, "GET", `/simulator/${conn.id}/groups`)).statusCode).toBe(401);
  });
});

describe("polls from the simulated phone", () => {
  it("a poll is stored as its question and options in text, like a Baileys poll; a poll with one option is refused", async () => {
    const c = await buildTenant(t.app);
    const own: ConnectionDTO = (await call(c.adminSession, "POST", "/whatsapp", { name: "Simulador enquetes" })).json();
    expect((await call(c.adminSession, "POST", `/simulator/${own.id}/scan`, { code: own.qrcode })).statusCode).toBe(200);
    const url = `/simulator/${own.id}/phones/5511955550077/messages`;
    const bad = await call(c.userSession, "POST", url, { type: "poll", question: "Sabor?", options: ["Calabresa"] });
    expect(bad.statusCode).toBe(400);
    const sent = await call(c.userSession, "POST", url, { type: "poll", question: "Sabor?", options: ["Calabresa", "Marguerita"], name: "Rui" });
    expect(sent.statusCode, sent.body).toBe(201);
    const stored = async () =>
      (
        await t.ctx.database.db.select({ body: messages.body, fromMe: messages.fromMe }).from(messages).where(eq(messages.companyId, c.company.id))
      ).map((m) => [m.body, m.fromMe]);
    await poll(stored).toContainEqual(["📊 Sabor?\n• Calabresa\n• Marguerita", false]);
  });
});
