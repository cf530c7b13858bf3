import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectionDTO, SimulatorMessageDTO } from "@balcao/shared";
import type { ChannelEvent } from "../types";
import type { ChannelEventContext } from "../manager";
import { buildTenant, connectSocket, nextEvent, type Session } from "../../test/factories";
import { statementTextsOf } from "../../test/statementCount";
import { createTestApp, type TestApp } from "../../test/testApp";

/** Polls with room for a loaded CI machine (other listeners, e.g. the message pipeline, run first). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 20 });

let t: TestApp;
let a: Awaited<ReturnType<typeof buildTenant>>;
let b: Awaited<ReturnType<typeof buildTenant>>;
let conn: ConnectionDTO;
const received: { ctx: ChannelEventContext; event: ChannelEvent }[] = [];

const call = (session: Session | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session ? session.headers : {}, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  // Acks advance every 40 ms here, so the 1 → 2 → 3 progression is observable quickly.
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "40" });
  a = await buildTenant(t.app);
  b = await buildTenant(t.app);
  t.ctx.channels.onEvent(async (ctx, event) => {
    received.push({ ctx, event });
  });
  conn = (await call(a.adminSession, "POST", "/whatsapp", { name: "Simulador" })).json();
  await call(a.adminSession, "POST", `/simulator/${conn.id}/scan`, { code: conn.qrcode });
});
afterAll(() => t.close());

const PHONE = "5511987654321";
const inbound = async (body: object, session: Session = a.userSession) => {
  const before = received.length;
  const res = await call(session, "POST", `/simulator/${conn.id}/phones/${PHONE}/messages`, body);
  expect(res.statusCode, res.body).toBe(201);
  await poll(() => received.length).toBeGreaterThan(before);
  return { sent: res.json() as SimulatorMessageDTO, event: received[received.length - 1]! };
};

describe("customer traffic reaches the onEvent listeners (the inbound pipeline)", () => {
  it("text, with push name and a quoted message", async () => {
    const { sent, event } = await inbound({ type: "text", body: "Olá, preciso de ajuda", name: "Maria" });
    expect(event.ctx).toEqual({ companyId: a.company.id, connectionId: conn.id });
    expect(event.event).toMatchObject({
      type: "message",
      message: {
        providerMessageId: sent.id,
        fromMe: false,
        kind: "chat",
        body: "Olá, preciso de ajuda",
        chat: { id: PHONE, kind: "phone", pushName: "Maria" },
      },
    });
    const reply = await inbound({ type: "text", body: "respondendo", quotedId: sent.id });
    expect(reply.event.event).toMatchObject({ type: "message", message: { quotedProviderMessageId: sent.id } });
  });

  it.each([
    ["image", { type: "image", caption: "foto" }, "image/png", "foto"],
    ["video", { type: "video", caption: "vídeo" }, "video/mp4", "vídeo"],
    ["document", { type: "document", caption: "contrato" }, "application/pdf", "contrato"],
    ["audio", { type: "audio" }, "audio/ogg; codecs=opus", ""],
  ] as const)("%s with built-in sample bytes", async (kind, body, mimeType, text) => {
    const { event } = await inbound(body);
    expect(event.event).toMatchObject({ type: "message", message: { kind, body: text, media: { mimeType } } });
    const media = (event.event as Extract<ChannelEvent, { type: "message" }>).message.media!;
    expect(media.data.length).toBeGreaterThan(10);
    if (kind === "audio") expect(media.voice).toBe(true);
  });

  it("media with the customer's own bytes", async () => {
    const data = Buffer.from("%PDF-1.4 minha nota fiscal");
    const { event } = await inbound({ type: "document", data: data.toString("base64"), mimeType: "application/pdf", fileName: "nota.pdf" });
    const media = (event.event as Extract<ChannelEvent, { type: "message" }>).message.media!;
    expect(media).toMatchObject({ mimeType: "application/pdf", fileName: "nota.pdf" });
    expect(media.data.equals(data)).toBe(true);
  });

  it("location and vcard use the spec's body formats", async () => {
    const location = await inbound({ type: "location", latitude: -23.5505, longitude: -46.6333, description: "Praça da Sé" });
    const body = (location.event.event as Extract<ChannelEvent, { type: "message" }>).message.body;
    const [picture, link, description] = body.split("|");
    expect(picture).toMatch(/^data:image\/png;base64,/);
    expect(link).toBe("https://maps.google.com/maps?q=-23.5505%2C-46.6333&z=17&hl=pt-BR");
    expect(description).toBe("Praça da Sé");
    const vcard = await inbound({ type: "vcard", contactName: "João", contactNumber: "5521912345678" });
    expect(vcard.event.event).toMatchObject({
      type: "message",
      message: { kind: "vcard", body: expect.stringContaining("TEL;type=CELL;waid=5521912345678:+5521912345678") },
    });
  });

  it("a call offer and a customer's delete-for-everyone", async () => {
    const before = received.length;
    const placed = await call(a.userSession, "POST", `/simulator/${conn.id}/phones/${PHONE}/calls`, { isVideo: true });
    expect(placed.statusCode).toBe(201);
    await poll(() => received.length).toBeGreaterThan(before);
    expect(received.at(-1)!.event).toMatchObject({
      type: "call",
      status: "offer",
      isVideo: true,
      callId: placed.json().id,
      from: { id: PHONE, kind: "phone" },
    });

    const { sent } = await inbound({ type: "text", body: "ops, errei" });
    const del = await call(a.userSession, "DELETE", `/simulator/${conn.id}/phones/${PHONE}/messages/${sent.id}`);
    expect(del.statusCode).toBe(204);
    await poll(() => received.at(-1)!.event).toMatchObject({ type: "deleted", providerMessageId: sent.id, chat: { id: PHONE } });
    const again = await call(a.userSession, "DELETE", `/simulator/${conn.id}/phones/${PHONE}/messages/NOPE`);
    expect(again.statusCode).toBe(404);
  });

  it("rejects invalid payloads with 400 and never 500", async () => {
    for (const body of [
      { type: "sticker" },
      { type: "text" },
      { type: "location", latitude: 200, longitude: 0 },
      { type: "image", data: "***" },
      {},
    ]) {
      const res = await call(a.userSession, "POST", `/simulator/${conn.id}/phones/${PHONE}/messages`, body);
      expect(res.statusCode).toBe(400);
    }
    expect((await call(a.userSession, "POST", `/simulator/${conn.id}/phones/12ab/messages`, { type: "text", body: "x" })).statusCode).toBe(400);
  });
});

describe("the company's side: sends, acks, address book, number check", () => {
  it("a send gets a provider id, lands on the phone, and acks go 1 → 2 → 3", async () => {
    const session = t.ctx.channels.session(a.company.id, conn.id);
    const before = received.length;
    const { providerMessageId } = await session.send({ to: { id: PHONE, kind: "phone" }, content: { kind: "text", body: "Como posso ajudar?" } });
    expect(providerMessageId).toMatch(/^SIM-/);
    await expect
      .poll(
        () =>
          received
            .slice(before)
            .filter((r) => r.event.type === "ack")
            .map((r) => (r.event as { ack: number }).ack),
        { timeout: 3000 },
      )
      .toEqual([1, 2, 3]);
    const messages = (await call(a.userSession, "GET", `/simulator/${conn.id}/phones/${PHONE}/messages`)).json() as SimulatorMessageDTO[];
    expect(messages.find((m) => m.id === providerMessageId)).toMatchObject({ direction: "in", body: "Como posso ajudar?", ack: 3 });
    // The customer can also report "played" (4); a lower ack afterwards is ignored (monotonic).
    await call(a.userSession, "POST", `/simulator/${conn.id}/phones/${PHONE}/messages/${providerMessageId}/ack`, { ack: 4 });
    await call(a.userSession, "POST", `/simulator/${conn.id}/phones/${PHONE}/messages/${providerMessageId}/ack`, { ack: 2 });
    await poll(() =>
      received.filter((r) => r.event.type === "ack" && r.event.providerMessageId === providerMessageId).map((r) => (r.event as { ack: number }).ack),
    ).toEqual([1, 2, 3, 4]);
  });

  it("media sent by the company can be fetched from the phone; deleting marks it deleted", async () => {
    const session = t.ctx.channels.session(a.company.id, conn.id);
    const data = Buffer.from("GIF89a-fake-but-bytes");
    const { providerMessageId } = await session.send({
      to: { id: PHONE, kind: "phone" },
      content: { kind: "image", data, mimeType: "image/gif", fileName: "x.gif", caption: "veja" },
    });
    const media = await call(a.userSession, "GET", `/simulator/${conn.id}/phones/${PHONE}/messages/${providerMessageId}/media`);
    expect(media.statusCode).toBe(200);
    expect(media.headers["content-type"]).toBe("image/gif");
    expect(media.rawPayload.equals(data)).toBe(true);
    await session.deleteMessage({ id: PHONE, kind: "phone" }, providerMessageId);
    const messages = (await call(a.userSession, "GET", `/simulator/${conn.id}/phones/${PHONE}/messages`)).json() as SimulatorMessageDTO[];
    expect(messages.find((m) => m.id === providerMessageId)).toMatchObject({ deleted: true, hasMedia: true, body: "veja", mimeType: "image/gif" });
  });

  it("checkNumber: 10–15 digits and not ending in 0000; listContacts is the address book", async () => {
    const session = t.ctx.channels.session(a.company.id, conn.id);
    expect(await session.checkNumber("5511987654321")).toBe("5511987654321");
    expect(await session.checkNumber("+55 (11) 98765-4321")).toBe("5511987654321");
    expect(await session.checkNumber("5511912340000")).toBeNull();
    expect(await session.checkNumber("123456789")).toBeNull();
    await expect(session.send({ to: { id: "5511912340000", kind: "phone" }, content: { kind: "text", body: "x" } })).rejects.toMatchObject({
      code: "INVALID_NUMBER",
    });
    const added = await call(a.userSession, "POST", `/simulator/${conn.id}/phones`, { number: "5531999990001", name: "Carlos" });
    expect(added.statusCode).toBe(201);
    expect((await call(a.userSession, "POST", `/simulator/${conn.id}/phones`, { number: "5531999990000" })).json()).toEqual({
      error: "ERR_WAPP_INVALID_CONTACT",
    });
    const contacts = await session.listContacts();
    expect(contacts).toEqual(expect.arrayContaining([{ address: { id: "5531999990001", kind: "phone", pushName: "Carlos" }, name: "Carlos" }]));
  });

  it("pushes a `simulator` socket event when a phone receives something", async () => {
    const socket = await connectSocket(t.app, a.userSession.token);
    try {
      const event = nextEvent(socket, "simulator");
      await t.ctx.channels.session(a.company.id, conn.id).send({ to: { id: PHONE, kind: "phone" }, content: { kind: "text", body: "ping" } });
      expect(await event).toEqual({ action: "update", connectionId: conn.id, number: PHONE });
    } finally {
      socket.disconnect();
    }
  });
});

describe("access", () => {
  it("is refused to anonymous callers and to other companies (404 like a missing connection)", async () => {
    expect((await call(null, "GET", `/simulator/${conn.id}`)).statusCode).toBe(401);
    const foreign = await call(b.adminSession, "GET", `/simulator/${conn.id}`);
    const missing = await call(b.adminSession, "GET", `/simulator/2000000000`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(missing.body);
    expect((await call(b.adminSession, "POST", `/simulator/${conn.id}/phones/${PHONE}/messages`, { type: "text", body: "x" })).statusCode).toBe(404);
  });

  it("works through the secret link, which only admins can read", async () => {
    expect((await call(a.userSession, "GET", `/simulator/${conn.id}/link`)).statusCode).toBe(403);
    const link = (await call(a.adminSession, "GET", `/simulator/${conn.id}/link`)).json();
    expect(link.url).toBe(`/simulator/${conn.id}?key=${encodeURIComponent(link.key)}`);
    const state = await call(null, "GET", `/simulator/${conn.id}?key=${encodeURIComponent(link.key)}`);
    expect(state.statusCode).toBe(200);
    expect(state.json()).toMatchObject({ connection: { id: conn.id, status: "CONNECTED" }, live: true });
    const sent = await call(null, "POST", `/simulator/${conn.id}/phones/${PHONE}/messages?key=${encodeURIComponent(link.key)}`, {
      type: "text",
      body: "via link",
    });
    expect(sent.statusCode).toBe(201);
    expect((await call(null, "GET", `/simulator/${conn.id}?key=wrong`)).statusCode).toBe(404);
    // A key opens only its own connection.
    const other = (await call(a.adminSession, "POST", "/whatsapp", { name: "Outro simulador" })).json();
    expect((await call(null, "GET", `/simulator/${other.id}?key=${encodeURIComponent(link.key)}`)).statusCode).toBe(404);
  });

  it("a customer message to a session connected in this process reads no connection row; elsewhere the row is read (issue 20)", async () => {
    const readsConnection = (texts: string[]) => texts.filter((text) => /\bfrom "connections" where\b/.test(text)).length;
    const send = (id: number) => call(a.userSession, "POST", `/simulator/${id}/phones/${PHONE}/messages`, { type: "text", body: "contado" });
    await send(conn.id);
    let answer: Awaited<ReturnType<typeof send>> | undefined;
    const texts = await statementTextsOf(t, async () => (answer = await send(conn.id)));
    expect(answer!.statusCode, answer!.body).toBe(201);
    expect(readsConnection(texts)).toBe(0);
    // Not connected here: the row says whether it is the company's simulator connection, and the answer why not.
    const other = (await call(a.adminSession, "POST", "/whatsapp", { name: "Não conectado" })).json();
    const refused = await statementTextsOf(t, async () => (answer = await send(other.id)));
    expect(answer!.json()).toEqual({ error: "ERR_WAPP_NOT_INITIALIZED" });
    expect(readsConnection(refused)).toBe(1);
  });

  it("injecting into a connection that is not connected answers ERR_WAPP_NOT_INITIALIZED", async () => {
    const other = (await call(a.adminSession, "POST", "/whatsapp", { name: "Sem parear" })).json();
    const res = await call(a.userSession, "POST", `/simulator/${other.id}/phones/${PHONE}/messages`, { type: "text", body: "x" });
    expect(res.json()).toEqual({ error: "ERR_WAPP_NOT_INITIALIZED" });
  });

  it("is switched off with SIMULATOR_ENABLED=false", async () => {
    const off = await createTestApp({ SIMULATOR_ENABLED: "false" });
    try {
      const tenant = await buildTenant(off.app);
      const res = await off.app.inject({ method: "GET", url: "/api/simulator/connections", headers: tenant.adminSession.headers });
      expect(res.statusCode).toBe(404);
      const create = await off.app.inject({
        method: "POST",
        url: "/api/whatsapp",
        headers: tenant.adminSession.headers,
        payload: { name: "Sim", channel: "simulator" },
      });
      expect(create.json()).toEqual({ error: "ERR_CHANNEL_UNAVAILABLE", meta: { channel: "simulator" } });
    } finally {
      await off.close();
    }
  });
});
