/**
 * Issue 21 through the scripted Baileys socket (the same stand-in as baileys.test.ts). Item 4, nothing lost
 * across a reconnect: Replies sent while the connection is down wait (setting
 * sendWhileDisconnected = "queue", the default) and go once, in order, when it is CONNECTED again, through the
 * job runner; with "fail" they fail with retry. Inbound messages WhatsApp delivers late on reconnect
 * (messages.upsert "append") are stored once, however often they are replayed. Item 2: group chats are named
 * after the group's subject (groupMetadata, once per session; groups.update renames), messages carry the
 * participant's name.
 */
import { EventEmitter } from "node:events";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_COMPANY_SETTINGS, type AppMessageEvent, type ConnectionDTO, type MessageDTO } from "@balcao/shared";
import { contacts, messages, tickets } from "../../db/schema";
import { buildContact, buildTenant, collectEvents, connectSocket, type Session } from "../../test/factories";
import type { TestApp } from "../../test/testApp";
import { sendQueueOf, sendWhileDisconnected } from "../../modules/messages/sendQueue";
import { sweepStaleSends } from "../../modules/messages/staleSends";
import { startScriptedBaileysApp, type ScriptedBaileysApp } from "./scriptedBaileysSetup";

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 25 });

const boom = (statusCode: number) =>
  Object.assign(new Error(`Connection Failure ${statusCode}`), {
    isBoom: true,
    output: { statusCode, payload: { statusCode, error: "x", message: "x" }, headers: {} },
  });

class ScriptedSocket {
  readonly ev = new EventEmitter();
  user?: { id: string };
  sent: { jid: string; content: Record<string, unknown> }[] = [];
  private n = 0;
  readonly signalRepository = { lidMapping: { getPNForLID: async () => null } };
  constructor(readonly config: Record<string, unknown>) {}
  async sendMessage(jid: string, content: Record<string, unknown>) {
    this.sent.push({ jid, content });
    return { key: { remoteJid: jid, fromMe: true, id: `3EB0Q${process.pid}X${++this.n}X${Date.now()}` }, message: {} };
  }
  async readMessages() {}
  async onWhatsApp(digits: string) {
    return [{ jid: `${digits}@s.whatsapp.net`, exists: true }];
  }
  async logout() {}
  async end() {}
  /** Group subjects WhatsApp would answer, and how often they were asked. */
  groups: Record<string, string> = {};
  metadataCalls = 0;
  async groupMetadata(jid: string) {
    this.metadataCalls++;
    if (!this.groups[jid]) throw new Error("item-not-found");
    return { id: jid, subject: this.groups[jid], participants: [] };
  }
  open(jid = "5511911112222:7@s.whatsapp.net") {
    const auth = this.config.auth as { creds: { me?: { id: string } } };
    auth.creds.me = { id: jid };
    this.ev.emit("creds.update", { me: { id: jid } });
    this.user = { id: jid };
    this.ev.emit("connection.update", { connection: "open" });
  }
  close(code: number) {
    this.ev.emit("connection.update", { connection: "close", lastDisconnect: { error: boom(code), date: new Date() } });
  }
}

let world: ScriptedBaileysApp<ScriptedSocket>;
let t: TestApp;
let tenant: ScriptedBaileysApp<ScriptedSocket>["tenant"];
let sockets: ScriptedSocket[];
const last = () => world.last();
const allSent = () => sockets.flatMap((s) => s.sent);

const call = (session: Session, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session.headers, ...(payload ? { payload } : {}) });
const statusOf = (id: number) => world.statusOf(id);
const rowOf = async (id: number) => (await t.ctx.database.db.select().from(messages).where(eq(messages.id, id)))[0]!;
const connected = () => world.connected();

/** Connection lost (408): TIMEOUT, then the provider opens a new socket (OPENING) that stays silent until `open()`. */
async function drop(c: ConnectionDTO): Promise<void> {
  const before = sockets.length;
  last().close(408);
  await poll(() => sockets.length).toBe(before + 1);
  await poll(() => statusOf(c.id)).toBe("OPENING");
}

async function reconnect(c: ConnectionDTO): Promise<void> {
  last().open();
  await poll(() => statusOf(c.id)).toBe("CONNECTED");
}

async function openTicket(connectionId: number) {
  const contact = await buildContact(t.ctx, tenant.company.id);
  const [ticket] = await t.ctx.database.db
    .insert(tickets)
    .values({ companyId: tenant.company.id, contactId: contact.id, connectionId, status: "open", userId: tenant.admin.id })
    .returning();
  return { contact, ticket: ticket! };
}

async function setMode(value: "queue" | "fail") {
  const res = await call(tenant.adminSession, "PUT", "/settings/sendWhileDisconnected", { value });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  world = await startScriptedBaileysApp({ Socket: ScriptedSocket, env: { JOBS_POLL_SECONDS: "0.5" }, namePrefix: "Fila", pollTimeoutMs: 15_000 });
  ({ t, tenant, sockets } = world);
});
beforeEach(() => {
  sockets.length = 0;
});
afterEach(async () => {
  await world.stopSessions();
  await setMode("queue");
});
afterAll(() => t.close());

describe("sends while the connection is down (setting sendWhileDisconnected)", () => {
  it("the setting is a company option: queue (default) or fail, nothing else", async () => {
    // New companies start with "queue"; a company without the row (created before the setting) queues too.
    expect(DEFAULT_COMPANY_SETTINGS.sendWhileDisconnected).toBe("queue");
    expect(await sendWhileDisconnected(t.ctx, tenant.company.id)).toBe("queue");
    const bad = await call(tenant.adminSession, "PUT", "/settings/sendWhileDisconnected", { value: "later" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: "ERR_INVALID_SETTING_VALUE" });
    await setMode("fail");
    expect(await sendWhileDisconnected(t.ctx, tenant.company.id)).toBe("fail");
    // Per company: another company still queues.
    const other = await buildTenant(t.app);
    expect(await sendWhileDisconnected(t.ctx, other.company.id)).toBe("queue");
  });

  it("queue: replies stay pending while down and go once, in order, when CONNECTED again", async () => {
    const c = await connected();
    const { ticket } = await openTicket(c.id);
    const other = await openTicket(c.id);
    const socket = await connectSocket(t.app, tenant.adminSession.token);
    const updates = collectEvents<AppMessageEvent>(socket, "appMessage");
    try {
      await drop(c);
      const ids: number[] = [];
      for (const body of ["um", "dois", "três"]) {
        const res = await call(tenant.adminSession, "POST", `/messages/${ticket.id}`, { body });
        expect(res.statusCode, res.body).toBe(201);
        const [m] = res.json() as MessageDTO[];
        expect(m!.status).toBe("pending");
        ids.push(m!.id);
      }
      const res = await call(tenant.adminSession, "POST", `/messages/${other.ticket.id}`, { body: "outro" });
      expect(res.statusCode, res.body).toBe(201);
      ids.push((res.json() as MessageDTO[])[0]!.id);
      expect(allSent()).toEqual([]);
      for (const id of ids) expect((await rowOf(id)).dataJson).toMatchObject({ queued: "waiting" });
      // The stale-send sweep does not take them for replies a dead process left behind.
      await t.ctx.database.db
        .update(messages)
        .set({ updatedAt: sql`now() - interval '1 day'` })
        .where(eq(messages.id, ids[0]!));
      await sweepStaleSends(t.ctx);
      expect((await rowOf(ids[0]!)).status).toBe("pending");

      await reconnect(c);
      await poll(async () => Promise.all(ids.map(async (id) => (await rowOf(id)).status))).toEqual(["sent", "sent", "sent", "sent"]);
      expect(last().sent.map((s) => s.content.text)).toEqual(["um", "dois", "três", "outro"]);
      for (const id of ids) expect((await rowOf(id)).dataJson ?? {}).not.toHaveProperty("queued");
      // Another run (a second reconnect's, the owner's sweep) finds nothing more to send.
      await sendQueueOf(t.ctx).flush(t.ctx.services.messages, { companyId: tenant.company.id, connectionId: c.id });
      await sendQueueOf(t.ctx).sweep();
      expect(allSent()).toHaveLength(4);
      // The attendant's screen saw each message become sent.
      await poll(() => ids.every((id) => updates.some((u) => u.action === "update" && u.message.id === id && u.message.status === "sent"))).toBe(
        true,
      );
    } finally {
      socket.disconnect();
    }
  });

  it("a reply sent when the connection is back, behind a queued one of its conversation, waits its turn", async () => {
    const c = await connected();
    const { ticket, contact } = await openTicket(c.id);
    // A reply queued while the connection was down, whose run has not come yet.
    const [earlier] = await t.ctx.database.db
      .insert(messages)
      .values({
        companyId: tenant.company.id,
        ticketId: ticket.id,
        contactId: contact.id,
        connectionId: c.id,
        body: "antes",
        fromMe: true,
        read: true,
        status: "pending",
        dataJson: { queued: "waiting" },
      })
      .returning({ id: messages.id });
    const res = await call(tenant.adminSession, "POST", `/messages/${ticket.id}`, { body: "depois" });
    expect(res.statusCode, res.body).toBe(201);
    const laterId = (res.json() as MessageDTO[])[0]!.id;
    await poll(async () => [(await rowOf(earlier!.id)).status, (await rowOf(laterId)).status]).toEqual(["sent", "sent"]);
    expect(last().sent.map((s) => s.content.text)).toEqual(["antes", "depois"]);
  });

  it("a send a dead run left half-done is failed with retry, never sent twice", async () => {
    const c = await connected();
    const { ticket } = await openTicket(c.id);
    await drop(c);
    const [m] = (await call(tenant.adminSession, "POST", `/messages/${ticket.id}`, { body: "talvez enviada" })).json() as MessageDTO[];
    // What a process killed while handing it to WhatsApp leaves: the claim written, no outcome.
    await t.ctx.database.db
      .update(messages)
      .set({ dataJson: sql`jsonb_set(${messages.dataJson}, '{queued}', '"sending"')` })
      .where(eq(messages.id, m!.id));
    await reconnect(c);
    await poll(async () => (await rowOf(m!.id)).status).toBe("failed");
    expect(allSent()).toEqual([]);
    // The attendant retries it by hand.
    const retried = await call(tenant.adminSession, "POST", `/messages/${m!.id}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect((await rowOf(m!.id)).status).toBe("sent");
    expect(last().sent.map((s) => s.content.text)).toEqual(["talvez enviada"]);
  });

  it("fail: the reply is marked failed at once (ERR_SENDING_WAPP_MSG) and the retry sends it once back", async () => {
    await setMode("fail");
    const c = await connected();
    const { ticket } = await openTicket(c.id);
    await drop(c);
    const res = await call(tenant.adminSession, "POST", `/messages/${ticket.id}`, { body: "falhou" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "ERR_SENDING_WAPP_MSG" });
    const [row] = await t.ctx.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.body, "falhou")));
    expect(row!.status).toBe("failed");
    await reconnect(c);
    expect(allSent()).toEqual([]);
    const retried = await call(tenant.adminSession, "POST", `/messages/${row!.id}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(last().sent.map((s) => s.content.text)).toEqual(["falhou"]);
  });
});

describe("inbound delivered late on reconnect (messages.upsert append)", () => {
  const upsert = (sock: ScriptedSocket, list: object[], type: string) => sock.ev.emit("messages.upsert", { messages: list, type });
  const msg = (id: string, text: string, ageSeconds: number, fromMe = false) => ({
    key: { remoteJid: "5511987650001@s.whatsapp.net", fromMe, id },
    message: { conversation: text },
    messageTimestamp: Math.floor(Date.now() / 1000) - ageSeconds,
    pushName: "Cliente Offline",
  });

  it("stores each message once however often it is replayed, with one socket event each; old history and own echoes are not stored", async () => {
    const c = await connected();
    const socket = await connectSocket(t.app, tenant.adminSession.token);
    const created = collectEvents<AppMessageEvent>(socket, "appMessage");
    try {
      await drop(c);
      await reconnect(c);
      const batch = [msg(`OFF1-${c.id}`, "enviada offline 1", 600), msg(`OFF2-${c.id}`, "enviada offline 2", 300)];
      upsert(last(), [...batch, msg(`OLD-${c.id}`, "histórico antigo", 30 * 86_400), msg(`ME-${c.id}`, "eco nosso", 60, true)], "append");
      const stored = () =>
        t.ctx.database.db
          .select({ providerMessageId: messages.providerMessageId, body: messages.body })
          .from(messages)
          .where(and(eq(messages.companyId, tenant.company.id), eq(messages.connectionId, c.id)))
          .orderBy(messages.id);
      await poll(async () => (await stored()).map((r) => r.body)).toEqual(["enviada offline 1", "enviada offline 2"]);
      // The same messages again after another reconnect (WhatsApp redelivers what it was not sure we had), and live.
      await drop(c);
      await reconnect(c);
      upsert(last(), batch, "append");
      upsert(last(), [msg(`LIVE-${c.id}`, "ao vivo", 0)], "notify");
      await poll(async () => (await stored()).map((r) => r.body)).toEqual(["enviada offline 1", "enviada offline 2", "ao vivo"]);
      const creates = () => created.filter((e) => e.action === "create" && e.message.body !== "").map((e) => e.message.body);
      await poll(creates).toContain("ao vivo");
      expect(creates().sort()).toEqual(["ao vivo", "enviada offline 1", "enviada offline 2"]);
    } finally {
      socket.disconnect();
    }
  });
});

describe("groups: subject and participants (issue 21, item 2)", () => {
  const GROUP = "120363000000000009";
  const inGroup = (id: string, text: string, participant: string, pushName: string) => ({
    key: { remoteJid: `${GROUP}@g.us`, fromMe: false, id, participant: `${participant}@s.whatsapp.net` },
    message: { conversation: text },
    messageTimestamp: Math.floor(Date.now() / 1000),
    pushName,
  });

  it("names the group's contact and ticket after its subject, each message after its participant; groups.update renames", async () => {
    // Group messages are ignored by default (CheckMsgIsGroup): this company takes them.
    expect((await call(tenant.adminSession, "PUT", "/settings/CheckMsgIsGroup", { value: "disabled" })).statusCode).toBe(200);
    const c = await connected();
    const s = last();
    s.groups[`${GROUP}@g.us`] = "Equipe Vendas";
    const socket = await connectSocket(t.app, tenant.adminSession.token);
    const contactEvents = collectEvents<{ action: string; contact: { id: number; name: string } }>(socket, "contact");
    try {
      s.ev.emit("messages.upsert", { type: "notify", messages: [inGroup(`GA-${c.id}`, "bom dia", "5511977770001", "Ana")] });
      s.ev.emit("messages.upsert", { type: "notify", messages: [inGroup(`GB-${c.id}`, "oi pessoal", "5511977770002", "Bruno")] });
      const rows = () =>
        t.ctx.database.db
          .select({ body: messages.body, participant: messages.participant, ticketId: messages.ticketId, contactId: messages.contactId })
          .from(messages)
          .where(and(eq(messages.companyId, tenant.company.id), eq(messages.connectionId, c.id)))
          .orderBy(messages.id);
      await poll(async () => (await rows()).map((r) => [r.body, r.participant])).toEqual([
        ["bom dia", "Ana"],
        ["oi pessoal", "Bruno"],
      ]);
      const [first] = await rows();
      const [group] = await t.ctx.database.db.select().from(contacts).where(eq(contacts.id, first!.contactId!));
      expect(group).toMatchObject({ name: "Equipe Vendas", isGroup: true, number: GROUP });
      const [ticket] = await t.ctx.database.db.select().from(tickets).where(eq(tickets.id, first!.ticketId));
      expect(ticket).toMatchObject({ isGroup: true, contactId: group!.id });
      // The subject is asked once per session, not per message.
      expect(s.metadataCalls).toBe(1);
      // The messages API gives each message its participant's name (the bubble shows it above the text).
      const list = (await call(tenant.adminSession, "GET", `/messages/${ticket!.id}`)).json() as { messages: MessageDTO[] };
      expect(list.messages.map((m) => m.participant)).toEqual(["Ana", "Bruno"]);

      s.ev.emit("groups.update", [{ id: `${GROUP}@g.us`, subject: "Vendas 2026" }]);
      await poll(async () => (await t.ctx.database.db.select().from(contacts).where(eq(contacts.id, group!.id)))[0]!.name).toBe("Vendas 2026");
      await poll(() => contactEvents.some((e) => e.action === "update" && e.contact.id === group!.id && e.contact.name === "Vendas 2026")).toBe(true);
    } finally {
      socket.disconnect();
      await call(tenant.adminSession, "PUT", "/settings/CheckMsgIsGroup", { value: "enabled" });
    }
  });
});
