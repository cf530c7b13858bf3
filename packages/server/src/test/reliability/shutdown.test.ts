/**
 * The real server entry point (src/main.ts) as a child process on the test's database, under attendant
 * traffic: SIGTERM finishes what is in flight and hands the WhatsApp connection over at once; kill -9 loses
 * nothing and sends nothing twice once another process takes over. A second test stops an embedded-database
 * server with SIGTERM and checks that PostgreSQL was shut down cleanly.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "../../context";
import { connectionLeases, messages, tickets } from "../../db/schema";
import { pipelines } from "../../modules/messages/module";
import { phoneInbox } from "../campaigns";
import { buildTenant } from "../factories";
import { createTestApp, type TestApp } from "../testApp";
import { startServerProcess, type ServerProcess } from "./serverProcess";

let t: TestApp;
const children: ServerProcess[] = [];
let seq = 0;

beforeAll(async () => {
  // This process plays "another process": it takes the connection over when the child goes away.
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0", CHANNEL_LEASE_RENEW_MS: "200", PENDING_SEND_STALE_MS: "2000" });
});

afterAll(async () => {
  for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill("SIGKILL");
  await Promise.all(children.map((c) => c.exited));
  await t.ctx.channels.stop();
  await t.close();
});

const urlOf = (ctx: AppContext) => (ctx.database.pool as unknown as { options: { connectionString: string } }).options.connectionString;

/** A company with a simulator connection (left free for the child to claim) and `n` accepted tickets on it. */
async function world(n: number) {
  const tenant = await buildTenant(t.app);
  const created = await t.app.inject({
    method: "POST",
    url: "/api/whatsapp",
    headers: tenant.adminSession.headers,
    payload: { name: `Sim ${++seq}` },
  });
  const conn = created.json() as { id: number; qrcode: string };
  const scanned = await t.app.inject({
    method: "POST",
    url: `/api/simulator/${conn.id}/scan`,
    headers: tenant.adminSession.headers,
    payload: { code: conn.qrcode },
  });
  expect(scanned.statusCode).toBe(200);
  await expect.poll(() => t.ctx.channels.isLocal(conn.id), { timeout: 15_000 }).toBe(true);
  const ticketIds: number[] = [];
  const phones: string[] = [];
  for (let i = 0; i < n; i++) {
    const phone = `55119${String(70_000_000 + ++seq * 10 + i)}`;
    phones.push(phone);
    await pipelines.get(t.ctx)!.handle(
      { companyId: tenant.company.id, connectionId: conn.id },
      {
        type: "message",
        message: {
          providerMessageId: `IN-${seq}-${i}`,
          chat: { id: phone, kind: "phone", pushName: `Cliente ${i}` },
          fromMe: false,
          kind: "chat",
          body: "oi",
          timestamp: new Date(),
        },
      },
    );
    const [row] = await t.ctx.database.db
      .select({ id: tickets.id })
      .from(tickets)
      .where(and(eq(tickets.companyId, tenant.company.id), eq(tickets.connectionId, conn.id)))
      .orderBy(tickets.id)
      .offset(i)
      .limit(1);
    const accepted = await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${row!.id}`,
      headers: tenant.adminSession.headers,
      payload: { status: "open", userId: tenant.admin.id },
    });
    expect(accepted.statusCode).toBe(200);
    ticketIds.push(row!.id);
  }
  // Hand the connection over: this process lets go of it (lease released) so the child claims it at boot.
  await t.ctx.channels.stop();
  return { ...tenant, connectionId: conn.id, ticketIds, phones };
}

const leaseOf = async (connectionId: number) =>
  (await t.ctx.database.db.select().from(connectionLeases).where(eq(connectionLeases.connectionId, connectionId)))[0];

interface Attempt {
  body: string;
  status: number | "network error";
  id?: number;
}

/** Attendants replying as fast as they can, one loop per ticket, until told to stop or the server goes away. */
function traffic(url: string, headers: Record<string, string>, ticketIds: number[]) {
  const attempts: Attempt[] = [];
  let stopped = false;
  const loops = ticketIds.map(async (ticketId, loop) => {
    for (let i = 0; !stopped && i < 500; i++) {
      const body = `resposta ${loop}-${i}`;
      try {
        const res = await fetch(`${url}/api/messages/${ticketId}`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ body }),
        });
        const json = (await res.json().catch(() => null)) as { id: number }[] | null;
        attempts.push({ body, status: res.status, id: Array.isArray(json) ? json[0]?.id : undefined });
      } catch {
        attempts.push({ body, status: "network error" });
        return; // the server is gone
      }
    }
  });
  return {
    attempts,
    accepted: () => attempts.filter((a) => a.status === 201),
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms))]);

async function repliesOn(companyId: number, ticketIds: number[]) {
  return t.ctx.database.db
    .select({ id: messages.id, body: messages.body, status: messages.status, providerMessageId: messages.providerMessageId })
    .from(messages)
    .where(and(eq(messages.companyId, companyId), inArray(messages.ticketId, ticketIds), eq(messages.fromMe, true)));
}

describe("a server process stopped under attendant traffic", () => {
  it("SIGTERM: exits 0 within 30 s, every accepted reply delivered, the lease released, another process takes over at once", async () => {
    const d = await world(3);
    // A long lease: if the connection moves quickly, it is because the lease was released, not because it expired.
    const server = await startServerProcess(t.config, { DATABASE_URL: urlOf(t.ctx), CHANNEL_LEASE_TTL_MS: "120000", CHANNEL_LEASE_RENEW_MS: "500" });
    children.push(server);
    await expect.poll(async () => (await leaseOf(d.connectionId))?.ownerId, { timeout: 30_000, interval: 100 }).toBeTruthy();
    const load = traffic(server.url, d.adminSession.headers as Record<string, string>, d.ticketIds);
    await expect.poll(() => load.accepted().length, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(6);
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    const code = await within(server.exited, 30_000, "the shutdown");
    const tookMs = Date.now() - signalled;
    await load.stop();
    expect(code, server.output()).toBe(0);
    expect(tookMs).toBeLessThan(30_000);
    // Released at shutdown, not left to expire in two minutes.
    expect(await leaseOf(d.connectionId)).toBeUndefined();
    // Only 201 (sent), or 503 / a closed connection for a request that came in while stopping (refused before
    // any work: a load balancer retries it elsewhere); every reply answered 201 reached WhatsApp; nothing was
    // stored that was not answered 201.
    expect(load.attempts.filter((a) => a.status !== 201 && a.status !== 503 && a.status !== "network error")).toEqual([]);
    const rows = await repliesOn(d.company.id, d.ticketIds);
    expect(rows.filter((r) => r.status !== "sent")).toEqual([]);
    expect(rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(
      load
        .accepted()
        .map((a) => a.id!)
        .sort((a, b) => a - b),
    );
    // Another process takes the connection over at once (well inside the two-minute lease).
    const takeover = Date.now();
    await t.ctx.channels.start();
    await expect.poll(() => t.ctx.channels.isLocal(d.connectionId), { timeout: 15_000, interval: 50 }).toBe(true);
    expect(Date.now() - takeover).toBeLessThan(15_000);
    await t.ctx.channels.stop();
  }, 180_000);

  it("kill -9 during sends: after another process takes over, no reply is sent twice and none is lost (delivered, or failed with retry)", async () => {
    const d = await world(3);
    const server = await startServerProcess(t.config, { DATABASE_URL: urlOf(t.ctx), CHANNEL_LEASE_TTL_MS: "6000", CHANNEL_LEASE_RENEW_MS: "300" });
    children.push(server);
    await expect.poll(async () => (await leaseOf(d.connectionId))?.ownerId, { timeout: 30_000, interval: 100 }).toBeTruthy();
    const load = traffic(server.url, d.adminSession.headers as Record<string, string>, d.ticketIds);
    await expect.poll(() => load.accepted().length, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(4 + Math.floor(Math.random() * 10));
    // What the killed process may have left between storing a reply and recording WhatsApp's answer.
    const [stranded] = await t.ctx.database.db
      .insert(messages)
      .values({
        companyId: d.company.id,
        ticketId: d.ticketIds[0]!,
        contactId: (await t.ctx.database.db.select({ c: tickets.contactId }).from(tickets).where(eq(tickets.id, d.ticketIds[0]!)))[0]!.c,
        connectionId: d.connectionId,
        body: "deixada a meio",
        fromMe: true,
        read: true,
        status: "pending",
      })
      .returning({ id: messages.id });
    server.child.kill("SIGKILL");
    expect(await within(server.exited, 30_000, "the kill")).toBe("SIGKILL");
    await load.stop();
    // 201 (sent) or 400 ERR_SENDING_WAPP_MSG (stored as failed, with retry), never a 5xx.
    expect(load.attempts.filter((a) => typeof a.status === "number" && a.status !== 201 && a.status !== 400)).toEqual([]);

    await t.ctx.channels.start();
    await expect.poll(() => t.ctx.channels.isLocal(d.connectionId), { timeout: 30_000, interval: 100 }).toBe(true);
    // None lost: nothing stays pending; what the dead process did not finish is failed (retry is offered).
    await expect
      .poll(async () => (await repliesOn(d.company.id, d.ticketIds)).filter((r) => r.status === "pending").length, { timeout: 30_000, interval: 200 })
      .toBe(0);
    const rows = await repliesOn(d.company.id, d.ticketIds);
    expect(rows.find((r) => r.id === stranded!.id)).toMatchObject({ status: "failed" });
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const a of load.accepted()) expect(byId.get(a.id!)).toMatchObject({ status: "sent" });
    for (const a of load.attempts.filter((x) => x.status === 400)) expect(rows.find((r) => r.body === a.body)).toMatchObject({ status: "failed" });
    // None twice: one row per request, distinct WhatsApp ids, and the new owner sent none of them again.
    const bodies = rows.map((r) => r.body);
    expect(new Set(bodies).size).toBe(bodies.length);
    const ids = rows.flatMap((r) => (r.providerMessageId ? [r.providerMessageId] : []));
    expect(new Set(ids).size).toBe(ids.length);
    // The new owner did not send the stranded reply on its own…
    const copies = () => phoneInbox(t.ctx, d.connectionId, d.phones[0]!).filter((b) => b === "deixada a meio").length;
    expect(copies()).toBe(0);
    // …and sends it once when the attendant retries it.
    const retried = await t.app.inject({ method: "POST", url: `/api/messages/${stranded!.id}/retry`, headers: d.adminSession.headers });
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ status: "sent" });
    expect(copies()).toBe(1);
    await t.ctx.channels.stop();
  }, 180_000);
});

describe("the embedded database", () => {
  it("SIGTERM stops the embedded PostgreSQL cleanly before the process exits 0", async () => {
    const server = await startServerProcess(t.config, { DATABASE_URL: undefined }, { readyTimeoutMs: 150_000 });
    children.push(server);
    const pidFile = path.join(server.dataDir, "postgres", "postmaster.pid");
    expect(existsSync(pidFile)).toBe(true);
    const postgresPid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
    // One answered request: the process is past its start-up (its signal handlers are in place).
    expect((await fetch(`${server.url}/api/auth/me`)).status).toBe(401);
    server.child.kill("SIGTERM");
    expect(await within(server.exited, 60_000, "the shutdown"), server.output()).toBe(0);
    // PostgreSQL removes its pid file only on a clean shutdown, and its process is gone.
    expect(existsSync(pidFile)).toBe(false);
    expect(() => process.kill(postgresPid, 0)).toThrow();
  }, 240_000);

  it("SIGTERM while the server is still starting: it finishes starting, then stops cleanly and exits 0", async () => {
    const server = await startServerProcess(t.config, { DATABASE_URL: undefined }, { waitForListen: false });
    children.push(server);
    const pidFile = path.join(server.dataDir, "postgres", "postmaster.pid");
    // The embedded PostgreSQL is up but the server is not listening yet (migrations, seeding, sessions).
    await expect.poll(() => existsSync(pidFile) && !/running at/.test(server.output()), { timeout: 120_000, interval: 20 }).toBe(true);
    server.child.kill("SIGTERM");
    expect(await within(server.exited, 90_000, "the shutdown"), server.output()).toBe(0);
    expect(server.output()).toContain("SIGTERM received, stopping");
    expect(existsSync(pidFile)).toBe(false);
  }, 240_000);
});
