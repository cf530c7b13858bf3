/**
 * Issue 21 through the simulator's HTTP API.
 * Item 2: the simulated phone sends view-once photos/videos and disappearing (ephemeral) messages; the company's
 * number receives what Baileys emits after unwrapping those wrappers, so they are stored and listed exactly like
 * the same content sent plainly.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectionDTO, MessageDTO, MessageListResponse, SimulatorMessageDTO } from "@balcao/shared";
import { messages } from "../../db/schema";
import type { ChannelEvent } from "../types";
import { buildTenant, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 25 });

let t: TestApp;
let a: Awaited<ReturnType<typeof buildTenant>>;
let conn: ConnectionDTO;
const events: ChannelEvent[] = [];

const call = (session: Session | null, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
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
    .where(and(eq(messages.companyId, a.company.id), eq(messages.connectionId, conn.id), eq(messages.providerMessageId, providerMessageId)));

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
