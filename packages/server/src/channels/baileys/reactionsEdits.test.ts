/**
 * Issue 21 through the Baileys provider, end to end: messages.upsert carrying a reactionMessage or an edit
 * (editedMessage → protocolMessage MESSAGE_EDIT, Baileys' real shapes) reaches the inbound pipeline and is
 * stored on the target message; the attendants hear it as appMessage "update". A minimal stand-in for Baileys'
 * socket is kept here (the shared scripted socket is another suite's).
 */
import { EventEmitter } from "node:events";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AppMessageEvent, ConnectionDTO, MessageDTO, MessageListResponse } from "@balcao/shared";
import { messages } from "../../db/schema";
import { collectEvents, connectSocket } from "../../test/factories";
import type { TestApp } from "../../test/testApp";
import { startScriptedBaileysApp, type ScriptedBaileysApp } from "./scriptedBaileysSetup";

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 20 });

/** What the provider uses of a Baileys socket, and the events this file emits on it. */
class MiniSocket {
  readonly ev = new EventEmitter();
  user?: { id: string };
  readonly signalRepository = { lidMapping: { getPNForLID: async () => null } };
  constructor(readonly config: Record<string, unknown>) {}
  updateMediaMessage = async (m: unknown) => m;
  async sendMessage(jid: string) {
    return { key: { remoteJid: jid, fromMe: true, id: `3EB0MINI${Date.now()}` }, message: {}, messageTimestamp: Math.floor(Date.now() / 1000) };
  }
  async readMessages() {}
  async end() {}
  async logout() {}
  open(jid = "5511911113333:2@s.whatsapp.net") {
    const auth = this.config.auth as { creds: { me?: { id: string } } };
    auth.creds.me = { id: jid };
    this.ev.emit("creds.update", { me: { id: jid } });
    this.user = { id: jid };
    this.ev.emit("connection.update", { connection: "open" });
  }
  upsert(messages: object[]) {
    this.ev.emit("messages.upsert", { messages, type: "notify" });
  }
}

let world: ScriptedBaileysApp<MiniSocket>;
let t: TestApp;
let tenant: ScriptedBaileysApp<MiniSocket>["tenant"];
const CUSTOMER = "5511987659876@s.whatsapp.net";

const call = (method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: tenant.adminSession.headers, ...(payload ? { payload } : {}) });

const msg = (id: string, message: object, key: object = {}, seconds = 1_760_000_000) => ({
  key: { remoteJid: CUSTOMER, fromMe: false, id, ...key },
  message,
  messageTimestamp: seconds,
  pushName: "Joana",
});

async function connected(): Promise<{ connection: ConnectionDTO; socket: MiniSocket }> {
  const connection = await world.connected();
  return { connection, socket: world.last() };
}

async function stored(connectionId: number, providerMessageId: string) {
  const find = () =>
    t.ctx.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.connectionId, connectionId), eq(messages.providerMessageId, providerMessageId)));
  await poll(async () => (await find()).length).toBe(1);
  return (await find())[0]!;
}

async function listed(ticketId: number, id: number): Promise<MessageDTO | undefined> {
  return ((await call("GET", `/messages/${ticketId}`)).json() as MessageListResponse).messages.find((m) => m.id === id);
}

beforeAll(async () => {
  world = await startScriptedBaileysApp({ Socket: MiniSocket, namePrefix: "Baileys reações" });
  ({ t, tenant } = world);
});
afterEach(() => world.stopSessions());
afterAll(() => t.close());

describe("Baileys reactions (issue 21)", () => {
  it("a customer's reactionMessage is stored on its target, replaced by their next one, removed by ''; the phone's own is 'fromMe'", async () => {
    const { connection, socket } = await connected();
    const live = await connectSocket(t.app, tenant.adminSession.token);
    const updates = collectEvents<AppMessageEvent>(live, "appMessage");
    try {
      socket.upsert([msg("BT1", { conversation: "Tem na cor azul?" })]);
      const target = await stored(connection.id, "BT1");
      const reactions = async () => (await listed(target.ticketId, target.id))?.reactions;

      socket.upsert([msg("BR1", { reactionMessage: { key: { remoteJid: CUSTOMER, fromMe: false, id: "BT1" }, text: "👍", senderTimestampMs: 1 } })]);
      await poll(reactions).toEqual([{ emoji: "👍", count: 1, fromMe: false }]);
      await poll(() => updates.some((e) => e.action === "update" && e.message.id === target.id && e.message.reactions?.[0]?.emoji === "👍")).toBe(
        true,
      );

      socket.upsert([msg("BR2", { reactionMessage: { key: { remoteJid: CUSTOMER, fromMe: false, id: "BT1" }, text: "😍" } })]);
      await poll(reactions).toEqual([{ emoji: "😍", count: 1, fromMe: false }]);
      // The company's number reacting from the phone (key.fromMe) is the company's own reaction.
      socket.upsert([msg("BR3", { reactionMessage: { key: { remoteJid: CUSTOMER, fromMe: false, id: "BT1" }, text: "😍" } }, { fromMe: true })]);
      await poll(reactions).toEqual([{ emoji: "😍", count: 2, fromMe: true }]);
      socket.upsert([msg("BR4", { reactionMessage: { key: { remoteJid: CUSTOMER, fromMe: false, id: "BT1" }, text: "" } })]);
      await poll(reactions).toEqual([{ emoji: "😍", count: 1, fromMe: true }]);

      // A reaction to a message never stored here is dropped; none of them became a message.
      socket.upsert([msg("BR5", { reactionMessage: { key: { remoteJid: CUSTOMER, fromMe: false, id: "UNKNOWN" }, text: "👍" } })]);
      socket.upsert([msg("BT2", { conversation: "depois" })]);
      await stored(connection.id, "BT2");
      const rows = await t.ctx.database.db.select().from(messages).where(eq(messages.connectionId, connection.id));
      expect(rows.map((r) => r.providerMessageId).sort()).toEqual(["BT1", "BT2"]);
    } finally {
      live.close();
    }
  });

  it("in a group, each participant's reaction counts once", async () => {
    const groups = await call("PUT", "/settings/CheckMsgIsGroup", { value: "disabled" });
    expect(groups.statusCode, groups.body).toBe(200);
    const { connection, socket } = await connected();
    const GROUP = "120363000000000099@g.us";
    socket.upsert([msg("BG1", { conversation: "Reunião às 10h" }, { remoteJid: GROUP, participant: "5511977770001@s.whatsapp.net" })]);
    const target = await stored(connection.id, "BG1");
    const react = (id: string, participant: string, text: string) =>
      msg(
        id,
        { reactionMessage: { key: { remoteJid: GROUP, id: "BG1", participant: "5511977770001@s.whatsapp.net" }, text } },
        { remoteJid: GROUP, participant },
      );
    socket.upsert([
      react("BGR1", "5511977770002@s.whatsapp.net", "👍"),
      react("BGR2", "5511977770003@s.whatsapp.net", "👍"),
      react("BGR3", "5511977770002@s.whatsapp.net", "👍"),
    ]);
    await poll(async () => (await listed(target.ticketId, target.id))?.reactions).toEqual([{ emoji: "👍", count: 2, fromMe: false }]);
  });
});

describe("Baileys edits (issue 21)", () => {
  const edit = (editId: string, targetId: string, text: string, key: object = {}, seconds = 1_760_000_100) =>
    msg(
      editId,
      {
        editedMessage: {
          message: {
            protocolMessage: { type: 14, key: { remoteJid: CUSTOMER, fromMe: false, id: targetId }, editedMessage: { conversation: text } },
          },
        },
      },
      key,
      seconds,
    );

  it("MESSAGE_EDIT replaces the text, keeps the earlier one with the edit's time; a redelivered edit is ignored", async () => {
    const { connection, socket } = await connected();
    socket.upsert([msg("BE1", { extendedTextMessage: { text: "Entrega na rua A" } })]);
    const target = await stored(connection.id, "BE1");
    socket.upsert([edit("BED1", "BE1", "Entrega na rua B")]);
    await poll(async () => (await listed(target.ticketId, target.id))?.body).toBe("Entrega na rua B");
    const first = (await listed(target.ticketId, target.id))!;
    expect(first.editedAt).toBe(new Date(1_760_000_100_000).toISOString());
    expect(first.edits).toEqual([{ body: "Entrega na rua A", editedAt: new Date(1_760_000_100_000).toISOString() }]);

    // Redelivered (same edit id) after a later edit: not applied again, the later text stays.
    socket.upsert([edit("BED2", "BE1", "Entrega na rua C", {}, 1_760_000_200)]);
    await poll(async () => (await listed(target.ticketId, target.id))?.body).toBe("Entrega na rua C");
    socket.upsert([edit("BED1", "BE1", "Entrega na rua B")]);
    socket.upsert([msg("BE2", { conversation: "obrigada" })]);
    await stored(connection.id, "BE2");
    const after = (await listed(target.ticketId, target.id))!;
    expect(after.body).toBe("Entrega na rua C");
    expect(after.edits!.map((e) => e.body)).toEqual(["Entrega na rua A", "Entrega na rua B"]);
  });

  it("an edit claiming the other side's message is not applied (the customer cannot edit the company's text)", async () => {
    const { connection, socket } = await connected();
    socket.upsert([msg("BO1", { conversation: "Pedido confirmado" }, { fromMe: true })]);
    const target = await stored(connection.id, "BO1");
    socket.upsert([edit("BOE1", "BO1", "Pedido cancelado")]);
    socket.upsert([msg("BO2", { conversation: "ok" })]);
    await stored(connection.id, "BO2");
    expect(await listed(target.ticketId, target.id)).toMatchObject({ body: "Pedido confirmado", editedAt: null });
    // The company's own number editing it (from the phone) is.
    socket.upsert([edit("BOE2", "BO1", "Pedido confirmado para amanhã", { fromMe: true })]);
    await poll(async () => (await listed(target.ticketId, target.id))?.body).toBe("Pedido confirmado para amanhã");
  });
});
