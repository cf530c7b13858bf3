/**
 * Issue 21 through the simulator's HTTP API.
 * Item 2: the simulated phone sends view-once photos/videos and disappearing (ephemeral) messages; the company's
 * number receives what Baileys emits after unwrapping those wrappers, so they are stored and listed exactly like
 * the same content sent plainly.
 * Item 4: customers who write while the linked number is down (connection lost, or taken over and DISCONNECTED)
 * get 202 `queued`; the messages reach the company as one late batch when it is CONNECTED again, each stored once
 * (a replayed batch stores nothing new); an unlinked number still refuses them.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectionDTO, MessageDTO, MessageListResponse, SimulatorMessageDTO, SimulatorPhoneDTO, SimulatorStateDTO } from "@balcao/shared";
import { messages } from "../../db/schema";
import type { ChannelEvent } from "../types";
import { buildTenant, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 25 });

let t: TestApp;
let a: Awaited<ReturnType<typeof buildTenant>>;
let conn: ConnectionDTO;
const events: ChannelEvent[] = [];

const call = (session: Session | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session ? session.headers : {}, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0" });
  a = await buildTenant(t.app);
  t.ctx.channels.onEvent(async (_ctx, event) => {
    events.push(event);
  });
  conn = (await call(a.adminSession, "POST", "/whatsapp", { name: "Simulador efêmero" })).json();
  expect((await call(a.adminSession, "POST", `/simulator/${conn.id}/scan`, { code: conn.qrcode })).statusCode).toBe(200);
});
afterAll(() => t.close());

const rowsOf = (providerMessageId: string) =>
  t.ctx.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.companyId, a.company.id), eq(messages.providerMessageId, providerMessageId)));

async function stored(providerMessageId: string) {
  await poll(async () => (await rowsOf(providerMessageId)).length).toBe(1);
  return (await rowsOf(providerMessageId))[0]!;
}

const inboundOf = (providerMessageId: string) =>
  events.find((e) => e.type === "message" && e.message.providerMessageId === providerMessageId) as Extract<ChannelEvent, { type: "message" }>;

/** What the conversation view gets for a stored message, without what differs between any two messages. */
async function listedShape(ticketId: number, id: number) {
  const res = await call(a.adminSession, "GET", `/messages/${ticketId}`);
  expect(res.statusCode, res.body).toBe(200);
  const listed = (res.json() as MessageListResponse).messages.find((m) => m.id === id)!;
  const { id: _id, createdAt: _c, updatedAt: _u, mediaUrl, body: _b, ...rest } = listed as MessageDTO & { updatedAt?: string };
  return { ...rest, hasMedia: !!mediaUrl };
}

describe("view-once and disappearing messages from the simulated phone (item 2)", () => {
  it("are emitted, stored and listed like the same content sent plainly; the phone's own log keeps the marks", async () => {
    const PHONE = "5511955552101";
    const url = `/simulator/${conn.id}/phones/${PHONE}/messages`;
    const send = async (body: object) => {
      const res = await call(a.userSession, "POST", url, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as SimulatorMessageDTO;
    };
    const plainImage = await send({ type: "image", caption: "foto normal", name: "Lia" });
    const onceImage = await send({ type: "image", caption: "foto única", viewOnce: true, ephemeral: 86_400 });
    const onceVideo = await send({ type: "video", caption: "vídeo único", viewOnce: true });
    const plainText = await send({ type: "text", body: "texto normal" });
    const ephemeralText = await send({ type: "text", body: "some em 7 dias", ephemeral: 604_800 });

    // The phone shows how it sent them.
    expect(onceImage).toMatchObject({ kind: "image", body: "foto única", viewOnce: true, ephemeral: 86_400 });
    expect(onceVideo).toMatchObject({ kind: "video", viewOnce: true });
    expect(ephemeralText).toMatchObject({ kind: "chat", ephemeral: 604_800 });
    expect(ephemeralText.viewOnce).toBeUndefined();
    expect(plainImage.viewOnce).toBeUndefined();
    const phones = (await call(a.userSession, "GET", `/simulator/${conn.id}/phones`)).json() as { number: string; messages: SimulatorMessageDTO[] }[];
    expect(phones.find((p) => p.number === PHONE)!.messages.find((m) => m.id === onceImage.id)).toMatchObject({ viewOnce: true, ephemeral: 86_400 });

    // The company's number receives the unwrapped message: the same event as the plain one (Baileys' shape).
    for (const [plain, wrapped] of [
      [plainImage, onceImage],
      [plainText, ephemeralText],
    ] as const) {
      await poll(() => !!inboundOf(wrapped.id)).toBe(true);
      const p = inboundOf(plain.id).message;
      const w = inboundOf(wrapped.id).message;
      expect(Object.keys(w).sort()).toEqual(Object.keys(p).sort());
      expect({ ...w, providerMessageId: "", body: "", timestamp: null }).toEqual({ ...p, providerMessageId: "", body: "", timestamp: null });
    }
    expect(inboundOf(onceVideo.id).message).toMatchObject({ kind: "video", body: "vídeo único", media: { mimeType: "video/mp4" } });

    // Stored and listed the same way: media kept, body is the caption or text, nothing distinct.
    const rows = await Promise.all([plainImage, onceImage, onceVideo, plainText, ephemeralText].map((m) => stored(m.id)));
    expect(rows.map((r) => [r.mediaType, r.body, !!r.mediaPath])).toEqual([
      ["image", "foto normal", true],
      ["image", "foto única", true],
      ["video", "vídeo único", true],
      ["chat", "texto normal", false],
      ["chat", "some em 7 dias", false],
    ]);
    const ticketId = rows[0]!.ticketId;
    expect(rows.every((r) => r.ticketId === ticketId)).toBe(true);
    expect(await listedShape(ticketId, rows[1]!.id)).toEqual(await listedShape(ticketId, rows[0]!.id));
    expect(await listedShape(ticketId, rows[4]!.id)).toEqual(await listedShape(ticketId, rows[3]!.id));
  });

  it("refuses a timer WhatsApp does not offer (400); view-once applies to photos and videos only", async () => {
    const url = `/simulator/${conn.id}/phones/5511955552102/messages`;
    const bad = await call(a.userSession, "POST", url, { type: "text", body: "1 hora", ephemeral: 3600 });
    expect(bad.statusCode).toBe(400);
    const doc = await call(a.userSession, "POST", url, { type: "document", caption: "contrato", viewOnce: true, ephemeral: 7_776_000 });
    expect(doc.statusCode, doc.body).toBe(201);
    const sent = doc.json() as SimulatorMessageDTO;
    expect(sent.viewOnce).toBeUndefined();
    expect(sent.ephemeral).toBe(7_776_000);
  });
});

describe("customer messages while the connection is down are held and delivered once on reconnect (item 4)", () => {
  const messageEvents = (id: string) => events.filter((e) => e.type === "message" && e.message.providerMessageId === id).length;
  const phoneOf = async (connectionId: number, number: string) =>
    ((await call(a.userSession, "GET", `/simulator/${connectionId}/phones`)).json() as SimulatorPhoneDTO[]).find((p) => p.number === number)!;

  it("lost → held (202 queued) → back: one late batch in the order written; a replayed batch stores nothing new", async () => {
    const PHONE = "5511955552201";
    const url = `/simulator/${conn.id}/phones/${PHONE}/messages`;
    const before = await call(a.userSession, "POST", url, { type: "text", body: "antes da queda", name: "Teo" });
    expect(before.statusCode, before.body).toBe(201);
    await stored((before.json() as SimulatorMessageDTO).id);

    expect((await call(a.userSession, "POST", `/simulator/${conn.id}/connection`, { state: "lost" })).json()).toEqual({ status: "TIMEOUT" });
    const held: SimulatorMessageDTO[] = [];
    for (const body of [
      { type: "text", body: "durante a queda 1" },
      { type: "image", caption: "foto na queda" },
      { type: "text", body: "durante a queda 2", ephemeral: 86_400 },
    ]) {
      const res = await call(a.userSession, "POST", url, body);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json()).toMatchObject({ direction: "out", queued: true });
      held.push(res.json() as SimulatorMessageDTO);
    }
    // Nothing reached the company's number: no event, no row.
    for (const m of held) {
      expect(messageEvents(m.id)).toBe(0);
      expect(await rowsOf(m.id)).toHaveLength(0);
    }
    const state = (await call(a.userSession, "GET", `/simulator/${conn.id}`)).json() as SimulatorStateDTO;
    expect(state).toMatchObject({ connection: { status: "TIMEOUT" }, paired: true, queued: 3 });
    expect((await phoneOf(conn.id, PHONE)).messages.filter((m) => m.queued).map((m) => m.id)).toEqual(held.map((m) => m.id));
    // Reactions, edits and calls still need the connection.
    expect((await call(a.userSession, "POST", `${url}/${held[0]!.id}/edit`, { body: "x" })).statusCode).toBe(400);

    const back = await call(a.userSession, "POST", `/simulator/${conn.id}/connection`, { state: "back" });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toEqual({ status: "CONNECTED", delivered: 3 });
    const rows = await Promise.all(held.map((m) => stored(m.id)));
    expect(rows.map((r) => [r.body, r.mediaType, r.fromMe])).toEqual([
      ["durante a queda 1", "chat", false],
      ["foto na queda", "image", false],
      ["durante a queda 2", "chat", false],
    ]);
    // In the order written, in the conversation of the message before the drop.
    const [first] = await rowsOf((before.json() as SimulatorMessageDTO).id);
    expect(rows.every((r) => r.ticketId === first!.ticketId)).toBe(true);
    expect([...rows].sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime() || x.id - y.id).map((r) => r.body)).toEqual(
      rows.map((r) => r.body),
    );
    expect((await phoneOf(conn.id, PHONE)).messages.some((m) => m.queued)).toBe(false);
    expect(((await call(a.userSession, "GET", `/simulator/${conn.id}`)).json() as SimulatorStateDTO).queued).toBe(0);

    // WhatsApp hands the same batch over again after another reconnect: delivered, stored once.
    const count = async () =>
      (
        await t.ctx.database.db
          .select({ id: messages.id })
          .from(messages)
          .where(and(eq(messages.companyId, a.company.id), eq(messages.connectionId, conn.id)))
      ).length;
    const total = await count();
    await call(a.userSession, "POST", `/simulator/${conn.id}/connection`, { state: "lost" });
    const again = await call(a.userSession, "POST", `/simulator/${conn.id}/connection`, { state: "back", replay: true });
    expect(again.json()).toEqual({ status: "CONNECTED", delivered: 3 });
    // The listeners run in order: once ours saw the replay, the pipeline had handled it.
    for (const m of held) await poll(() => messageEvents(m.id)).toBe(2);
    for (const m of held) expect(await rowsOf(m.id)).toHaveLength(1);
    expect(await count()).toBe(total);
    // Connected again: a new message goes at once.
    expect((await call(a.userSession, "POST", url, { type: "text", body: "depois" })).statusCode).toBe(201);
  });

  it("DISCONNECTED by another session (pairing kept) → held; an admin starts it again → delivered; unlinked → refused", async () => {
    const own: ConnectionDTO = (await call(a.adminSession, "POST", "/whatsapp", { name: "Simulador substituído" })).json();
    expect((await call(a.adminSession, "POST", `/simulator/${own.id}/scan`, { code: own.qrcode })).statusCode).toBe(200);
    const PHONE = "5511955552301";
    const url = `/simulator/${own.id}/phones/${PHONE}/messages`;

    const replaced = await call(a.userSession, "POST", `/simulator/${own.id}/connection`, { state: "replaced" });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toEqual({ status: "DISCONNECTED" });
    const health = (await call(a.adminSession, "GET", `/whatsapp/${own.id}/health`)).json() as { status: string; reason: string | null };
    expect(health).toMatchObject({ status: "DISCONNECTED", reason: "replaced" });
    // No session runs now: nothing to bring "back" from here.
    expect((await call(a.userSession, "POST", `/simulator/${own.id}/connection`, { state: "back" })).statusCode).toBe(400);

    // A new phone can be added while it is down.
    const added = await call(a.userSession, "POST", `/simulator/${own.id}/phones`, { number: PHONE, name: "Ivo" });
    expect(added.statusCode, added.body).toBe(201);
    const res = await call(a.userSession, "POST", url, { type: "text", body: "alguém aí?" });
    expect(res.statusCode, res.body).toBe(202);
    const held = res.json() as SimulatorMessageDTO;
    expect(held).toMatchObject({ queued: true, body: "alguém aí?" });
    expect((await call(a.userSession, "GET", `/simulator/${own.id}`)).json() as SimulatorStateDTO).toMatchObject({
      connection: { status: "DISCONNECTED" },
      live: false,
      paired: true,
      queued: 1,
    });
    // Invalid numbers are refused as when connected; another company cannot write to it.
    expect((await call(a.userSession, "POST", `/simulator/${own.id}/phones/5511955550000/messages`, { type: "text", body: "x" })).statusCode).toBe(
      400,
    );
    const b = await buildTenant(t.app);
    expect((await call(b.adminSession, "POST", url, { type: "text", body: "x" })).statusCode).toBe(404);

    const start = await call(a.adminSession, "POST", `/whatsappsession/${own.id}`);
    expect(start.statusCode, start.body).toBe(200);
    const row = await stored(held.id);
    expect(row).toMatchObject({ body: "alguém aí?", fromMe: false });
    expect((await call(a.userSession, "GET", `/simulator/${own.id}`)).json() as SimulatorStateDTO).toMatchObject({
      connection: { status: "CONNECTED" },
      queued: 0,
    });

    // Logged out (the pairing wiped): the number has no linked device to hold anything for.
    expect((await call(a.adminSession, "DELETE", `/whatsappsession/${own.id}`)).statusCode).toBe(200);
    const refused = await call(a.userSession, "POST", url, { type: "text", body: "e agora?" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: "ERR_WAPP_NOT_INITIALIZED" });
    expect((await call(a.userSession, "POST", `/simulator/${own.id}/phones`, { number: "5511955552302" })).statusCode).toBe(400);
  });
});
