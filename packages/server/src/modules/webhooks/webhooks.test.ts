/**
 * Outgoing webhooks through HTTP, the outbox and the job runner, against a local HTTP receiver: subscription
 * rules, signed deliveries of message/ticket/contact events, retries, the delivery log, resend, the SSRF guard
 * and tenant isolation.
 */
import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ChannelAddress } from "../../channels/types";
import { connections } from "../../db/schema";
import { buildTenant, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { pipelines } from "../messages/module";
import { isPrivateAddress } from "./ssrf";

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: { id: number; event: string; createdAt: string; data: Record<string, { id: number } & Record<string, unknown>> };
}

let t: TestApp;
let receiver: http.Server;
let base = "";
const received: Received[] = [];
/** Status codes the receiver answers next, per path (then 200). */
const script = new Map<string, number[]>();

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", JOBS_POLL_SECONDS: "0.5", SIMULATOR_ACK_DELAY_MS: "0" });
  receiver = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers, raw, body: JSON.parse(raw) });
      const status = script.get(path)?.shift() ?? 200;
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? `ok ${path}` : "receiver is down");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(() => {
  t.ctx.config.webhookAllowPrivateTargets = true;
});

const api = (s: Session, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: s.headers, ...(payload ? { payload } : {}) });
const poll = <T>(fn: () => T | Promise<T>, timeout = 20_000) => expect.poll(fn, { timeout, interval: 100 });
const at = (path: string) => received.filter((r) => r.path === path);

async function desk() {
  const tenant = await buildTenant(t.app);
  const [connection] = await t.ctx.database.db
    .insert(connections)
    .values({ companyId: tenant.company.id, name: `Conexão ${Math.random()}`, isDefault: true, status: "CONNECTED" })
    .returning();
  return { ...tenant, source: { companyId: tenant.company.id, connectionId: connection!.id } };
}

let seq = 0;
async function inbound(source: { companyId: number; connectionId: number }, digits: string, body: string) {
  const chat: ChannelAddress = { id: digits, kind: "phone", pushName: "Cliente" };
  await pipelines.get(t.ctx)!.handle(source, {
    type: "message",
    message: { providerMessageId: `WH-${++seq}-${Date.now()}`, chat, fromMe: false, kind: "chat", body, timestamp: new Date() },
  });
}

describe("webhook subscriptions", () => {
  it("are admin-only, validated and scoped to the company", async () => {
    const d = await desk();
    const other = await desk();
    expect((await api(d.userSession, "GET", "/webhooks")).statusCode).toBe(403);
    expect((await api(d.userSession, "POST", "/webhooks", { url: `${base}/x`, events: ["contact.created"] })).statusCode).toBe(403);
    const invalid = await api(d.adminSession, "POST", "/webhooks", { url: "ftp://example.com", events: [] });
    expect(invalid.statusCode).toBe(400);
    expect(
      invalid
        .json()
        .issues.map((i: { path: string }) => i.path)
        .sort(),
    ).toEqual(["events", "url"]);
    expect((await api(d.adminSession, "POST", "/webhooks", { url: `${base}/x`, events: ["message.deleted"] })).statusCode).toBe(400);
    const created = await api(d.adminSession, "POST", "/webhooks", { url: `${base}/x`, events: ["contact.created", "contact.created"] });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      url: `${base}/x`,
      events: ["contact.created"],
      active: true,
      secret: expect.stringMatching(/^[0-9a-f]{48}$/),
    });
    const id = created.json().id;
    expect((await api(other.adminSession, "GET", "/webhooks")).json()).toEqual([]);
    expect((await api(other.adminSession, "PUT", `/webhooks/${id}`, { url: `${base}/y`, events: ["ticket.closed"] })).statusCode).toBe(404);
    expect((await api(other.adminSession, "GET", `/webhooks/${id}/deliveries`)).statusCode).toBe(404);
    expect((await api(other.adminSession, "DELETE", `/webhooks/${id}`)).statusCode).toBe(404);
    const updated = await api(d.adminSession, "PUT", `/webhooks/${id}`, { url: `${base}/y`, events: ["ticket.closed"], active: false });
    expect(updated.json()).toMatchObject({ url: `${base}/y`, events: ["ticket.closed"], active: false, secret: created.json().secret });
    expect((await api(d.adminSession, "DELETE", `/webhooks/${id}`)).statusCode).toBe(204);
    expect((await api(d.adminSession, "GET", "/webhooks")).json()).toEqual([]);
  });

  it("refuse private and loopback targets unless the server allows them", async () => {
    const d = await desk();
    t.ctx.config.webhookAllowPrivateTargets = false;
    for (const url of [
      `${base}/x`,
      "http://localhost:9/x",
      "http://10.1.2.3/x",
      "http://[::1]:9/x",
      "http://169.254.169.254/latest",
      "http://[::ffff:192.168.0.1]/x",
    ]) {
      const res = await api(d.adminSession, "POST", "/webhooks", { url, events: ["contact.created"] });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toBe("ERR_WEBHOOK_PRIVATE_TARGET");
    }
    expect(isPrivateAddress("8.8.8.8")).toBe(false);
    expect(isPrivateAddress("2606:4700:4700::1111")).toBe(false);
    expect(isPrivateAddress("172.20.0.1")).toBe(true);
    expect(isPrivateAddress("fd00::1")).toBe(true);

    // A webhook saved while allowed is still refused at delivery once the server forbids it: nothing is sent.
    t.ctx.config.webhookAllowPrivateTargets = true;
    const hook = (await api(d.adminSession, "POST", "/webhooks", { url: `${base}/ssrf`, events: ["contact.created"] })).json();
    t.ctx.config.webhookAllowPrivateTargets = false;
    await inbound(d.source, "5511977770001", "Oi");
    await poll(async () => (await api(d.adminSession, "GET", `/webhooks/${hook.id}/deliveries`)).json().deliveries[0]?.status).toBe("failed");
    const [delivery] = (await api(d.adminSession, "GET", `/webhooks/${hook.id}/deliveries`)).json().deliveries;
    expect(delivery).toMatchObject({ event: "contact.created", attempts: 1, lastError: "ERR_WEBHOOK_PRIVATE_TARGET", lastStatusCode: null });
    expect(at("/ssrf")).toEqual([]);
  });
});

describe("deliveries", () => {
  it("sends signed message, ticket and contact events to the subscribed URL only, and logs the answers", async () => {
    const d = await desk();
    const other = await desk();
    const hook = (
      await api(d.adminSession, "POST", "/webhooks", {
        url: `${base}/a`,
        events: ["contact.created", "ticket.created", "message.received", "ticket.closed"],
      })
    ).json();
    const foreign = (
      await api(other.adminSession, "POST", "/webhooks", { url: `${base}/b`, events: ["contact.created", "message.received"] })
    ).json();
    await inbound(d.source, "5511977770002", "Bom dia");
    await poll(() =>
      at("/a")
        .map((r) => r.body.event)
        .sort(),
    ).toEqual(["contact.created", "message.received", "ticket.created"]);

    for (const r of at("/a")) {
      expect(r.headers["x-balcao-event"]).toBe(r.body.event);
      expect(r.headers["x-balcao-delivery"]).toBe(String(r.body.id));
      const [, t1, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(r.headers["x-balcao-signature"]))!;
      expect(Math.abs(Date.now() / 1000 - Number(t1))).toBeLessThan(60);
      expect(v1).toBe(createHmac("sha256", hook.secret).update(`${t1}.${r.raw}`).digest("hex"));
      expect(createHmac("sha256", "wrong").update(`${t1}.${r.raw}`).digest("hex")).not.toBe(v1);
    }
    const message = at("/a").find((r) => r.body.event === "message.received")!.body.data;
    expect(message.message).toMatchObject({ body: "Bom dia", fromMe: false });
    const ticketId = message.ticket!.id;
    expect(at("/a").find((r) => r.body.event === "ticket.created")!.body.data.ticket).toMatchObject({ id: ticketId, status: "pending" });
    expect(at("/a").find((r) => r.body.event === "contact.created")!.body.data.contact).toMatchObject({ number: "5511977770002" });

    // A second message: no second ticket.created or contact.created; closing the ticket → ticket.closed.
    await inbound(d.source, "5511977770002", "Alguém aí?");
    await poll(() => at("/a").filter((r) => r.body.event === "message.received")).toHaveLength(2);
    expect((await api(d.adminSession, "PUT", `/tickets/${ticketId}`, { status: "closed" })).statusCode).toBe(200);
    await poll(() =>
      at("/a")
        .filter((r) => r.body.event === "ticket.closed")
        .map((r) => r.body.data.ticket!.id),
    ).toEqual([ticketId]);
    expect(
      at("/a")
        .map((r) => r.body.event)
        .sort(),
    ).toEqual(["contact.created", "message.received", "message.received", "ticket.closed", "ticket.created"]);
    expect(at("/b")).toEqual([]);

    const log = (await api(d.adminSession, "GET", `/webhooks/${hook.id}/deliveries`)).json();
    expect(log.deliveries).toHaveLength(5);
    expect(log.deliveries[0]).toMatchObject({
      event: "ticket.closed",
      status: "delivered",
      attempts: 1,
      lastStatusCode: 200,
      lastResponse: "ok /a",
      lastError: null,
    });
    expect((await api(other.adminSession, "GET", `/webhooks/${foreign.id}/deliveries`)).json().deliveries).toEqual([]);
  });

  it("follows subscription changes at once, though the fan-out keeps the company's webhooks in its read cache", async () => {
    const d = await desk();
    const events = () => at("/follow").map((r) => r.body.event);
    // A message before any webhook: the fan-out has read (and cached) the company's empty list.
    await inbound(d.source, "5511977770010", "Antes");
    await t.ctx.events.drain();
    const hook = (await api(d.adminSession, "POST", "/webhooks", { url: `${base}/follow`, events: ["message.received"] })).json();
    await inbound(d.source, "5511977770010", "Depois");
    await poll(events).toEqual(["message.received"]);

    // Switched off: nothing more; on again with another event: that one only.
    expect(
      (await api(d.adminSession, "PUT", `/webhooks/${hook.id}`, { url: `${base}/follow`, events: ["message.received"], active: false })).statusCode,
    ).toBe(200);
    await inbound(d.source, "5511977770010", "Desligado");
    await t.ctx.events.drain();
    expect(
      (await api(d.adminSession, "PUT", `/webhooks/${hook.id}`, { url: `${base}/follow`, events: ["ticket.updated"], active: true })).statusCode,
    ).toBe(200);
    await inbound(d.source, "5511977770010", "Ligado");
    await poll(events).toEqual(["message.received", "ticket.updated"]);
  });

  it("retries with backoff while the receiver fails, logs the failure, and resends on request", async () => {
    const d = await desk();
    script.set("/flaky", [503]);
    const hook = (await api(d.adminSession, "POST", "/webhooks", { url: `${base}/flaky`, events: ["contact.created"] })).json();
    await inbound(d.source, "5511977770003", "Oi");
    const deliveries = async () => (await api(d.adminSession, "GET", `/webhooks/${hook.id}/deliveries`)).json().deliveries;
    await poll(async () => (await deliveries())[0]?.status).toBe("retrying");
    expect((await deliveries())[0]).toMatchObject({ attempts: 1, lastStatusCode: 503, lastResponse: "receiver is down", lastError: "HTTP 503" });
    await poll(async () => (await deliveries())[0]?.status, 30_000).toBe("delivered");
    expect((await deliveries())[0]).toMatchObject({ attempts: 2, lastStatusCode: 200, lastError: null });
    const first = at("/flaky");
    expect(first).toHaveLength(2);
    expect(first[1]!.body.id).toBe(first[0]!.body.id);

    const id = (await deliveries())[0].id;
    const resent = await api(d.adminSession, "POST", `/webhooks/deliveries/${id}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    await poll(() => at("/flaky")).toHaveLength(3);
    expect(at("/flaky")[2]!.body).toEqual(first[0]!.body);
    await poll(async () => (await deliveries())[0]).toMatchObject({ status: "delivered", attempts: 3 });
    // Another company cannot resend it.
    const other = await desk();
    expect((await api(other.adminSession, "POST", `/webhooks/deliveries/${id}/resend`)).statusCode).toBe(404);
    expect((await api(d.userSession, "POST", `/webhooks/deliveries/${id}/resend`)).statusCode).toBe(403);
  });
});
