/**
 * The Baileys provider against a scripted stand-in for Baileys' socket (./scriptedSocket.ts: WhatsApp's servers
 * are not reachable here). What every provider must do is in the provider contract suite
 * (baileys.contract.test.ts); this file covers Baileys' own mapping: close codes, LIDs, groups, auth state, health.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ConnectionHealthAlertDTO, ConnectionHealthDTO, PairingCodeDTO } from "@balcao/shared";
import { connectionAuth, connectionAuthKeys, connections } from "../../db/schema";
import { buildTenant, collectEvents, connectSocket, nextEventWhere, type Session } from "../../test/factories";
import { connectedMs } from "../../modules/connections/health";
import type { TestApp } from "../../test/testApp";
import type { ChannelEventContext } from "../manager";
import type { ChannelEvent } from "../types";
import { readOggOpusInfo } from "../audio";
import { toneMp3 } from "../audio/testing";
import { useDbAuthState } from "./authState";
import { mapBaileysClose, mapBaileysStatus, type BaileysLib } from "./provider";
import { startScriptedBaileysApp, type ScriptedBaileysApp } from "./scriptedBaileysSetup";
import { boom, ScriptedSocket } from "./scriptedSocket";

/** Polls with room for a loaded CI machine (other listeners, e.g. the message pipeline, run first). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 20 });

let world: ScriptedBaileysApp<ScriptedSocket>;
let t: TestApp;
let tenant: ScriptedBaileysApp<ScriptedSocket>["tenant"];
let sockets: ScriptedSocket[];
let downloads: number;
let failDownload = false;
const events: { ctx: ChannelEventContext; event: ChannelEvent }[] = [];

const call = (session: Session, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session.headers, ...(payload ? { payload } : {}) });

const rowOf = async (id: number) => (await t.ctx.database.db.select().from(connections).where(eq(connections.id, id)))[0]!;
const last = () => world.last();
const newConnection = () => world.newConnection();
const connected = () => world.connected();

beforeAll(async () => {
  world = await startScriptedBaileysApp({
    Socket: ScriptedSocket,
    namePrefix: "Baileys",
    downloadMediaMessage: async () => {
      downloads++;
      if (failDownload) throw new Error("media expired");
      return Buffer.from(`bytes-${downloads}`);
    },
  });
  ({ t, tenant, sockets } = world);
  t.ctx.channels.onEvent(async (ctx, event) => {
    events.push({ ctx, event });
  });
});
beforeEach(() => {
  sockets.length = 0;
  downloads = 0;
  failDownload = false;
  events.length = 0;
});
// Sessions left reconnecting (backoff) must not open sockets during the next test.
afterEach(() => world.stopSessions());
afterAll(() => t.close());

describe("connection.update → status", () => {
  it("qr → qrcode, open → CONNECTED with the account number; creds persisted in the database as a versioned format", async () => {
    const c = await newConnection();
    expect(last().config).toMatchObject({ markOnlineOnConnect: false, syncFullHistory: false });
    last().update({ connection: "connecting" });
    last().update({ qr: "2@ABCDEF,ghijk==,lmno==" });
    await poll(async () => (await rowOf(c.id)).status).toBe("qrcode");
    expect((await rowOf(c.id)).qrcode).toBe("2@ABCDEF,ghijk==,lmno==");
    last().ev.emit("creds.update", {});
    await expect
      .poll(async () => (await t.ctx.database.db.select().from(connectionAuth).where(eq(connectionAuth.connectionId, c.id)))[0]?.creds)
      .toMatchObject({ format: "baileys-v7", creds: { noiseKey: expect.anything(), registrationId: expect.any(Number) } });
    last().open();
    await poll(async () => rowOf(c.id)).toMatchObject({ status: "CONNECTED", qrcode: "", retries: 0, number: "5511911112222" });
    const wire = await call(tenant.adminSession, "GET", `/whatsapp/${c.id}`);
    expect(wire.body).not.toMatch(/noiseKey|registrationId|baileys-v7/);
  });

  it.each([
    [515, "restartRequired: reconnects at once", "OPENING", true, "kept"],
    [428, "connectionClosed: reconnects after backoff", "OPENING", true, "kept"],
    [503, "unavailableService: reconnects after backoff", "OPENING", true, "kept"],
    [401, "loggedOut: credentials wiped, no reconnect", "DISCONNECTED", false, "wiped"],
    [411, "multideviceMismatch: credentials wiped", "DISCONNECTED", false, "wiped"],
    [440, "connectionReplaced: stops, no loop", "DISCONNECTED", false, "kept"],
    [403, "forbidden: stops", "DISCONNECTED", false, "kept"],
    [500, "badSession: Signal sessions cleared", "DISCONNECTED", false, "sessions cleared"],
  ] as const)("close %i (%s) → %s", async (code, _what, status, reconnects, auth) => {
    const c = await connected();
    const db = t.ctx.database.db;
    last().ev.emit("creds.update", {});
    await poll(async () => (await db.select().from(connectionAuth).where(eq(connectionAuth.connectionId, c.id))).length).toBe(1);
    await db.insert(connectionAuthKeys).values([
      { connectionId: c.id, companyId: tenant.company.id, type: "session", keyId: "5511@s", value: { x: 1 } },
      { connectionId: c.id, companyId: tenant.company.id, type: "pre-key", keyId: "1", value: { y: 2 } },
    ]);
    const before = sockets.length;
    last().close(code);
    await poll(async () => (await rowOf(c.id)).status).toBe(reconnects && code !== 515 ? "OPENING" : status);
    if (reconnects) {
      await expect.poll(() => sockets.length, { timeout: 2000 }).toBe(before + 1);
      if (code !== 515) expect((await rowOf(c.id)).retries).toBe(1);
      last().open();
      await poll(async () => rowOf(c.id)).toMatchObject({ status: "CONNECTED", retries: 0 });
    } else {
      await new Promise((r) => setTimeout(r, 150));
      expect(sockets.length).toBe(before);
      expect(t.ctx.channels.isLocal(c.id)).toBe(false);
      expect((await rowOf(c.id)).qrcode).toBe("");
    }
    const creds = await db.select().from(connectionAuth).where(eq(connectionAuth.connectionId, c.id));
    const keys = await db.select({ type: connectionAuthKeys.type }).from(connectionAuthKeys).where(eq(connectionAuthKeys.connectionId, c.id));
    if (auth === "wiped") expect({ creds: creds.length, keys: keys.length }).toEqual({ creds: 0, keys: 0 });
    if (auth === "kept") expect({ creds: creds.length, keys: keys.length }).toEqual({ creds: 1, keys: 2 });
    if (auth === "sessions cleared") expect({ creds: creds.length, keys: keys.map((k) => k.type) }).toEqual({ creds: 1, keys: ["pre-key"] });
  });

  it("close 408 (connection lost) → TIMEOUT with retries counted, backoff reconnects, open resets retries", async () => {
    const c = await connected();
    const seen: { status: string; retries: number }[] = [];
    const unsubscribe = t.ctx.events.subscribe("test.sessions", (e) => {
      if (e.type === "connections.session" && e.connection.id === c.id) seen.push({ status: e.connection.status, retries: e.connection.retries });
    });
    // A new consumer group starts from the events that exist when its cursor is made: make it before the drop.
    await t.ctx.events.drain();
    last().close(408);
    await poll(() => seen).toEqual(
      expect.arrayContaining([
        { status: "TIMEOUT", retries: 1 },
        { status: "OPENING", retries: 1 },
      ]),
    );
    await expect.poll(() => sockets.length, { timeout: 2000 }).toBe(2);
    last().close(408);
    await poll(async () => (await rowOf(c.id)).retries).toBe(2);
    await expect.poll(() => sockets.length, { timeout: 2000 }).toBe(3);
    last().open();
    await poll(async () => rowOf(c.id)).toMatchObject({ status: "CONNECTED", retries: 0 });
    // Events are published after commit, asynchronously: start from the first TIMEOUT.
    await poll(() => {
      const statuses = seen.map((x) => x.status);
      return statuses.slice(statuses.indexOf("TIMEOUT"));
    }).toEqual(["TIMEOUT", "OPENING", "TIMEOUT", "OPENING", "CONNECTED"]);
    unsubscribe();
  });

  it("close 408 before any pairing (QR never scanned) → DISCONNECTED, no loop", async () => {
    const c = await newConnection();
    last().update({ qr: "2@unscanned" });
    await poll(async () => (await rowOf(c.id)).status).toBe("qrcode");
    last().close(408);
    await poll(async () => rowOf(c.id)).toMatchObject({ status: "DISCONNECTED", qrcode: "" });
    await new Promise((r) => setTimeout(r, 150));
    expect(sockets.length).toBe(1);
  });

  it("disconnect (DELETE /whatsappsession) logs out and wipes the credentials; its own close event is ignored", async () => {
    const c = await connected();
    const sock = last();
    await call(tenant.adminSession, "DELETE", `/whatsappsession/${c.id}`);
    expect(sock.loggedOut).toBe(true);
    sock.close(401);
    await poll(async () => rowOf(c.id)).toMatchObject({ status: "DISCONNECTED" });
    expect(await t.ctx.database.db.select().from(connectionAuth).where(eq(connectionAuth.connectionId, c.id))).toEqual([]);
    expect(sockets.length).toBe(1);
  });
});

describe("inbound: messages.upsert, messages.update, call", () => {
  const upsert = (sock: ScriptedSocket, messages: object[], type = "notify") => sock.ev.emit("messages.upsert", { messages, type });
  const msg = (id: string, message: object, key: object = {}) => ({
    key: { remoteJid: "5511987654321@s.whatsapp.net", fromMe: false, id, ...key },
    message,
    messageTimestamp: 1_760_000_000,
    pushName: "Maria",
  });
  const messagesOf = () =>
    events.filter((e) => e.event.type === "message").map((e) => (e.event as Extract<ChannelEvent, { type: "message" }>).message);

  it("maps every spec type, downloads media once, resolves LIDs, ignores history and noise", async () => {
    const c = await connected();
    const s = last();
    const thumb = Buffer.from([0xff, 0xd8, 0xff]);
    upsert(s, [
      msg("T1", { conversation: "Oi" }),
      msg("T2", { extendedTextMessage: { text: "respondendo", contextInfo: { stanzaId: "T1", participant: "5511987654321@s.whatsapp.net" } } }),
      msg("I1", { imageMessage: { caption: "foto", mimetype: "image/jpeg", url: "https://mmg.whatsapp.net/x" } }),
      msg("A1", { audioMessage: { mimetype: "audio/ogg; codecs=opus", ptt: true, seconds: 3 } }),
      msg("V1", { videoMessage: { caption: "vídeo", mimetype: "video/mp4" } }),
      msg("D1", {
        documentWithCaptionMessage: { message: { documentMessage: { fileName: "nota.pdf", mimetype: "application/pdf", caption: "segue" } } },
      }),
      msg("L1", { locationMessage: { degreesLatitude: -23.5, degreesLongitude: -46.6, name: "Loja", address: "Rua A", jpegThumbnail: thumb } }),
      msg("C1", { contactMessage: { displayName: "João", vcard: "BEGIN:VCARD\nVERSION:3.0\nFN:João\nEND:VCARD" } }),
      msg("E1", { ephemeralMessage: { message: { conversation: "efêmera" } } }),
      msg("R1", { reactionMessage: { key: { id: "T1" }, text: "👍" } }),
      msg("LID1", { conversation: "via lid" }, { remoteJid: "12345678@lid", remoteJidAlt: "5511933332222@s.whatsapp.net" }),
      msg("LID2", { conversation: "lid sem alt" }, { remoteJid: "99887766@lid" }),
      msg("G1", { conversation: "no grupo" }, { remoteJid: "120363000000000001@g.us", participant: "5511977776666@s.whatsapp.net" }),
    ]);
    upsert(s, [msg("H1", { conversation: "histórico" })], "append");
    await poll(() => messagesOf().length).toBe(12);
    const byId = new Map(messagesOf().map((m) => [m.providerMessageId, m]));
    expect(events.every((e) => e.ctx.connectionId === c.id && e.ctx.companyId === tenant.company.id)).toBe(true);
    expect(byId.get("T1")).toMatchObject({
      kind: "chat",
      body: "Oi",
      fromMe: false,
      chat: { id: "5511987654321", kind: "phone", pushName: "Maria" },
      timestamp: new Date(1_760_000_000_000),
    });
    expect(byId.get("T2")).toMatchObject({ kind: "chat", body: "respondendo", quotedProviderMessageId: "T1" });
    expect(byId.get("I1")).toMatchObject({ kind: "image", body: "foto", media: { mimeType: "image/jpeg" } });
    expect(byId.get("A1")).toMatchObject({ kind: "audio", media: { mimeType: "audio/ogg; codecs=opus", voice: true } });
    expect(byId.get("V1")).toMatchObject({ kind: "video", body: "vídeo" });
    expect(byId.get("D1")).toMatchObject({ kind: "document", body: "segue", media: { fileName: "nota.pdf", mimeType: "application/pdf" } });
    expect(byId.get("L1")!.body).toBe(
      `data:image/jpeg;base64,${thumb.toString("base64")}|https://maps.google.com/maps?q=-23.5%2C-46.6&z=17&hl=pt-BR|Loja - Rua A`,
    );
    expect(byId.get("C1")).toMatchObject({ kind: "vcard", body: expect.stringContaining("FN:João") });
    expect(byId.get("E1")).toMatchObject({ kind: "chat", body: "efêmera" });
    expect(byId.get("LID1")!.chat).toEqual({
      id: "12345678",
      kind: "wa_lid",
      alternates: [{ kind: "phone", id: "5511933332222" }],
      pushName: "Maria",
    });
    expect(byId.get("LID2")!.chat).toMatchObject({ id: "99887766", kind: "wa_lid", alternates: [{ kind: "phone", id: "5511955554444" }] });
    expect(byId.get("G1")).toMatchObject({ chat: { id: "120363000000000001", kind: "group" }, participant: { id: "5511977776666", kind: "phone" } });
    expect(byId.has("R1")).toBe(false);
    expect(byId.has("H1")).toBe(false);
    expect(downloads).toBe(4); // image, audio, video, document: once each
    expect(byId.get("I1")!.media!.data.toString()).toMatch(/^bytes-\d$/);
  });

  it("polls are shown as text; view-once media and ephemeral messages are unwrapped and stored like the others (issue 21)", async () => {
    await connected();
    const s = last();
    upsert(s, [
      msg("P1", {
        pollCreationMessageV3: { name: "Melhor horário?", options: [{ optionName: "Manhã" }, { optionName: "Tarde" }], selectableOptionsCount: 1 },
      }),
      msg("P2", { pollUpdateMessage: { pollCreationMessageKey: { id: "P1" }, vote: { encPayload: Buffer.from([1]), encIv: Buffer.from([2]) } } }),
      msg("VO1", { viewOnceMessageV2: { message: { imageMessage: { caption: "só uma vez", mimetype: "image/jpeg" } } } }),
      msg("EP1", { ephemeralMessage: { message: { extendedTextMessage: { text: "some em 24 h" } } } }),
    ]);
    await poll(() => messagesOf().length).toBe(3);
    const byId = new Map(messagesOf().map((m) => [m.providerMessageId, m]));
    expect(byId.get("P1")).toMatchObject({ kind: "chat", body: "📊 Melhor horário?\n• Manhã\n• Tarde" });
    expect(byId.has("P2")).toBe(false);
    expect(byId.get("VO1")).toMatchObject({ kind: "image", body: "só uma vez", media: { mimeType: "image/jpeg" } });
    expect(byId.get("EP1")).toMatchObject({ kind: "chat", body: "some em 24 h" });
  });

  it("keeps the message when its media cannot be downloaded", async () => {
    await connected();
    failDownload = true;
    upsert(last(), [msg("I2", { imageMessage: { caption: "sem mídia", mimetype: "image/jpeg" } })]);
    await poll(() => messagesOf().length).toBe(1);
    expect(messagesOf()[0]).toMatchObject({ kind: "image", body: "sem mídia" });
    expect(messagesOf()[0]!.media).toBeUndefined();
  });

  it("revokes (protocolMessage REVOKE or a stub update) become one `deleted` event", async () => {
    await connected();
    upsert(last(), [msg("P1", { protocolMessage: { type: 0, key: { remoteJid: "5511987654321@s.whatsapp.net", fromMe: false, id: "T9" } } })]);
    last().ev.emit("messages.update", [
      { key: { remoteJid: "5511987654321@s.whatsapp.net", fromMe: false, id: "T9" }, update: { message: null, messageStubType: 1 } },
    ]);
    last().ev.emit("messages.update", [
      { key: { remoteJid: "5511987654321@s.whatsapp.net", fromMe: false, id: "T8" }, update: { messageStubType: 1 } },
    ]);
    await poll(() => events.filter((e) => e.event.type === "deleted").length).toBe(2);
    expect(events.map((e) => e.event)).toEqual([
      { type: "deleted", providerMessageId: "T9", chat: { id: "5511987654321", kind: "phone", pushName: "Maria" } },
      { type: "deleted", providerMessageId: "T8", chat: { id: "5511987654321", kind: "phone" } },
    ]);
  });

  it("messages.update statuses → acks 1–4 on the spec's scale, monotonic; ERROR → failed", async () => {
    expect([0, 1, 2, 3, 4, 5].map(mapBaileysStatus)).toEqual(["failed", null, 1, 2, 3, 4]);
    await connected();
    const key = { remoteJid: "5511987654321@s.whatsapp.net", fromMe: true, id: "OUT1" };
    for (const status of [2, 3, 4, 3, 5, 2]) last().ev.emit("messages.update", [{ key, update: { status } }]);
    last().ev.emit("messages.update", [{ key: { ...key, id: "OUT2" }, update: { status: 0 } }]);
    last().ev.emit("messages.update", [{ key: { ...key, fromMe: false, id: "IN1" }, update: { status: 4 } }]);
    await poll(() => events.length).toBe(5);
    expect(events.map((e) => e.event)).toEqual([
      { type: "ack", providerMessageId: "OUT1", ack: 1 },
      { type: "ack", providerMessageId: "OUT1", ack: 2 },
      { type: "ack", providerMessageId: "OUT1", ack: 3 },
      { type: "ack", providerMessageId: "OUT1", ack: 4 },
      { type: "failed", providerMessageId: "OUT2", error: "ERROR" },
    ]);
  });

  it("call offers become call events (LID callers carry the phone as alternate); contacts become contacts", async () => {
    await connected();
    last().ev.emit("call", [
      {
        chatId: "5511987654321@s.whatsapp.net",
        from: "5511987654321@s.whatsapp.net",
        id: "CALL1",
        date: new Date(),
        isVideo: false,
        status: "offer",
        offline: false,
      },
      {
        chatId: "x",
        from: "12345678@lid",
        callerPn: "5511933332222@s.whatsapp.net",
        id: "CALL2",
        date: new Date(),
        isVideo: true,
        status: "offer",
        offline: false,
      },
      { chatId: "x", from: "5511987654321@s.whatsapp.net", id: "CALL1", date: new Date(), status: "ringing", offline: false },
    ]);
    last().ev.emit("contacts.upsert", [{ id: "5511987654321@s.whatsapp.net", notify: "Maria" }]);
    await poll(() => events.length).toBe(3);
    expect(events.map((e) => e.event)).toEqual([
      { type: "call", callId: "CALL1", from: { id: "5511987654321", kind: "phone" }, isVideo: false, status: "offer" },
      {
        type: "call",
        callId: "CALL2",
        from: { id: "12345678", kind: "wa_lid", alternates: [{ kind: "phone", id: "5511933332222" }] },
        isVideo: true,
        status: "offer",
      },
      { type: "contacts", contacts: [{ address: { id: "5511987654321", kind: "phone" }, name: "Maria" }] },
    ]);
  });
});

describe("outbound through the session", () => {
  it("maps each content kind to Baileys' content, quotes, deletes, reads, checks numbers, rejects calls", async () => {
    const c = await connected();
    const session = t.ctx.channels.session(tenant.company.id, c.id);
    const to = { id: "5511987654321", kind: "phone" as const };
    const s = last();
    const text = await session.send({ to, content: { kind: "text", body: "Olá" } });
    expect(text.providerMessageId).toMatch(/^3EB0SCRIPTED/);
    await session.send({ to, content: { kind: "text", body: "citando" }, quotedProviderMessageId: text.providerMessageId });
    await session.send({
      to: { id: "12345678", kind: "wa_lid" },
      content: { kind: "image", data: Buffer.from("img"), mimeType: "image/png", fileName: "a.png", caption: "c" },
    });
    await session.send({ to, content: { kind: "document", data: Buffer.from("%PDF"), mimeType: "application/pdf", fileName: "a.pdf" } });
    const mp3 = await toneMp3(2.5);
    await session.send({ to, content: { kind: "audio", data: mp3, mimeType: "audio/mpeg", fileName: "v.mp3", voice: true } });
    const ogg = (s.sent.at(-1)!.content as { audio: Buffer }).audio;
    await session.send({ to, content: { kind: "audio", data: ogg, mimeType: "audio/ogg", fileName: "v.ogg", voice: true } });
    await session.send({ to, content: { kind: "location", latitude: -23.5, longitude: -46.6, name: "Loja" } });
    await session.send({ to, content: { kind: "vcard", displayName: "João", vcard: "BEGIN:VCARD\nEND:VCARD" } });
    expect(s.sent.map((x) => [x.jid, Object.keys(x.content).sort().join(",")])).toEqual([
      ["5511987654321@s.whatsapp.net", "text"],
      ["5511987654321@s.whatsapp.net", "text"],
      ["12345678@lid", "caption,image,mimetype"],
      ["5511987654321@s.whatsapp.net", "document,fileName,mimetype"],
      ["5511987654321@s.whatsapp.net", "audio,mimetype,ptt,seconds"],
      ["5511987654321@s.whatsapp.net", "audio,mimetype,ptt,seconds"],
      ["5511987654321@s.whatsapp.net", "location"],
      ["5511987654321@s.whatsapp.net", "contacts"],
    ]);
    expect((s.sent[1]!.options!.quoted as { key: { id: string } }).key.id).toBe(text.providerMessageId);
    // No ffmpeg here (FFMPEG_PATH points nowhere): the MP3 voice note is converted in wasm to OGG/Opus mono…
    expect(s.sent[4]!.content).toMatchObject({ ptt: true, mimetype: "audio/ogg; codecs=opus", seconds: 3 });
    expect(readOggOpusInfo(ogg)).toMatchObject({ channels: 1 });
    expect(readOggOpusInfo(ogg)!.seconds).toBeGreaterThan(2.5);
    // …and OGG/Opus goes through as is.
    expect(s.sent[5]!.content).toEqual({ audio: ogg, mimetype: "audio/ogg; codecs=opus", ptt: true, seconds: 3 });
    // Not audio (or corrupt): the send fails (→ ERR_SENDING_WAPP_MSG) instead of a fake or broken PTT.
    const sentBefore = s.sent.length;
    await expect(
      session.send({ to, content: { kind: "audio", data: Buffer.from("ID3mp3"), mimeType: "audio/mpeg", fileName: "v.mp3", voice: true } }),
    ).rejects.toMatchObject({
      code: "SEND_FAILED",
      message: expect.stringContaining("not a recognised audio file"),
    });
    expect(s.sent.length).toBe(sentBefore);
    expect(s.sent[6]!.content).toEqual({ location: { degreesLatitude: -23.5, degreesLongitude: -46.6, name: "Loja", address: undefined } });

    await session.deleteMessage(to, text.providerMessageId);
    expect(s.sent.at(-1)!.content).toEqual({ delete: { remoteJid: "5511987654321@s.whatsapp.net", fromMe: true, id: text.providerMessageId } });
    await session.markRead(to, ["IN1", "IN2"]);
    expect(s.read).toEqual([
      { remoteJid: "5511987654321@s.whatsapp.net", id: "IN1", fromMe: false },
      { remoteJid: "5511987654321@s.whatsapp.net", id: "IN2", fromMe: false },
    ]);
    expect(await session.checkNumber("5511987654321")).toBe("551187654321");
    expect(await session.checkNumber("5511900000000")).toBeNull();
    await session.rejectCall("CALL1", to);
    expect(s.rejected).toEqual([["CALL1", "5511987654321@s.whatsapp.net"]]);

    s.close(428);
    await poll(async () => (await rowOf(c.id)).status).toBe("OPENING");
    await expect(session.send({ to, content: { kind: "text", body: "x" } })).rejects.toMatchObject({ code: "NOT_CONNECTED" });
  });
});

describe("DB auth state", () => {
  it("round-trips creds and per-key rows with Buffers; null deletes; app-state-sync-key is revived", async () => {
    const c = await newConnection();
    const lib = (await import("baileys")) as unknown as BaileysLib;
    const db = t.ctx.database.db;
    const first = await useDbAuthState(db, lib, tenant.company.id, c.id);
    expect(first.paired()).toBe(false);
    await first.saveCreds();
    await first.state.keys.set({
      "pre-key": {
        "1": { public: Buffer.from([1, 2, 3]), private: Buffer.from([4, 5, 6]) },
        "2": { public: Buffer.from([7]), private: Buffer.from([8]) },
      },
      session: { "5511@s.whatsapp.net.0": Buffer.from("sess") },
      "app-state-sync-key": { AAA: { keyData: Buffer.from("kd"), timestamp: 1 } },
      "lid-mapping": { "5511": "12345678" },
    });
    await first.state.keys.set({ "pre-key": { "2": null } });
    const again = await useDbAuthState(db, lib, tenant.company.id, c.id);
    expect(Buffer.from(again.state.creds.noiseKey.public).equals(Buffer.from(first.state.creds.noiseKey.public))).toBe(true);
    const preKeys = await again.state.keys.get("pre-key", ["1", "2"]);
    expect(Object.keys(preKeys)).toEqual(["1"]);
    expect(Buffer.isBuffer(preKeys["1"]!.public) && preKeys["1"]!.public.equals(Buffer.from([1, 2, 3]))).toBe(true);
    const sync = await again.state.keys.get("app-state-sync-key", ["AAA"]);
    expect(sync.AAA).toBeInstanceOf(lib.proto.Message.AppStateSyncKeyData);
    expect(await again.state.keys.get("lid-mapping", ["5511"])).toEqual({ "5511": "12345678" });
    const rows = await db
      .select({ type: connectionAuthKeys.type })
      .from(connectionAuthKeys)
      .where(and(eq(connectionAuthKeys.connectionId, c.id)));
    expect(rows.map((r) => r.type).sort()).toEqual(["app-state-sync-key", "lid-mapping", "pre-key", "session"]);
  });
});

describe("health center (issue 21)", () => {
  const health = async (session: Session, id: number) => call(session, "GET", `/whatsapp/${id}/health`);

  it("a socket that cannot reach WhatsApp is 'unreachable': TIMEOUT, retried with backoff (retries counted), on the timeline and as last error", async () => {
    const c = await newConnection();
    last().update({ connection: "connecting" });
    last().unreachable();
    await poll(async () => (await rowOf(c.id)).retries).toBe(1);
    // Not DISCONNECTED: the backoff opens a new socket (before any pairing too).
    await expect.poll(() => sockets.length, { timeout: 2000 }).toBe(2);
    last().unreachable();
    await poll(async () => (await rowOf(c.id)).retries).toBe(2);
    await expect.poll(() => sockets.length, { timeout: 2000 }).toBe(3);
    expect((await rowOf(c.id)).status).not.toBe("DISCONNECTED");

    const res = await health(tenant.adminSession, c.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as ConnectionHealthDTO;
    const unreachable = body.timeline.filter((e) => e.reason === "unreachable");
    expect(unreachable.map((e) => [e.status, e.retries])).toEqual([
      ["TIMEOUT", 2],
      ["TIMEOUT", 1],
    ]);
    expect(unreachable[0]!.detail).toContain("ENOTFOUND");
    expect(body.lastError).toMatchObject({ reason: "unreachable", detail: expect.stringContaining("ENOTFOUND") });
    expect(body.needsScan).toBe(false);

    // It comes back: CONNECTED, retries reset, and the timeline ends with it.
    last().open();
    await poll(async () => rowOf(c.id)).toMatchObject({ status: "CONNECTED", retries: 0 });
    const after = (await health(tenant.adminSession, c.id)).json() as ConnectionHealthDTO;
    expect(after).toMatchObject({ status: "CONNECTED", needsScan: false, lastError: { reason: "unreachable" } });
    expect(after.timeline[0]).toMatchObject({ status: "CONNECTED", kind: "status" });
  });

  it("logged out → DISCONNECTED 'loggedOut' with needsScan; replaced → no scan needed; admins only, company-scoped", async () => {
    const c = await connected();
    last().close(401);
    await poll(async () => (await rowOf(c.id)).status).toBe("DISCONNECTED");
    const body = (await health(tenant.adminSession, c.id)).json() as ConnectionHealthDTO;
    expect(body).toMatchObject({ status: "DISCONNECTED", reason: "loggedOut", needsScan: true, lastError: { reason: "loggedOut" } });
    expect(body.timeline.map((e) => e.status).slice(0, 2)).toEqual(["DISCONNECTED", "CONNECTED"]);

    const d = await connected();
    last().close(440);
    await poll(async () => (await rowOf(d.id)).status).toBe("DISCONNECTED");
    expect((await health(tenant.adminSession, d.id)).json()).toMatchObject({ reason: "replaced", needsScan: false });

    expect((await health(tenant.userSession, c.id)).statusCode).toBe(403);
    const other = await buildTenant(t.app);
    const foreign = await health(other.adminSession, c.id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain("loggedOut");
  });

  it("counts messages in and out of the connection over 24 h and 7 days", async () => {
    const c = await connected();
    last().ev.emit("messages.upsert", {
      type: "notify",
      messages: [1, 2].map((n) => ({
        key: { remoteJid: "5511987650000@s.whatsapp.net", fromMe: false, id: `HEALTH-IN-${c.id}-${n}` },
        message: { conversation: `oi ${n}` },
        messageTimestamp: Math.floor(Date.now() / 1000),
      })),
    });
    await poll(async () => ((await health(tenant.adminSession, c.id)).json() as ConnectionHealthDTO).messages).toEqual({
      last24h: { in: 2, out: 0 },
      last7d: { in: 2, out: 0 },
    });
  });

  it("alerts the company's admins (socket, through the job runner) when a connection stays out of CONNECTED past the setting; not when it comes back", async () => {
    const pool = t.ctx.database.pool!;
    const jobsOf = async (id: number) =>
      (
        await pool.query<{ state: string; start_after: Date }>(
          "select state, start_after from pgboss.job where name = 'connections.healthAlert' and singleton_key = $1 order by created_on",
          [`connection-alert:${id}`],
        )
      ).rows;
    expect((await call(tenant.adminSession, "PUT", "/settings/connectionAlertMinutes", { value: "2" })).statusCode).toBe(200);
    expect((await call(tenant.adminSession, "PUT", "/settings/connectionAlertMinutes", { value: "7" })).statusCode).toBe(400);
    const admin = await connectSocket(t.app, tenant.adminSession.token);
    const attendant = await connectSocket(t.app, tenant.userSession.token);
    const other = await buildTenant(t.app);
    const outsider = await connectSocket(t.app, other.adminSession.token);
    const attendantAlerts = collectEvents(attendant, "whatsappHealthAlert");
    const outsiderAlerts = collectEvents(outsider, "whatsappHealthAlert");
    try {
      // Comes back before the delay: the waiting job is cancelled.
      const back = await connected();
      const socketsBefore = sockets.length;
      last().close(428);
      await poll(async () => (await jobsOf(back.id)).map((j) => j.state)).toEqual(["created"]);
      // Open the socket of the reconnection, not the closed one: a reconnection that opens its socket after
      // this point would leave CONNECTED again and queue a second alert.
      await poll(() => sockets.length).toBe(socketsBefore + 1);
      last().open();
      await poll(async () => (await jobsOf(back.id)).map((j) => j.state)).toEqual(["cancelled"]);

      const c = await connected();
      last().close(428);
      await poll(async () => (await jobsOf(c.id)).map((j) => j.state)).toEqual(["created"]);
      const [job] = await jobsOf(c.id);
      const left = ((await health(tenant.adminSession, c.id)).json() as ConnectionHealthDTO).timeline.find((e) => e.status !== "CONNECTED")!;
      // Due the configured 2 minutes after the connection left CONNECTED (the job runner measures the delay).
      expect(job!.start_after.getTime() - new Date(left.at).getTime()).toBe(120_000);
      // Time passes: the job becomes due.
      const alert = nextEventWhere<ConnectionHealthAlertDTO>(admin, "whatsappHealthAlert", (p) => p.connectionId === c.id, 15_000);
      await pool.query("update pgboss.job set start_after = now() where name = 'connections.healthAlert' and singleton_key = $1", [
        `connection-alert:${c.id}`,
      ]);
      expect(await alert).toMatchObject({
        connectionId: c.id,
        name: c.name,
        status: "OPENING",
        reason: "connectionClosed",
        minutes: 2,
        needsScan: false,
      });
      const timeline = ((await health(tenant.adminSession, c.id)).json() as ConnectionHealthDTO).timeline;
      expect(timeline.filter((e) => e.kind === "alert")).toHaveLength(1);
      await t.ctx.events.drain();
      expect(attendantAlerts).toEqual([]);
      expect(outsiderAlerts).toEqual([]);
    } finally {
      admin.disconnect();
      attendant.disconnect();
      outsider.disconnect();
    }
  });

  it("pairing by phone code: the code replaces the QR (status PAIRING) until the phone pairs; refused once connected", async () => {
    const c = await newConnection();
    last().update({ qr: "2@first" });
    await poll(async () => (await rowOf(c.id)).status).toBe("qrcode");
    expect((await call(tenant.userSession, "POST", `/whatsappsession/${c.id}/pairing-code`, { phoneNumber: "5511911112222" })).statusCode).toBe(403);
    expect((await call(tenant.adminSession, "POST", `/whatsappsession/${c.id}/pairing-code`, { phoneNumber: "12" })).statusCode).toBe(400);
    const res = await call(tenant.adminSession, "POST", `/whatsappsession/${c.id}/pairing-code`, { phoneNumber: "+55 (11) 91111-2222" });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as PairingCodeDTO;
    expect(body.code).toBe("K7QW9XZ2");
    expect(new Date(body.expiresAt).getTime()).toBeGreaterThan(Date.now());
    expect(last().pairingPhone).toBe("5511911112222");
    await poll(async () => rowOf(c.id)).toMatchObject({ status: "PAIRING", qrcode: "K7QW9XZ2" });
    // Baileys keeps refreshing the QR meanwhile: the code stays on screen.
    last().update({ qr: "2@second" });
    last().open();
    await poll(async () => rowOf(c.id)).toMatchObject({ status: "CONNECTED", qrcode: "" });
    const again = await call(tenant.adminSession, "POST", `/whatsappsession/${c.id}/pairing-code`, { phoneNumber: "5511911112222" });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe("ERR_WAPP_NOT_PAIRING");
  });

  it("a pairing code nobody typed expires: DISCONNECTED 'pairingCodeExpired', scan again", async () => {
    const c = await newConnection();
    last().update({ qr: "2@first" });
    await poll(async () => (await rowOf(c.id)).status).toBe("qrcode");
    expect((await call(tenant.adminSession, "POST", `/whatsappsession/${c.id}/pairing-code`, { phoneNumber: "5511911112222" })).statusCode).toBe(200);
    last().update({
      connection: "close",
      lastDisconnect: { error: Object.assign(boom(408), { message: "QR refs attempts ended" }), date: new Date() },
    });
    await poll(async () => (await rowOf(c.id)).status).toBe("DISCONNECTED");
    expect((await health(tenant.adminSession, c.id)).json()).toMatchObject({ reason: "pairingCodeExpired", needsScan: true });
  });
});

describe("mapBaileysClose", () => {
  it("maps close codes and socket errors to reasons and actions", () => {
    const err = (code: number, message = "x", data?: object) => Object.assign(new Error(message), { output: { statusCode: code }, data });
    expect(mapBaileysClose(err(408, "WebSocket Error (connect ECONNREFUSED 1.2.3.4:443)"), false)).toMatchObject({
      reason: "unreachable",
      action: "retry",
    });
    expect(mapBaileysClose(err(500, "WebSocket Error (Opening handshake has timed out)"), true)).toMatchObject({
      reason: "unreachable",
      action: "retry",
    });
    expect(mapBaileysClose(err(408, "QR refs attempts ended"), false)).toMatchObject({ reason: "qrTimeout", action: "stop" });
    expect(mapBaileysClose(err(408, "Connection was lost"), true)).toMatchObject({ reason: "connectionLost", action: "retry", status: "TIMEOUT" });
    expect(mapBaileysClose(err(500, "Bad MAC"), true)).toMatchObject({ reason: "badSession", action: "stop", wipe: "signal" });
    expect(mapBaileysClose(err(401), true)).toMatchObject({ reason: "loggedOut", action: "stop", wipe: "all" });
    expect(mapBaileysClose(err(515), true)).toMatchObject({ reason: "restartRequired", action: "restart" });
    expect(mapBaileysClose(err(499, "odd"), true)).toMatchObject({ reason: "unknown", action: "retry", detail: "odd" });
  });

  it("time connected is summed from the status changes inside the window", () => {
    const at = (ms: number, status: string, kind = "status") => ({ kind, status, createdAt: new Date(ms) });
    const rows = [
      at(0, "CONNECTED"),
      at(100, "TIMEOUT"),
      at(150, "CONNECTED"),
      at(170, "TIMEOUT", "alert"),
      at(300, "DISCONNECTED"),
      at(400, "CONNECTED"),
    ];
    expect(connectedMs(rows, 50, 1000)).toBe(50 + 150 + 600);
    expect(connectedMs([at(0, "CONNECTED")], 500, 1000)).toBe(500);
    expect(connectedMs([], 0, 1000)).toBe(0);
  });
});
