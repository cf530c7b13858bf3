import { eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ConnectionDTO } from "@balcao/shared";
import { connectionLeases } from "./schema";
import { buildTenant, collectEvents, connectSocket, type Session } from "../test/factories";
import { createTestApp, type TestApp } from "../test/testApp";

/**
 * Issue 11: a PostgreSQL restart killed the server (an unhandled 'error' event of a checked-out pg client:
 * "terminating connection due to administrator command"). Here every backend of the app's database is
 * terminated, twice, while the app runs with a live simulator connection and an open socket; the process
 * (this test worker: an uncaught error fails the run) must stay up, and the pool, the LISTEN connections
 * (outbox, Socket.IO adapter), the channel lease and the inbound path must all come back by themselves.
 */

const poll = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 100 });

let t: TestApp;
let tenant: Awaited<ReturnType<typeof buildTenant>>;
let conn: ConnectionDTO;
let admin: pg.Client;
let database: string;

const call = (session: Session | null, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session ? session.headers : {}, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp({
    SIMULATOR_ACK_DELAY_MS: "0",
    CHANNEL_LEASE_TTL_MS: "3000",
    CHANNEL_LEASE_RENEW_MS: "300",
    SOCKET_SESSION_CHECK_MS: "500",
  });
  tenant = await buildTenant(t.app);
  // As `npm start` does: the lease loop (claim, renew) runs.
  await t.ctx.channels.start();
  conn = (await call(tenant.adminSession, "POST", "/whatsapp", { name: "Simulador" })).json();
  await call(tenant.adminSession, "POST", `/simulator/${conn.id}/scan`, { code: conn.qrcode });
  const { rows } = await t.ctx.database.pool!.query<{ name: string }>("select current_database() as name");
  database = rows[0]!.name;
  admin = new pg.Client({ connectionString: inject("postgresUrl") });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await t.ctx.channels.stop();
  await t.close();
});

/** What `pg_ctlcluster … restart` does to the app's connections, without stopping the shared server. */
async function terminateAppConnections(): Promise<number> {
  const { rows } = await admin.query<{ n: string }>(
    "select count(pg_terminate_backend(pid)) as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
    [database],
  );
  return Number(rows[0]!.n);
}

async function listens(): Promise<string[]> {
  const { rows } = await admin.query<{ query: string }>(
    "select query from pg_stat_activity where datname = $1 and query ilike 'listen %' order by query",
    [database],
  );
  return rows.map((r) => r.query);
}

async function customerSays(body: string): Promise<void> {
  const res = await call(tenant.adminSession, "POST", `/simulator/${conn.id}/phones/5511987650099/messages`, { type: "text", body, name: "Cliente" });
  expect(res.statusCode, res.body).toBe(201);
}

async function ticketBodies(): Promise<string[]> {
  const list = await call(tenant.adminSession, "GET", "/tickets?status=pending");
  if (list.statusCode !== 200) return [];
  const ticket = (list.json() as { tickets: { id: number }[] }).tickets[0];
  if (!ticket) return [];
  const messages = await call(tenant.adminSession, "GET", `/messages/${ticket.id}`);
  return messages.statusCode === 200 ? (messages.json() as { messages: { body: string }[] }).messages.map((m) => m.body) : [];
}

describe("PostgreSQL drops every connection of the app", () => {
  it("the process stays up and the pool, listeners, adapter, lease and inbound path recover", async () => {
    const socket = await connectSocket(t.app, tenant.adminSession.token);
    const seen = collectEvents<{ message: { body: string } }>(socket, "appMessage");
    await poll(() => listens()).toEqual(expect.arrayContaining([expect.stringMatching(/socket\.io/), expect.stringMatching(/balcao_outbox/)]));
    await customerSays("antes da queda");
    await poll(() => seen.map((e) => e.message.body)).toContain("antes da queda");

    for (const round of [1, 2]) {
      expect(await terminateAppConnections(), `round ${round}`).toBeGreaterThan(0);
      // The API answers again (the pool replaced its dead clients)…
      await poll(async () => (await call(null, "GET", "/health")).statusCode).toBe(200);
      expect((await call(tenant.adminSession, "GET", "/tickets")).statusCode).toBe(200);
      // …the outbox and the Socket.IO adapter LISTEN again…
      await poll(() => listens()).toEqual(expect.arrayContaining([expect.stringMatching(/socket\.io/), expect.stringMatching(/balcao_outbox/)]));
      // …and a customer message still becomes a ticket message and a live event.
      const text = `depois da queda ${round}`;
      await customerSays(text);
      await poll(() => ticketBodies()).toContain(text);
      await poll(() => seen.map((e) => e.message.body)).toContain(text);
    }

    // The lease is still this process's and keeps being renewed.
    const leaseExpiry = async () =>
      (await t.ctx.database.db.select().from(connectionLeases).where(eq(connectionLeases.connectionId, conn.id)))[0]?.expiresAt.getTime() ?? 0;
    const before = await leaseExpiry();
    await poll(leaseExpiry).toBeGreaterThan(before);
    expect(t.ctx.channels.isLocal(conn.id)).toBe(true);
    expect(socket.connected).toBe(true);
    // No client was lost with its connection: once quiet, the pool holds at most the adapter's LISTEN client
    // (drizzle does not release a client whose BEGIN failed; each outage used to cost the pool one).
    const pool = t.ctx.database.pool!;
    await poll(() => pool.totalCount - pool.idleCount).toBeLessThanOrEqual(1);
    socket.close();
  });
});
