/**
 * The send API (POST /api/messages/send) through HTTP against live simulator connections: token auth and
 * revocation, 400/401/409/429, contacts and tickets opened or reused, media, idempotency, tenant isolation.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatorProvider } from "../../channels/simulator/provider";
import { apiIdempotencyKeys, companies, connections, contacts, messages, tickets } from "../../db/schema";
import { buildContact, buildTenant, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

const RATE_LIMIT = 12;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0", SEND_API_RATE_LIMIT: String(RATE_LIMIT) });
});
afterAll(() => t.close());

const db = () => t.ctx.database.db;
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

const api = (s: Session, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: s.headers, ...(payload ? { payload } : {}) });

/** A company with a paired simulator connection and its token. */
async function desk() {
  const tenant = await buildTenant(t.app);
  const created = (
    await api(tenant.adminSession, "POST", "/whatsapp", { name: `Simulador ${Math.random().toString(36).slice(2, 8)}`, isDefault: true })
  ).json();
  const scanned = await api(tenant.adminSession, "POST", `/simulator/${created.id}/scan`, { code: created.qrcode });
  expect(scanned.statusCode, scanned.body).toBe(200);
  const shown = (await api(tenant.adminSession, "GET", `/whatsapp/${created.id}`)).json();
  expect(shown.status).toBe("CONNECTED");
  return { ...tenant, connectionId: created.id as number, token: shown.token as string };
}

const send = (token: string | null, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: "POST",
    url: "/api/messages/send",
    headers: { ...(token !== null && { authorization: `Bearer ${token}` }), ...headers },
    payload,
  });

function multipart(fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }) {
  const boundary = "----balcaoSendApiTest";
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file)
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
      file.data,
      Buffer.from("\r\n"),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

/** What the simulated phone received from the company. */
function phoneInbox(connectionId: number, number: string) {
  const provider = t.ctx.channels.provider<SimulatorProvider>("simulator")!;
  return (provider.phoneBook(connectionId).phones.get(number)?.messages ?? []).filter((m) => m.direction === "in");
}

const ticketsOf = (companyId: number) => db().select().from(tickets).where(eq(tickets.companyId, companyId)).orderBy(tickets.id);

describe("POST /api/messages/send", () => {
  it("sends text to a number without mask: creates the contact and a pending ticket, and the phone receives it", async () => {
    const d = await desk();
    const res = await send(d.token, { number: "5511987650001", body: "Seu pedido saiu para entrega" });
    expect(res.statusCode, res.body).toBe(200);
    const out = res.json();
    expect(out).toMatchObject({ mensagem: "Mensagem enviada", messages: [{ body: "Seu pedido saiu para entrega", fromMe: true, status: "sent" }] });
    expect(phoneInbox(d.connectionId, "5511987650001").map((m) => m.body)).toEqual(["Seu pedido saiu para entrega"]);
    const [contact] = await db().select().from(contacts).where(eq(contacts.id, out.contactId));
    expect(contact).toMatchObject({ companyId: d.company.id, number: "5511987650001", name: "5511987650001" });
    const [ticket] = await ticketsOf(d.company.id);
    expect(ticket).toMatchObject({ id: out.ticketId, contactId: out.contactId, connectionId: d.connectionId, status: "pending", userId: null });
    // Attendants see it like any conversation.
    const history = (await api(d.adminSession, "GET", `/messages/${out.ticketId}`)).json();
    expect(history.messages.map((m: { body: string }) => m.body)).toEqual(["Seu pedido saiu para entrega"]);
  });

  it("normalises the number like contacts and reuses the contact and its live ticket (9th digit, mask, accepted ticket)", async () => {
    const d = await desk();
    const existing = await buildContact(t.ctx, d.company.id, { name: "Maria Souza", number: "5511987650002" });
    const first = (await send(d.token, { number: "5511987650002", body: "Primeira" })).json();
    expect(first.contactId).toBe(existing.id);
    // The attendant accepts the conversation; the API's next message goes on the same, now open, ticket.
    const accepted = await api(d.adminSession, "PUT", `/tickets/${first.ticketId}`, { status: "open", userId: d.admin.id });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const masked = await send(d.token, { number: "+55 (11) 98765-0002", body: "Segunda" });
    expect(masked.statusCode, masked.body).toBe(200);
    expect(masked.json()).toMatchObject({ contactId: existing.id, ticketId: first.ticketId });
    const withoutNinth = await send(d.token, { number: "551187650002", body: "Terceira" });
    expect(withoutNinth.json()).toMatchObject({ contactId: existing.id, ticketId: first.ticketId });
    const [ticket] = await ticketsOf(d.company.id);
    expect(ticket).toMatchObject({ status: "open", userId: d.admin.id, lastMessage: "Terceira" });
    // Once closed, the next message opens a new attendance (a new ticket), like any new conversation.
    await api(d.adminSession, "PUT", `/tickets/${first.ticketId}`, { status: "closed" });
    const after = (await send(d.token, { number: "5511987650002", body: "Nova conversa" })).json();
    expect(after.ticketId).not.toBe(first.ticketId);
    expect((await ticketsOf(d.company.id)).map((x) => x.status)).toEqual(["closed", "pending"]);
  });

  it("sends media as multipart (number, body, medias)", async () => {
    const d = await desk();
    const form = multipart({ number: "5511987650003", body: "Segue o boleto" }, { name: "boleto.png", type: "image/png", data: PNG });
    const res = await t.app.inject({
      method: "POST",
      url: "/api/messages/send",
      headers: { authorization: `Bearer ${d.token}`, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().messages).toMatchObject([{ mediaType: "image", mediaName: "boleto.png", body: "Segue o boleto", status: "sent" }]);
    const [received] = phoneInbox(d.connectionId, "5511987650003");
    expect(received!.media?.data.equals(PNG)).toBe(true);
    expect(received!.body).toBe("Segue o boleto");
    // With an Idempotency-Key the same upload is answered from the first response, not sent twice.
    const keyed = { authorization: `Bearer ${d.token}`, "idempotency-key": "boleto-1", ...form.headers };
    const first = await t.app.inject({ method: "POST", url: "/api/messages/send", headers: keyed, payload: form.payload });
    const replay = await t.app.inject({ method: "POST", url: "/api/messages/send", headers: keyed, payload: form.payload });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json()).toEqual(first.json());
    expect(phoneInbox(d.connectionId, "5511987650003")).toHaveLength(2);
    // A multipart request without a number is refused before anything is stored.
    const noNumber = multipart({ body: "Sem número" });
    const refused = await t.app.inject({
      method: "POST",
      url: "/api/messages/send",
      headers: { authorization: `Bearer ${d.token}`, ...noNumber.headers },
      payload: noNumber.payload,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe("O número é obrigatório");
  });

  it("answers 400 for a missing or invalid number, or an empty message, and stores nothing", async () => {
    const d = await desk();
    const cases: [object, string][] = [
      [{ body: "Oi" }, "O número é obrigatório"],
      [{ number: "", body: "Oi" }, "O número é obrigatório"],
      [{ number: "abc", body: "Oi" }, "ERR_WAPP_INVALID_CONTACT"],
      [{ number: "123", body: "Oi" }, "ERR_WAPP_INVALID_CONTACT"],
      // The simulator says numbers ending in 0000 have no WhatsApp (checked through the token's connection).
      [{ number: "5511987650000", body: "Oi" }, "ERR_WAPP_INVALID_CONTACT"],
      [{ number: "5511987650004", body: "   " }, "ERR_CREATING_MESSAGE"],
    ];
    for (const [payload, error] of cases) {
      const res = await send(d.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe(error);
    }
    expect(await db().select().from(contacts).where(eq(contacts.companyId, d.company.id))).toEqual([]);
    expect(await ticketsOf(d.company.id)).toEqual([]);
  });

  it("answers 401 without a token, with an unknown one, with a user's JWT and with a regenerated-away one", async () => {
    const d = await desk();
    for (const token of [null, "", "nao-existe", d.adminSession.headers.authorization.replace(/^Bearer /, "")]) {
      const res = await send(token, { number: "5511987650005", body: "Oi" });
      expect(res.statusCode, String(token)).toBe(401);
      expect(res.json().error).toBe("ERR_INVALID_API_TOKEN");
    }
    // Only an admin regenerates; the old token stops working at once, the new one works.
    expect((await api(d.userSession, "POST", `/whatsapp/${d.connectionId}/token`)).statusCode).toBe(403);
    const regenerated = await api(d.adminSession, "POST", `/whatsapp/${d.connectionId}/token`);
    expect(regenerated.statusCode, regenerated.body).toBe(200);
    const fresh = regenerated.json().token as string;
    expect(fresh).toMatch(/^[\w-]{32}$/);
    expect(fresh).not.toBe(d.token);
    expect((await send(d.token, { number: "5511987650005", body: "Oi" })).statusCode).toBe(401);
    expect((await send(fresh, { number: "5511987650005", body: "Oi" })).statusCode).toBe(200);
    // Another company's admin cannot regenerate it.
    const other = await desk();
    expect((await api(other.adminSession, "POST", `/whatsapp/${d.connectionId}/token`)).statusCode).toBe(404);
    expect((await send(fresh, { number: "5511987650005", body: "Ainda vale" })).statusCode).toBe(200);
  });

  it("answers 409 with the status while the connection is not connected, and 402 once the subscription lapsed", async () => {
    const d = await desk();
    await db().update(connections).set({ status: "DISCONNECTED" }).where(eq(connections.id, d.connectionId));
    const res = await send(d.token, { number: "5511987650006", body: "Oi" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: "ERR_WAPP_NOT_CONNECTED", meta: { status: "DISCONNECTED" } });
    expect(await ticketsOf(d.company.id)).toEqual([]);

    const lapsed = await desk();
    await db().update(companies).set({ dueDate: "2020-01-01" }).where(eq(companies.id, lapsed.company.id));
    const refused = await send(lapsed.token, { number: "5511987650006", body: "Oi" });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error).toBe("ERR_SUBSCRIPTION_EXPIRED");
  });

  it("honours Idempotency-Key: the same key and token answer the first response without sending again", async () => {
    const d = await desk();
    const headers = { "idempotency-key": "pedido-123" };
    const first = await send(d.token, { number: "5511987650007", body: "Pedido confirmado" }, headers);
    expect(first.statusCode).toBe(200);
    const again = await send(d.token, { number: "5511987650007", body: "Pedido confirmado" }, headers);
    expect(again.statusCode).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json()).toEqual(first.json());
    expect(phoneInbox(d.connectionId, "5511987650007")).toHaveLength(1);
    expect(await db().select().from(messages).where(eq(messages.companyId, d.company.id))).toHaveLength(1);
    // Another key sends again.
    expect((await send(d.token, { number: "5511987650007", body: "Pedido confirmado" }, { "idempotency-key": "pedido-124" })).statusCode).toBe(200);
    expect(phoneInbox(d.connectionId, "5511987650007")).toHaveLength(2);
    // A final error is replayed too; a "try later" one (409) releases the key so the retry runs.
    const invalid = await send(d.token, { number: "123", body: "x" }, { "idempotency-key": "k-invalid" });
    expect((await send(d.token, { number: "5511987650007", body: "x" }, { "idempotency-key": "k-invalid" })).json()).toEqual(invalid.json());
    await db().update(connections).set({ status: "DISCONNECTED" }).where(eq(connections.id, d.connectionId));
    expect((await send(d.token, { number: "5511987650007", body: "Depois" }, { "idempotency-key": "k-later" })).statusCode).toBe(409);
    await db().update(connections).set({ status: "CONNECTED" }).where(eq(connections.id, d.connectionId));
    expect((await send(d.token, { number: "5511987650007", body: "Depois" }, { "idempotency-key": "k-later" })).statusCode).toBe(200);
    expect(phoneInbox(d.connectionId, "5511987650007").map((m) => m.body)).toEqual(["Pedido confirmado", "Pedido confirmado", "Depois"]);
    // A key older than 24 h is a new request.
    await db()
      .update(apiIdempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
      .where(and(eq(apiIdempotencyKeys.companyId, d.company.id), eq(apiIdempotencyKeys.key, "pedido-123")));
    const late = await send(d.token, { number: "5511987650007", body: "Pedido confirmado" }, headers);
    expect(late.headers["idempotent-replayed"]).toBeUndefined();
    expect(phoneInbox(d.connectionId, "5511987650007")).toHaveLength(4);
    // A malformed key is refused.
    expect((await send(d.token, { number: "5511987650007", body: "x" }, { "idempotency-key": "x".repeat(201) })).statusCode).toBe(400);
  });

  it("keeps companies apart: a token sends only as its own company, on its own connection, under its own keys", async () => {
    const a = await desk();
    const b = await desk();
    const bContact = await buildContact(t.ctx, b.company.id, { name: "Cliente de B", number: "5511987650008" });
    const headers = { "idempotency-key": "mesma-chave" };
    const res = (await send(a.token, { number: "5511987650008", body: "De A" }, headers)).json();
    expect(res.contactId).not.toBe(bContact.id);
    const [contactA] = await db().select().from(contacts).where(eq(contacts.id, res.contactId));
    expect(contactA!.companyId).toBe(a.company.id);
    expect(await ticketsOf(b.company.id)).toEqual([]);
    expect(phoneInbox(a.connectionId, "5511987650008")).toHaveLength(1);
    expect(phoneInbox(b.connectionId, "5511987650008")).toHaveLength(0);
    // B's admin cannot read A's conversation; B's token with the same key sends B's own message.
    expect((await api(b.adminSession, "GET", `/messages/${res.ticketId}`)).statusCode).toBe(404);
    const fromB = await send(b.token, { number: "5511987650008", body: "De B" }, headers);
    expect(fromB.headers["idempotent-replayed"]).toBeUndefined();
    expect(fromB.json().contactId).toBe(bContact.id);
    expect(phoneInbox(b.connectionId, "5511987650008").map((m) => m.body)).toEqual(["De B"]);
  });

  it(`rate-limits each token to ${RATE_LIMIT} calls a minute with 429 and Retry-After`, async () => {
    const d = await desk();
    const other = await desk();
    for (let i = 0; i < RATE_LIMIT; i++) expect((await send(d.token, { number: "123", body: "x" })).statusCode).toBe(400);
    const limited = await send(d.token, { number: "5511987650009", body: "Oi" });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe("ERR_TOO_MANY_ATTEMPTS");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(phoneInbox(d.connectionId, "5511987650009")).toHaveLength(0);
    // Other tokens keep their own budget.
    expect((await send(other.token, { number: "5511987650009", body: "Oi" })).statusCode).toBe(200);
  });
});
