/**
 * Scale-out: two server processes (src/main.ts, as in production) on one PostgreSQL behind a tiny
 * round-robin HTTP proxy. Replies, deletions and read receipts posted through the proxy work whichever node
 * gets them; a number check, the simulator's API and a session command sent to the node that does not run
 * the connection reach its owner; and a socket on one node receives what happened on the other.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "../../context";
import { connectionLeases, connections, messages, tickets } from "../../db/schema";
import { buildTenant } from "../factories";
import { createTestApp, type TestApp } from "../testApp";
import { startServerProcess, type ServerProcess } from "./serverProcess";

let t: TestApp;
let nodes: ServerProcess[] = [];
let proxy: http.Server;
let proxyUrl = "";
const sockets: Socket[] = [];

const urlOf = (ctx: AppContext) => (ctx.database.pool as unknown as { options: { connectionString: string } }).options.connectionString;

beforeAll(async () => {
  t = await createTestApp();
  const env = { DATABASE_URL: urlOf(t.ctx), CHANNEL_LEASE_TTL_MS: "10000", CHANNEL_LEASE_RENEW_MS: "500", CHANNEL_COMMAND_POLL_MS: "100" };
  nodes = await Promise.all([startServerProcess(t.config, env), startServerProcess(t.config, env)]);
  let next = 0;
  proxy = http.createServer((req, res) => {
    const target = new URL(nodes[next++ % nodes.length]!.url);
    const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  for (const s of sockets) s.close();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  for (const n of nodes) n.child.kill("SIGTERM");
  await Promise.all(nodes.map((n) => n.exited));
  await t.close();
}, 60_000);

async function api(base: string, headers: Record<string, string>, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null, text };
}

async function socketOn(url: string, token: string): Promise<Socket> {
  const socket = io(url, { path: "/socket.io", auth: { token }, transports: ["websocket"], reconnection: false });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("ready", () => resolve());
    socket.once("connect_error", reject);
  });
  return socket;
}

describe("two server processes behind a round-robin proxy", () => {
  it("sends, deletions, read receipts, number checks, the simulator and session commands work on either node; socket events cross nodes", async () => {
    const tenant = await buildTenant(t.app);
    const headers = tenant.adminSession.headers as Record<string, string>;
    const token = headers.authorization!.replace(/^Bearer /i, "");

    const created = await api(proxyUrl, headers, "POST", "/whatsapp", { name: "Simulador", channel: "simulator", isDefault: true });
    expect(created.status, created.text).toBe(201);
    const connectionId = created.json.id as number;
    // Which node runs the session: the lease names its process id.
    const ownerPid = async () => {
      const [lease] = await t.ctx.database.db.select().from(connectionLeases).where(eq(connectionLeases.connectionId, connectionId));
      return lease ? Number(lease.ownerId.split(":")[1]) : undefined;
    };
    await expect.poll(ownerPid, { timeout: 30_000, interval: 100 }).toBeTruthy();
    const pid = await ownerPid();
    const owner = nodes.find((n) => n.child.pid === pid)!;
    const other = nodes.find((n) => n !== owner)!;
    expect(owner).toBeTruthy();
    // The simulator (a test double of WhatsApp itself) is driven on the owner.
    await expect
      .poll(async () => (await api(owner.url, headers, "GET", `/simulator/${connectionId}`)).json?.connection?.qrcode, {
        timeout: 30_000,
        interval: 200,
      })
      .toBeTruthy();
    const { qrcode } = (await api(owner.url, headers, "GET", `/simulator/${connectionId}`)).json.connection;
    expect((await api(owner.url, headers, "POST", `/simulator/${connectionId}/scan`, { code: qrcode })).status).toBe(200);

    // A socket on the other node hears the customer's message that arrived on the owner.
    const socket = await socketOn(other.url, token);
    const heard = new Promise<{ message: { body: string } }>((resolve) =>
      socket.on("appMessage", (e: { action: string; message: { body: string; fromMe: boolean } }) => {
        if (e.action === "create" && !e.message.fromMe) resolve(e);
      }),
    );
    const phone = "5511987651234";
    expect(
      (await api(owner.url, headers, "POST", `/simulator/${connectionId}/phones/${phone}/messages`, { type: "text", body: "Olá, nó?" })).status,
    ).toBe(201);
    expect((await heard).message.body).toBe("Olá, nó?");

    // The simulator's API on the node that does not run the connection: the owner's phones and errors.
    const phonesThere = await api(other.url, headers, "GET", `/simulator/${connectionId}/phones`);
    expect(phonesThere.status, phonesThere.text).toBe(200);
    expect(phonesThere.json).toEqual((await api(owner.url, headers, "GET", `/simulator/${connectionId}/phones`)).json);
    expect(phonesThere.json.map((p: { number: string }) => p.number)).toEqual([phone]);
    const noMessage = await api(other.url, headers, "POST", `/simulator/${connectionId}/phones/${phone}/messages/nada/ack`, { ack: 3 });
    expect(noMessage.status).toBe(404);
    expect(noMessage.json).toMatchObject({ error: "ERR_SIMULATOR_NO_MESSAGE" });
    // A number check on that node: the owner's session refuses a number WhatsApp does not know.
    const unknown = await api(other.url, headers, "POST", "/contacts", { name: "Sem WhatsApp", number: "5511987650000" });
    expect(unknown.status, unknown.text).toBe(400);
    expect(unknown.json).toMatchObject({ error: "ERR_WAPP_INVALID_CONTACT" });

    const [ticket] = await t.ctx.database.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.companyId, tenant.company.id), eq(tickets.connectionId, connectionId)));
    // A read receipt posted to the node that does not run the connection: the customer's message is marked
    // read on WhatsApp (checked below).
    expect((await api(other.url, headers, "POST", `/tickets/${ticket!.id}/read`)).status).toBe(204);
    expect((await api(proxyUrl, headers, "PUT", `/tickets/${ticket!.id}`, { status: "open", userId: tenant.admin.id })).status).toBe(200);

    // Replies through the proxy, alternating nodes (two on each): every one delivered.
    const sent: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await api(proxyUrl, headers, "POST", `/messages/${ticket!.id}`, { body: `Resposta ${i}` });
      expect(res.status, res.text).toBe(201);
      expect(res.json[0]).toMatchObject({ status: "sent" });
      sent.push(res.json[0].id);
    }
    const onPhone = async () =>
      (await api(owner.url, headers, "GET", `/simulator/${connectionId}/phones/${phone}/messages`)).json as {
        body: string;
        direction: string;
        deleted?: boolean;
        ack: number;
      }[];
    expect((await onPhone()).filter((m) => m.direction === "in").map((m) => m.body)).toEqual([
      "Resposta 0",
      "Resposta 1",
      "Resposta 2",
      "Resposta 3",
    ]);
    await expect.poll(async () => (await onPhone()).find((m) => m.direction === "out")?.ack, { timeout: 10_000 }).toBe(3);

    // Deletions through the proxy, one on each node.
    for (const id of sent.slice(0, 2)) {
      const res = await api(proxyUrl, headers, "DELETE", `/messages/${id}`);
      expect(res.status, res.text).toBe(200);
      expect(res.json).toMatchObject({ isDeleted: true });
    }
    expect((await onPhone()).filter((m) => m.deleted).map((m) => m.body)).toEqual(["Resposta 0", "Resposta 1"]);
    const rows = await t.ctx.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.companyId, tenant.company.id), eq(messages.fromMe, true)));
    expect(rows.map((r) => r.status)).toEqual(["sent", "sent", "sent", "sent"]);

    // A session command on the node that does not run the connection: the owner disconnects it.
    expect((await api(other.url, headers, "DELETE", `/whatsappsession/${connectionId}`)).status).toBe(200);
    await expect
      .poll(
        async () =>
          (await t.ctx.database.db.select({ status: connections.status }).from(connections).where(eq(connections.id, connectionId)))[0]?.status,
        { timeout: 20_000, interval: 200 },
      )
      .toBe("DISCONNECTED");
  }, 180_000);
});
