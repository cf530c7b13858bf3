/**
 * Cloud API connections through HTTP against the fake Graph API: settings (secrets write-only), the
 * webhook (verification, signature, duplicates, out-of-order statuses, failures, routing), sending each
 * type from the app, and tenant isolation.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectionDTO, MessageListResponse } from "@balcao/shared";
import { messages } from "../../db/schema";
import { buildTenant, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import type { FakeGraph } from "./fakeGraph";
import { connectCloudApi, deliverInto, fakeGraphEnv, startFakeGraph } from "./fakeGraphSetup";

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 50 });

let t: TestApp;
let fake: FakeGraph;
let a: Awaited<ReturnType<typeof buildTenant>>;
let b: Awaited<ReturnType<typeof buildTenant>>;
let conn: ConnectionDTO;
let connB: ConnectionDTO;

const A = { phoneNumberId: "1065550001", wabaId: "2025550001", accessToken: "EAAG-token-a", appSecret: "secret-a", verifyToken: "verify-token-a" };
const B = { phoneNumberId: "1065550002", wabaId: "2025550002", accessToken: "EAAG-token-b", appSecret: "secret-b", verifyToken: "verify-token-b" };
const CUSTOMER = "5511987654321";

const call = (session: Session | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session ? session.headers : {}, ...(payload ? { payload } : {}) });

const rowsOf = (providerMessageId: string) =>
  t.ctx.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.companyId, a.company.id), eq(messages.providerMessageId, providerMessageId)));

beforeAll(async () => {
  fake = await startFakeGraph({
    templates: [
      {
        name: "retomar",
        language: "pt_BR",
        status: "APPROVED",
        category: "UTILITY",
        components: [{ type: "BODY", text: "Olá {{1}}, podemos continuar?" }],
      },
    ],
  });
  t = await createTestApp(fakeGraphEnv(fake));
  fake.deliver = deliverInto(t.app);
  a = await buildTenant(t.app);
  b = await buildTenant(t.app);
  conn = await connectCloudApi(t.app, fake, a.adminSession.headers, { ...A, displayPhoneNumber: "+55 11 3000-0001" }, "Oficial");
  connB = await connectCloudApi(t.app, fake, b.adminSession.headers, { ...B, displayPhoneNumber: "+55 11 3000-0002" }, "Oficial B");
});

it("the connection checks its token against the Graph API and comes up CONNECTED", async () => {
  await poll(async () => (await call(a.adminSession, "GET", `/whatsapp/${conn.id}`)).json().status).toBe("CONNECTED");
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

describe("settings", () => {
  it("creating a cloud-api connection without its settings is refused with the catalogue error", async () => {
    const res = await call(a.adminSession, "POST", "/whatsapp", {
      name: "Incompleta",
      channel: "cloud-api",
      cloudApi: { phoneNumberId: "1065550009" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_CLOUD_API_SETTINGS_REQUIRED");
  });

  it("secrets are never returned; admins see the phone number id, the webhook path and the paired number", async () => {
    for (const res of [
      await call(a.adminSession, "GET", `/whatsapp/${conn.id}`),
      await call(a.adminSession, "GET", "/whatsapp"),
      await call(a.userSession, "GET", "/whatsapp"),
      await call(a.adminSession, "PUT", `/whatsapp/${conn.id}`, { name: "Oficial", cloudApi: { appSecret: A.appSecret } }),
    ]) {
      expect(res.statusCode).toBe(200);
      for (const secret of [A.accessToken, A.appSecret, A.verifyToken]) expect(res.body).not.toContain(secret);
    }
    const dto: ConnectionDTO = (await call(a.adminSession, "GET", `/whatsapp/${conn.id}`)).json();
    expect(dto).toMatchObject({
      channel: "cloud-api",
      number: "551130000001",
      cloudApi: { phoneNumberId: A.phoneNumberId, webhookPath: `/api/cloudapi/${conn.id}/webhook` },
    });
    const asUser = (await call(a.userSession, "GET", "/whatsapp")).json() as ConnectionDTO[];
    expect(asUser.find((c) => c.id === conn.id)!.cloudApi).toBeNull();
  });

  it("a phone number id already used by another connection is refused", async () => {
    const res = await call(b.adminSession, "POST", "/whatsapp", {
      name: "Copia",
      channel: "cloud-api",
      cloudApi: { ...B, phoneNumberId: A.phoneNumberId },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe("ERR_CLOUD_API_NUMBER_IN_USE");
  });

  it("another company cannot read or edit the connection", async () => {
    expect((await call(b.adminSession, "GET", `/whatsapp/${conn.id}`)).statusCode).toBe(404);
    expect((await call(b.adminSession, "PUT", `/whatsapp/${conn.id}`, { cloudApi: { verifyToken: "hijacked-token" } })).statusCode).toBe(404);
  });
});

describe("webhook verification and signature", () => {
  const url = () => `/api/cloudapi/${conn.id}/webhook`;

  it("answers hub.challenge with the connection's verify token only", async () => {
    const ok = await t.app.inject({ method: "GET", url: `${url()}?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=${A.verifyToken}` });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe("1158201444");
    const wrong = await t.app.inject({ method: "GET", url: `${url()}?hub.mode=subscribe&hub.challenge=1&hub.verify_token=${B.verifyToken}` });
    expect(wrong.statusCode).toBe(403);
    const other = await t.app.inject({
      method: "GET",
      url: `/api/cloudapi/${connB.id}/webhook?hub.mode=subscribe&hub.challenge=1&hub.verify_token=${A.verifyToken}`,
    });
    expect(other.statusCode).toBe(403);
  });

  it("a missing or wrong X-Hub-Signature-256 is 401 and stores nothing", async () => {
    const none = await fake.inbound(A.phoneNumberId, CUSTOMER, { type: "text", text: { body: "sem assinatura" } }, { signature: "none" });
    const wrong = await fake.inbound(A.phoneNumberId, CUSTOMER, { type: "text", text: { body: "assinatura errada" } }, { signature: "wrong" });
    expect(none.answers[0]!.status).toBe(401);
    expect(wrong.answers[0]!.status).toBe(401);
    // A correctly signed message sent after them is processed: the bad ones were not merely slower.
    const good = await fake.inbound(A.phoneNumberId, CUSTOMER, { type: "text", text: { body: "ok" } });
    expect(good.answers[0]!.status).toBe(200);
    await poll(async () => (await rowsOf(good.id)).length).toBe(1);
    expect(await rowsOf(none.id)).toHaveLength(0);
    expect(await rowsOf(wrong.id)).toHaveLength(0);
  });

  it("a body signed with another company's app secret is refused on this connection's URL", async () => {
    const envelope = fake.envelope(A.phoneNumberId, {
      messages: [{ from: CUSTOMER, id: "wamid.FORGED", timestamp: "1", type: "text", text: { body: "x" } }],
    });
    const body = JSON.stringify(envelope);
    const res = await t.app.inject({
      method: "POST",
      url: url(),
      payload: body,
      headers: { "content-type": "application/json", "x-hub-signature-256": fake.signature(B.appSecret, body) },
    });
    expect(res.statusCode).toBe(401);
  });

  it("a signed body that is not Meta's envelope is a 400 (checked against the shared schema after the signature)", async () => {
    const post = (body: string) =>
      t.app.inject({
        method: "POST",
        url: url(),
        payload: body,
        headers: { "content-type": "application/json", "x-hub-signature-256": fake.signature(A.appSecret, body) },
      });
    const wrongShape = await post(JSON.stringify({ object: "whatsapp_business_account", entry: "not a list" }));
    expect(wrongShape.statusCode).toBe(400);
    expect(wrongShape.json().error).toBe("ERR_VALIDATION");
    // Unsigned, the same body is refused for its signature first.
    const unsigned = await t.app.inject({ method: "POST", url: url(), payload: "{}", headers: { "content-type": "application/json" } });
    expect(unsigned.statusCode).toBe(401);
    // Fields Meta adds and Balcão does not read pass through.
    const extra = await post(JSON.stringify({ object: "whatsapp_business_account", entry: [], extra: { anything: 1 } }));
    expect(extra.statusCode).toBe(200);
  });

  it("company B's webhook naming company A's phone_number_id reaches nobody in A", async () => {
    const envelope = fake.envelope(A.phoneNumberId, {
      messages: [{ from: CUSTOMER, id: "wamid.CROSS", timestamp: "1", type: "text", text: { body: "x" } }],
    });
    const body = JSON.stringify(envelope);
    const res = await t.app.inject({
      method: "POST",
      url: `/api/cloudapi/${connB.id}/webhook`,
      payload: body,
      headers: { "content-type": "application/json", "x-hub-signature-256": fake.signature(B.appSecret, body) },
    });
    expect(res.statusCode).toBe(200);
    const marker = await fake.inbound(A.phoneNumberId, CUSTOMER, { type: "text", text: { body: "depois" } });
    await poll(async () => (await rowsOf(marker.id)).length).toBe(1);
    expect(await rowsOf("wamid.CROSS")).toHaveLength(0);
  });
});

describe("inbound and statuses", () => {
  it("a message delivered three times is one row; media is downloaded into the ticket", async () => {
    const { id, answers } = await fake.inbound(
      A.phoneNumberId,
      CUSTOMER,
      { type: "text", text: { body: "repetida" } },
      { times: 3, profileName: "Maria" },
    );
    expect(answers.map((x) => x.status)).toEqual([200, 200, 200]);
    await poll(async () => (await rowsOf(id)).length).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(await rowsOf(id)).toHaveLength(1);

    const mediaId = fake.addMedia(A.phoneNumberId, Buffer.from("%PDF-1.4 nota"), "application/pdf");
    const doc = await fake.inbound(A.phoneNumberId, CUSTOMER, {
      type: "document",
      document: { id: mediaId, mime_type: "application/pdf", filename: "nota.pdf", caption: "segue" },
    });
    await poll(async () => (await rowsOf(doc.id))[0]?.mediaPath ?? null).not.toBeNull();
    const [row] = await rowsOf(doc.id);
    expect(row).toMatchObject({ mediaType: "document", body: "segue", mimeType: "application/pdf" });
  });

  it("an attendant's reply goes out through the Graph API; statuses out of order never lower the ack; a failure shows the reason", async () => {
    const inbound = await fake.inbound(A.phoneNumberId, CUSTOMER, { type: "text", text: { body: "preciso de ajuda" } });
    await poll(async () => (await rowsOf(inbound.id)).length).toBe(1);
    const [row] = await rowsOf(inbound.id);
    expect((await call(a.adminSession, "PUT", `/tickets/${row!.ticketId}`, { status: "open", userId: a.admin.id })).statusCode).toBe(200);
    const sent = await call(a.adminSession, "POST", `/messages/${row!.ticketId}`, { body: "Olá! Como posso ajudar?" });
    expect(sent.statusCode, sent.body).toBeLessThan(300);
    await poll(() => fake.sent().filter((s) => (s.body.text as { body?: string } | undefined)?.body === "Olá! Como posso ajudar?").length).toBe(1);
    const wamid = fake.sent().at(-1)!.wamid;
    expect(fake.sent().at(-1)!.body).toMatchObject({ to: CUSTOMER, type: "text" });
    await poll(async () => (await rowsOf(wamid))[0]?.ack ?? -1).toBeGreaterThanOrEqual(1);

    await fake.status(A.phoneNumberId, wamid, "read");
    await fake.status(A.phoneNumberId, wamid, "delivered", { times: 2 });
    await fake.status(A.phoneNumberId, wamid, "sent");
    const marker = await fake.inbound(A.phoneNumberId, CUSTOMER, { type: "text", text: { body: "marcador" } });
    await poll(async () => (await rowsOf(marker.id)).length).toBe(1);
    expect((await rowsOf(wamid))[0]!.ack).toBe(3);

    const failing = await call(a.adminSession, "POST", `/messages/${row!.ticketId}`, { body: "esta vai falhar" });
    expect(failing.statusCode).toBeLessThan(300);
    await poll(() => fake.sent().at(-1)!.body.text).toEqual({ body: "esta vai falhar", preview_url: false });
    const failedId = fake.sent().at(-1)!.wamid;
    await fake.status(A.phoneNumberId, failedId, "failed", {
      errors: [{ code: 131026, title: "Message undeliverable", error_data: { details: "receiver incapable" } }],
    });
    await poll(async () => (await rowsOf(failedId))[0]?.status).toBe("failed");
    const list = await call(a.adminSession, "GET", `/messages/${row!.ticketId}`);
    const failedDto = (list.json().messages as { status: string; failureReason?: string }[]).find((m) => m.status === "failed");
    expect(failedDto?.failureReason).toBe("(#131026) Message undeliverable: receiver incapable");
  });
});

describe("the 24-hour customer-service window", () => {
  it("free text outside the window is refused before the Graph API is called; the synced templates are offered", async () => {
    const CUST = "5511911112222";
    const inbound = await fake.inbound(A.phoneNumberId, CUST, { type: "text", text: { body: "oi" } });
    await poll(async () => (await rowsOf(inbound.id)).length).toBe(1);
    const [row] = await rowsOf(inbound.id);
    expect((await call(a.adminSession, "PUT", `/tickets/${row!.ticketId}`, { status: "open", userId: a.admin.id })).statusCode).toBe(200);
    expect((await call(a.userSession, "GET", `/cloudapi/tickets/${row!.ticketId}/window`)).json()).toMatchObject({ applies: true, open: true });

    // 25 hours pass since the customer's last message.
    const old = new Date(Date.now() - 25 * 3600_000);
    await t.ctx.database.db
      .update(messages)
      .set({ createdAt: old })
      .where(and(eq(messages.companyId, a.company.id), eq(messages.contactId, row!.contactId!), eq(messages.fromMe, false)));
    const before = fake.sent().length;
    const refused = await call(a.adminSession, "POST", `/messages/${row!.ticketId}`, { body: "ainda aí?" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: "ERR_OUTSIDE_WHATSAPP_WINDOW" });
    expect(fake.sent()).toHaveLength(before);
    expect((await call(a.userSession, "GET", `/cloudapi/tickets/${row!.ticketId}/window`)).json()).toMatchObject({ applies: true, open: false });

    expect((await call(a.userSession, "POST", `/cloudapi/${conn.id}/templates/sync`)).statusCode).toBe(403);
    const synced = await call(a.adminSession, "POST", `/cloudapi/${conn.id}/templates/sync`);
    expect(synced.statusCode, synced.body).toBe(200);
    const listed = (await call(a.userSession, "GET", `/cloudapi/${conn.id}/templates`)).json();
    expect(listed.templates.map((x: { name: string }) => x.name)).toEqual(["retomar"]);
    expect((await call(b.adminSession, "GET", `/cloudapi/${conn.id}/templates`)).statusCode).toBe(404);

    // A wrong template or parameter count is refused; the approved one goes out with its parameters.
    const bad = await call(a.adminSession, "POST", `/cloudapi/tickets/${row!.ticketId}/template`, {
      name: "retomar",
      language: "pt_BR",
      bodyParams: [],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe("ERR_CLOUD_API_TEMPLATE_INVALID");
    const tpl = await call(a.adminSession, "POST", `/cloudapi/tickets/${row!.ticketId}/template`, {
      name: "retomar",
      language: "pt_BR",
      bodyParams: ["Maria"],
    });
    expect(tpl.statusCode, tpl.body).toBe(201);
    expect(tpl.json()[0]).toMatchObject({ body: "Olá Maria, podemos continuar?", fromMe: true, status: "sent" });
    expect(fake.sent().at(-1)!.body).toMatchObject({
      to: CUST,
      type: "template",
      template: { name: "retomar", language: { code: "pt_BR" }, components: [{ type: "body", parameters: [{ type: "text", text: "Maria" }] }] },
    });
    expect(
      (await call(b.adminSession, "POST", `/cloudapi/tickets/${row!.ticketId}/template`, { name: "retomar", language: "pt_BR", bodyParams: ["x"] }))
        .statusCode,
    ).toBe(404);

    // The customer writes again: the window reopens.
    const again = await fake.inbound(A.phoneNumberId, CUST, { type: "text", text: { body: "voltei" } });
    await poll(async () => (await rowsOf(again.id)).length).toBe(1);
    expect((await call(a.adminSession, "POST", `/messages/${row!.ticketId}`, { body: "que bom!" })).statusCode).toBeLessThan(300);
  });

  it("a 131047 the Graph API still answers marks the message failed instead of pretending it went", async () => {
    const CUST = "5511933334444";
    const inbound = await fake.inbound(A.phoneNumberId, CUST, { type: "text", text: { body: "oi" } });
    await poll(async () => (await rowsOf(inbound.id)).length).toBe(1);
    const [row] = await rowsOf(inbound.id);
    await call(a.adminSession, "PUT", `/tickets/${row!.ticketId}`, { status: "open", userId: a.admin.id });
    fake.setLastInbound(A.phoneNumberId, CUST, Date.now() - 25 * 3600_000);
    const res = await call(a.adminSession, "POST", `/messages/${row!.ticketId}`, { body: "fora da janela para a Meta" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_SENDING_WAPP_MSG");
    const failed = (await messagesOf(row!.ticketId)).find((m) => m.body === "fora da janela para a Meta");
    expect(failed?.status).toBe("failed");
    expect(failed?.failureReason).toBe(
      "(#131047) Re-engagement message: Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
    );
  });
});

/** A customer's ticket on A, open with the admin, whose last inbound message is 25 hours old. */
async function expiredTicket(customer: string): Promise<{ ticketId: number; contactId: number }> {
  const inbound = await fake.inbound(A.phoneNumberId, customer, { type: "text", text: { body: "oi" } });
  await poll(async () => (await rowsOf(inbound.id)).length).toBe(1);
  const [row] = await rowsOf(inbound.id);
  expect((await call(a.adminSession, "PUT", `/tickets/${row!.ticketId}`, { status: "open", userId: a.admin.id })).statusCode).toBe(200);
  await t.ctx.database.db
    .update(messages)
    .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
    .where(and(eq(messages.companyId, a.company.id), eq(messages.contactId, row!.contactId!), eq(messages.fromMe, false)));
  return { ticketId: row!.ticketId, contactId: row!.contactId! };
}

const messagesOf = async (ticketId: number) =>
  (await call(a.adminSession, "GET", `/messages/${ticketId}`)).json().messages as {
    id: number;
    body: string;
    status: string;
    failureReason?: string;
  }[];

describe("templates with header and button parameters, reactions", () => {
  beforeAll(async () => {
    fake.templates = [
      ...fake.templates,
      {
        name: "pedido_enviado",
        language: "pt_BR",
        status: "APPROVED",
        category: "UTILITY",
        components: [
          { type: "HEADER", format: "IMAGE" },
          { type: "BODY", text: "Pedido {{1}} enviado." },
          {
            type: "BUTTONS",
            buttons: [
              { type: "URL", text: "Rastrear", url: "https://loja.example/rastreio/{{1}}" },
              { type: "QUICK_REPLY", text: "Falar com atendente" },
            ],
          },
        ],
      },
    ];
    expect((await call(a.adminSession, "POST", `/cloudapi/${conn.id}/templates/sync`)).statusCode).toBe(200);
  });

  it("the list offers every synced template with its components", async () => {
    const listed = (await call(a.userSession, "GET", `/cloudapi/${conn.id}/templates`)).json();
    expect(listed.syncedAt).not.toBeNull();
    expect(listed.templates.map((x: { name: string }) => x.name)).toEqual(["retomar", "pedido_enviado"]);
    expect(listed.templates[1].components[0]).toEqual({ type: "HEADER", format: "IMAGE" });
  });

  it("a template's header and dynamic button go out as Graph components; a missing or foreign one is refused", async () => {
    const { ticketId } = await expiredTicket("5511955556666");
    const url = `/cloudapi/tickets/${ticketId}/template`;
    const base = { name: "pedido_enviado", language: "pt_BR", bodyParams: ["#123"] };
    const before = fake.sent().length;
    for (const body of [
      base,
      { ...base, header: { type: "image", link: "https://cdn.example/p.jpg" } },
      { ...base, header: { type: "text", text: "x" }, buttons: [{ index: 0, subType: "url", param: "123" }] },
      { ...base, header: { type: "image", link: "https://cdn.example/p.jpg" }, buttons: [{ index: 1, subType: "url", param: "123" }] },
    ]) {
      const res = await call(a.adminSession, "POST", url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe("ERR_CLOUD_API_TEMPLATE_INVALID");
    }
    expect(fake.sent()).toHaveLength(before);
    const ok = await call(a.adminSession, "POST", url, {
      ...base,
      header: { type: "image", link: "https://cdn.example/p.jpg" },
      buttons: [
        { index: 0, subType: "url", param: "123" },
        { index: 1, subType: "quick_reply", param: "ATENDENTE" },
      ],
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()[0]).toMatchObject({ body: "Pedido #123 enviado.", status: "sent" });
    expect(fake.sent().at(-1)!.body).toMatchObject({
      type: "template",
      template: {
        name: "pedido_enviado",
        components: [
          { type: "header", parameters: [{ type: "image", image: { link: "https://cdn.example/p.jpg" } }] },
          { type: "body", parameters: [{ type: "text", text: "#123" }] },
          { type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: "123" }] },
          { type: "button", sub_type: "quick_reply", index: "1", parameters: [{ type: "payload", payload: "ATENDENTE" }] },
        ],
      },
    });
  });

  it("a reaction goes out inside the window and is refused outside it", async () => {
    const CUST = "5511977778888";
    const inbound = await fake.inbound(A.phoneNumberId, CUST, { type: "text", text: { body: "chegou?" } });
    await poll(async () => (await rowsOf(inbound.id)).length).toBe(1);
    const [row] = await rowsOf(inbound.id);
    await call(a.adminSession, "PUT", `/tickets/${row!.ticketId}`, { status: "open", userId: a.admin.id });
    expect((await call(b.adminSession, "POST", `/cloudapi/messages/${row!.id}/reaction`, { emoji: "👍" })).statusCode).toBe(404);
    const res = await call(a.adminSession, "POST", `/cloudapi/messages/${row!.id}/reaction`, { emoji: "👍" });
    expect(res.statusCode, res.body).toBe(204);
    expect(fake.sent().at(-1)!.body).toMatchObject({ to: CUST, type: "reaction", reaction: { message_id: inbound.id, emoji: "👍" } });

    await t.ctx.database.db
      .update(messages)
      .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
      .where(and(eq(messages.companyId, a.company.id), eq(messages.contactId, row!.contactId!), eq(messages.fromMe, false)));
    const before = fake.sent().length;
    const refused = await call(a.adminSession, "POST", `/cloudapi/messages/${row!.id}/reaction`, { emoji: "" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe("ERR_OUTSIDE_WHATSAPP_WINDOW");
    expect(fake.sent()).toHaveLength(before);
  });

  it("issue 21: a customer's reaction webhook lands on its message, beside the company's own reaction; '' removes it", async () => {
    const CUST = "5511977776655";
    const inbound = await fake.inbound(A.phoneNumberId, CUST, { type: "text", text: { body: "gostou?" } });
    await poll(async () => (await rowsOf(inbound.id)).length).toBe(1);
    const [row] = await rowsOf(inbound.id);
    await call(a.adminSession, "PUT", `/tickets/${row!.ticketId}`, { status: "open", userId: a.admin.id });
    const reactionsOf = async () =>
      ((await call(a.adminSession, "GET", `/messages/${row!.ticketId}`)).json() as MessageListResponse).messages.find((m) => m.id === row!.id)
        ?.reactions;
    expect((await call(a.adminSession, "POST", `/cloudapi/messages/${row!.id}/reaction`, { emoji: "👍" })).statusCode).toBe(204);
    expect(await reactionsOf()).toEqual([{ emoji: "👍", count: 1, fromMe: true }]);
    await fake.inbound(A.phoneNumberId, CUST, { type: "reaction", reaction: { message_id: inbound.id, emoji: "👍" } });
    await poll(reactionsOf).toEqual([{ emoji: "👍", count: 2, fromMe: true }]);
    await fake.inbound(A.phoneNumberId, CUST, { type: "reaction", reaction: { message_id: inbound.id, emoji: "❤️" } });
    await poll(reactionsOf).toEqual([
      { emoji: "👍", count: 1, fromMe: true },
      { emoji: "❤️", count: 1, fromMe: false },
    ]);
    await fake.inbound(A.phoneNumberId, CUST, { type: "reaction", reaction: { message_id: inbound.id, emoji: "" } });
    await poll(reactionsOf).toEqual([{ emoji: "👍", count: 1, fromMe: true }]);
    // A reaction is not a message of the conversation.
    const fromCustomer = await t.ctx.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, row!.ticketId), eq(messages.fromMe, false)));
    expect(fromCustomer.map((m) => m.body)).toEqual(["gostou?"]);
  });
});

describe("window state access", () => {
  it("an attendant outside the ticket's queue cannot read its window", async () => {
    const queue = await call(a.adminSession, "POST", "/queue", { name: `Fila ${Date.now()}`, color: "#1565c0" });
    expect(queue.statusCode, queue.body).toBe(201);
    const { ticketId } = await expiredTicket("5511988889999");
    expect((await call(a.adminSession, "PUT", `/tickets/${ticketId}`, { queueId: queue.json().id })).statusCode).toBe(200);
    expect((await call(a.userSession, "GET", `/cloudapi/tickets/${ticketId}/window`)).statusCode).toBe(403);
    expect((await call(a.adminSession, "GET", `/cloudapi/tickets/${ticketId}/window`)).json()).toMatchObject({ applies: true, open: false });
    expect((await call(b.adminSession, "GET", `/cloudapi/tickets/${ticketId}/window`)).statusCode).toBe(404);
  });
});

describe("automatic messages outside the window", () => {
  it("the completion message on resolve is not sent as free text: it is stored failed with the window as the reason", async () => {
    const { ticketId } = await expiredTicket("5511922223333");
    expect((await call(a.adminSession, "PUT", `/whatsapp/${conn.id}`, { complationMessage: "Atendimento encerrado, obrigado!" })).statusCode).toBe(
      200,
    );
    const before = fake.sent().length;
    expect((await call(a.adminSession, "PUT", `/tickets/${ticketId}`, { status: "closed" })).statusCode).toBe(200);
    await poll(async () => (await messagesOf(ticketId)).find((m) => m.body === "Atendimento encerrado, obrigado!")?.status).toBe("failed");
    const failed = (await messagesOf(ticketId)).find((m) => m.body === "Atendimento encerrado, obrigado!")!;
    expect(failed.failureReason).toMatch(/^\(#131047\) Re-engagement message: more than 24 hours/);
    expect(fake.sent()).toHaveLength(before);
    await call(a.adminSession, "PUT", `/whatsapp/${conn.id}`, { complationMessage: "" });
  });

  it("a scheduled message outside the window ends ERRO with ERR_OUTSIDE_WHATSAPP_WINDOW and never reaches the Graph API", async () => {
    const { ticketId, contactId } = await expiredTicket("5511944445555");
    const before = fake.sent().length;
    const created = await call(a.adminSession, "POST", "/schedules", {
      body: "Lembrete da sua consulta",
      contactId,
      ticketId,
      sendAt: new Date(Date.now() + 1000).toISOString(),
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    await poll(async () => (await call(a.adminSession, "GET", `/schedules/${id}`)).json().status).toBe("ERRO");
    expect((await call(a.adminSession, "GET", `/schedules/${id}`)).json().lastError).toBe("ERR_OUTSIDE_WHATSAPP_WINDOW");
    expect((await messagesOf(ticketId)).find((m) => m.body === "Lembrete da sua consulta")?.failureReason).toMatch(/^\(#131047\)/);
    expect(fake.sent()).toHaveLength(before);
  });

  it("inside the window the same automatic message goes out", async () => {
    const inbound = await fake.inbound(A.phoneNumberId, "5511966667777", { type: "text", text: { body: "oi" } });
    await poll(async () => (await rowsOf(inbound.id)).length).toBe(1);
    const [row] = await rowsOf(inbound.id);
    await call(a.adminSession, "PUT", `/tickets/${row!.ticketId}`, { status: "open", userId: a.admin.id });
    await call(a.adminSession, "PUT", `/whatsapp/${conn.id}`, { complationMessage: "Até logo!" });
    expect((await call(a.adminSession, "PUT", `/tickets/${row!.ticketId}`, { status: "closed" })).statusCode).toBe(200);
    await poll(() => fake.sent().some((s) => (s.body.text as { body?: string } | undefined)?.body === "Até logo!")).toBe(true);
    await call(a.adminSession, "PUT", `/whatsapp/${conn.id}`, { complationMessage: "" });
  });
});
