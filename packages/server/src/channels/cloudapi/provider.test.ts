/** The Cloud API provider against the local fake Graph API: every send type, media, templates, errors. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ChannelError, type ChannelEvent } from "../types";
import type { FakeGraph } from "./fakeGraph";
import { fakeGraphProvider, startFakeGraph } from "./fakeGraphSetup";
import { GraphClient } from "./graph";
import { CloudApiSendError, type CloudApiAccount, type CloudApiProvider, type CloudApiSession } from "./provider";

const account: CloudApiAccount = {
  phoneNumberId: "1065550001",
  wabaId: "2025550001",
  accessToken: "EAAG-test-token",
  appSecret: "app-secret",
  verifyToken: "verify-me",
};
const CUSTOMER = "5511987654321";
const to = { id: CUSTOMER, kind: "phone" as const };

let fake: FakeGraph;
let provider: CloudApiProvider;
let session: CloudApiSession;
const events: ChannelEvent[] = [];
let current: CloudApiAccount | null = account;

beforeAll(async () => {
  fake = await startFakeGraph({
    accounts: [{ ...account, displayPhoneNumber: "+55 11 3000-0001" }],
    // Webhooks are not under test here.
    deliver: async () => ({ status: 200, body: "" }),
    templates: [
      {
        name: "boas_vindas",
        language: "pt_BR",
        status: "APPROVED",
        category: "UTILITY",
        components: [{ type: "BODY", text: "Olá {{1}}, seu pedido {{2}} saiu." }],
      },
      { name: "rascunho", language: "pt_BR", status: "PENDING", category: "MARKETING", components: [{ type: "BODY", text: "x" }] },
      { name: "lembrete", language: "en_US", status: "APPROVED", category: "UTILITY", components: [{ type: "BODY", text: "Reminder" }] },
    ],
  });
  provider = fakeGraphProvider(fake, async () => current);
  session = provider.createSession({ companyId: 1, connectionId: 1, emit: async (e) => void events.push(e) });
  await session.connect();
});
afterAll(() => fake.stop());
beforeEach(async () => {
  fake.reset();
  // Open the customer-service window: the customer wrote a moment ago.
  await fake.inbound(account.phoneNumberId, CUSTOMER, { type: "text", text: { body: "oi" } });
});

const lastSent = () => fake.sent().at(-1)!.body;

describe("connecting", () => {
  it("checks the token against the phone number and reports CONNECTED with the display number", () => {
    expect(events).toContainEqual({ type: "status", status: "CONNECTED", retries: 0, account: "551130000001" });
  });

  it("a bad token or missing settings end DISCONNECTED with the Graph reason", async () => {
    const got: ChannelEvent[] = [];
    current = { ...account, accessToken: "wrong" };
    await provider.createSession({ companyId: 1, connectionId: 2, emit: async (e) => void got.push(e) }).connect();
    expect(got.at(-1)).toMatchObject({ type: "status", status: "DISCONNECTED", reason: expect.stringContaining("#190") });
    current = null;
    await provider.createSession({ companyId: 1, connectionId: 2, emit: async (e) => void got.push(e) }).connect();
    expect(got.at(-1)).toMatchObject({ type: "status", status: "DISCONNECTED", reason: "cloud-api: not configured" });
    current = account;
  });
});

describe("sending every type", () => {
  it("text, with reply context", async () => {
    const first = await session.send({ to, content: { kind: "text", body: "Olá!" } });
    expect(first.providerMessageId).toMatch(/^wamid\.FAKE-/);
    expect(lastSent()).toMatchObject({ to: CUSTOMER, type: "text", text: { body: "Olá!", preview_url: false }, recipient_type: "individual" });
    await session.send({ to, content: { kind: "text", body: "respondendo" }, quotedProviderMessageId: first.providerMessageId });
    expect(lastSent()).toMatchObject({ context: { message_id: first.providerMessageId } });
  });

  it.each(["image", "video", "document"] as const)("%s: uploaded first, then sent by media id with caption", async (kind) => {
    const data = Buffer.from(`bytes of a ${kind}`);
    await session.send({
      to,
      content: { kind, data, mimeType: kind === "document" ? "application/pdf" : `${kind}/x-test`, fileName: "f.bin", caption: "legenda" },
    });
    const body = lastSent()[kind] as { id: string; caption: string; filename?: string };
    expect(body.caption).toBe("legenda");
    expect(fake.mediaBytes(body.id)!.data.equals(data)).toBe(true);
    if (kind === "document") expect(body.filename).toBe("f.bin");
    expect(fake.requests.filter((r) => r.path.endsWith("/media"))).toHaveLength(1);
  });

  // A voice note converted to OGG/Opus mono, uploaded as audio/ogg and sent with voice: true (the fake refuses a
  // caption or another mime type on it): the provider contract suite (cloudapi.contract.test.ts).

  it("a voice note that is not audio fails before anything is sent", async () => {
    const err = await session
      .send({ to, content: { kind: "audio", data: Buffer.from("not audio"), mimeType: "audio/mpeg", fileName: "x.mp3", voice: true } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChannelError);
    expect(fake.sent()).toHaveLength(0);
  });

  it("location and contacts", async () => {
    await session.send({ to, content: { kind: "location", latitude: -23.5, longitude: -46.6, name: "Loja", address: "Av. Paulista" } });
    expect(lastSent()).toMatchObject({ type: "location", location: { latitude: -23.5, longitude: -46.6, name: "Loja", address: "Av. Paulista" } });
    const vcard = "BEGIN:VCARD\nVERSION:3.0\nFN:Ana Souza\nTEL;type=CELL;waid=5511912345678:+55 11 91234-5678\nEND:VCARD";
    await session.send({ to, content: { kind: "vcard", displayName: "Ana", vcard } });
    expect(lastSent()).toMatchObject({
      type: "contacts",
      contacts: [{ name: { formatted_name: "Ana Souza" }, phones: [{ phone: "+55 11 91234-5678", wa_id: "5511912345678" }] }],
    });
  });

  it("reactions", async () => {
    const { providerMessageId } = await session.send({ to, content: { kind: "text", body: "x" } });
    await session.react(to, providerMessageId, "👍");
    expect(lastSent()).toMatchObject({ type: "reaction", reaction: { message_id: providerMessageId, emoji: "👍" } });
  });

  it("templates with parameters; a wrong parameter count is the Graph's 132000", async () => {
    const sent = await session.sendTemplate(to, { name: "boas_vindas", language: "pt_BR", bodyParams: ["Maria", "123"] });
    expect(sent.providerMessageId).toMatch(/^wamid/);
    expect(lastSent()).toMatchObject({
      type: "template",
      template: {
        name: "boas_vindas",
        language: { code: "pt_BR" },
        components: [
          {
            type: "body",
            parameters: [
              { type: "text", text: "Maria" },
              { type: "text", text: "123" },
            ],
          },
        ],
      },
    });
    const err = (await session
      .sendTemplate(to, { name: "boas_vindas", language: "pt_BR", bodyParams: ["Maria"] })
      .catch((e: unknown) => e)) as CloudApiSendError;
    expect(err).toBeInstanceOf(CloudApiSendError);
    expect(err.graph.code).toBe(132000);
  });

  it("outside the 24 h window free text fails with 131047; a template still goes", async () => {
    fake.setLastInbound(account.phoneNumberId, CUSTOMER, Date.now() - 25 * 3600_000);
    const err = (await session.send({ to, content: { kind: "text", body: "oi" } }).catch((e: unknown) => e)) as CloudApiSendError;
    expect(err.graph.code).toBe(131047);
    expect(err.graph.retryable).toBe(false);
    await expect(session.sendTemplate(to, { name: "lembrete", language: "en_US" })).resolves.toBeTruthy();
  });

  it("throughput errors are marked retryable, token errors need the admin", async () => {
    fake.failNext(130429);
    const e1 = (await session.send({ to, content: { kind: "text", body: "x" } }).catch((e: unknown) => e)) as CloudApiSendError;
    expect(e1.graph.retryable).toBe(true);
    fake.failNext(190, 401);
    const e2 = (await session.send({ to, content: { kind: "text", body: "x" } }).catch((e: unknown) => e)) as CloudApiSendError;
    expect(e2.graph.needsAdmin).toBe(true);
  });

  it("groups and deleting sent messages are not in the API", async () => {
    await expect(session.send({ to: { id: "1203@g.us", kind: "group" }, content: { kind: "text", body: "x" } })).rejects.toMatchObject({
      code: "UNSUPPORTED",
    });
    await expect(session.deleteMessage()).rejects.toMatchObject({ code: "UNSUPPORTED" });
  });
});

describe("read receipts, media download, templates", () => {
  it("mark as read sends the newest id; an unknown id is 131009", async () => {
    const { id } = await fake.inbound(account.phoneNumberId, CUSTOMER, { type: "text", text: { body: "de novo" } });
    await expect(session.markRead(to, ["wamid.older", id])).resolves.toBeUndefined();
    await expect(session.markRead(to, ["wamid.unknown"])).rejects.toMatchObject({ graph: { code: 131009 } });
  });

  it("downloads media by id, re-resolving the URL when it expired; checks the sha256", async () => {
    const data = Buffer.from("a photo");
    const mediaId = fake.addMedia(account.phoneNumberId, data, "image/jpeg");
    const graph = new GraphClient({ baseUrl: fake.baseUrl, version: fake.version, accessToken: account.accessToken });
    const info = await graph.mediaInfo(mediaId);
    fake.expireUrls();
    const got = await graph.downloadMedia(mediaId, account.phoneNumberId, info);
    expect(got).toEqual({ data, mimeType: "image/jpeg" });
    expect(fake.requests.filter((r) => r.path === `/${fake.version}/${mediaId}`)).toHaveLength(2);
    await expect(session.downloadMedia(mediaId)).resolves.toMatchObject({ mimeType: "image/jpeg" });
    const noToken = await fetch((await graph.mediaInfo(mediaId)).url);
    expect(noToken.status).toBe(401);
  });

  it("lists only approved templates, following paging.next", async () => {
    const list = await provider.listTemplates(account);
    expect(list.map((t) => t.name)).toEqual(["boas_vindas", "lembrete"]);
  });
});
