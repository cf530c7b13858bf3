/**
 * One owner per connection, with two app instances on one database, each with its own pool like two
 * processes (the harness reaches the run's embedded PostgreSQL by URL too, as it does TEST_DATABASE_URL).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectionDTO } from "@balcao/shared";
import { buildApp, type App } from "../app";
import { createContext, type AppContext } from "../context";
import { openDatabase, type Database } from "../db/client";
import { connectionLeases, connections } from "../db/schema";
import { buildTenant, type Session } from "../test/factories";
import { createTestApp, type TestApp } from "../test/testApp";

/** Polls with room for a loaded CI machine (other listeners, e.g. the message pipeline, run first). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 20 });

// Long enough that a loaded CI machine (event-loop stalls of a second or more) never lets a live lease lapse.
const TTL = 3000;
const RENEW = 200;

let t: TestApp;
let second: { app: App; ctx: AppContext; database: Database; ownDatabase: boolean };
let tenant: Awaited<ReturnType<typeof buildTenant>>;

beforeAll(async () => {
  t = await createTestApp({
    CHANNEL_LEASE_TTL_MS: String(TTL),
    CHANNEL_LEASE_RENEW_MS: String(RENEW),
    CHANNEL_COMMAND_POLL_MS: "50",
    SIMULATOR_ACK_DELAY_MS: "0",
  });
  const pool = t.ctx.database.pool as unknown as { options: { connectionString: string } } | undefined;
  const database = pool ? await openDatabase({ databaseUrl: pool.options.connectionString }) : t.ctx.database;
  const ctx = createContext(t.config, database);
  const app = await buildApp(ctx);
  await app.ready();
  second = { app, ctx, database, ownDatabase: !!pool };
  tenant = await buildTenant(t.app);
});

afterAll(async () => {
  await second.app.close();
  if (second.ownDatabase) await second.database.close();
  await t.close();
});

const call = (app: App, session: Session, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  app.inject({ method, url: `/api${url}`, headers: session.headers, ...(payload ? { payload } : {}) });

const leaseOf = async (connectionId: number) =>
  (await t.ctx.database.db.select().from(connectionLeases).where(eq(connectionLeases.connectionId, connectionId)))[0];
const statusOf = async (connectionId: number) =>
  (await t.ctx.database.db.select({ status: connections.status }).from(connections).where(eq(connections.id, connectionId)))[0]?.status;
const owners = (id: number) => [t.ctx, second.ctx].filter((c) => c.channels.isLocal(id)).map((c) => c.channels.ownerId);

describe("single owner per connection across two instances", () => {
  let conn: ConnectionDTO;

  it("the instance that starts a connection owns it; the other never runs it while the lease is renewed", async () => {
    expect(t.ctx.channels.ownerId).not.toBe(second.ctx.channels.ownerId);
    conn = (await call(t.app, tenant.adminSession, "POST", "/whatsapp", { name: "Disputada" })).json();
    await call(t.app, tenant.adminSession, "POST", `/simulator/${conn.id}/scan`, { code: conn.qrcode });
    expect(await statusOf(conn.id)).toBe("CONNECTED");
    await Promise.all([t.ctx.channels.start(), second.ctx.channels.start()]);
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, RENEW));
      expect(owners(conn.id)).toEqual([t.ctx.channels.ownerId]);
    }
    expect((await leaseOf(conn.id))?.ownerId).toBe(t.ctx.channels.ownerId);
  });

  it("concurrent claims of a free connection end with exactly one owner", async () => {
    const [row] = await t.ctx.database.db
      .insert(connections)
      .values({ companyId: tenant.company.id, name: "Livre", channel: "simulator", status: "OPENING", token: `tok-${Date.now()}` })
      .returning();
    await Promise.all([t.ctx.channels.tick(), second.ctx.channels.tick(), t.ctx.channels.tick(), second.ctx.channels.tick()]);
    await poll(() => owners(row!.id).length).toBe(1);
    const lease = await leaseOf(row!.id);
    expect(owners(row!.id)).toEqual([lease!.ownerId]);
    await poll(() => statusOf(row!.id)).toBe("qrcode");
  });

  it("a command sent to the other instance is relayed to the owner", async () => {
    const [row] = await t.ctx.database.db
      .insert(connections)
      .values({ companyId: tenant.company.id, name: "Relé", channel: "simulator", status: "DISCONNECTED", token: `tok2-${Date.now()}` })
      .returning();
    await t.ctx.channels.command(tenant.company.id, row!.id, "start");
    expect(owners(row!.id)).toEqual([t.ctx.channels.ownerId]);
    const viaSecond = await second.ctx.channels.command(tenant.company.id, row!.id, "stop");
    expect(viaSecond).toBe("relayed");
    await poll(() => statusOf(row!.id)).toBe("DISCONNECTED");
    // The owner writes the status before it releases the lease.
    await poll(() => owners(row!.id)).toEqual([]);
    await poll(() => leaseOf(row!.id)).toBeUndefined();
    // Stopped connections are not claimed again by anyone.
    await Promise.all([t.ctx.channels.tick(), second.ctx.channels.tick()]);
    expect(owners(row!.id)).toEqual([]);
  });

  it("when the owner dies (stops renewing), the other takes over after the lease expires, and the old owner's writes are fenced", async () => {
    await t.ctx.channels.crash();
    expect(owners(conn.id)).toEqual([]);
    const died = Date.now();
    await expect.poll(() => owners(conn.id), { timeout: TTL + 2000, interval: 50 }).toEqual([second.ctx.channels.ownerId]);
    expect(Date.now() - died).toBeGreaterThanOrEqual(TTL - 400);
    expect((await leaseOf(conn.id))?.ownerId).toBe(second.ctx.channels.ownerId);
    // The pairing is in the database, so the new owner's session comes up CONNECTED by itself.
    await poll(() => statusOf(conn.id)).toBe("CONNECTED");
    // The dead owner can no longer claim or overwrite it.
    expect(await t.ctx.channels.claim(tenant.company.id, conn.id)).toBe(false);
  });

  it("a graceful stop releases the lease at once: the other instance takes over well before the TTL", async () => {
    await t.ctx.channels.start();
    const stoppedAt = Date.now();
    await second.ctx.channels.stop();
    await expect.poll(() => owners(conn.id), { timeout: TTL, interval: 25 }).toEqual([t.ctx.channels.ownerId]);
    expect(Date.now() - stoppedAt).toBeLessThan(TTL);
    await poll(() => statusOf(conn.id)).toBe("CONNECTED");
    // The row may still read CONNECTED from the previous owner while the new session finishes opening.
    await expect
      .poll(
        () =>
          t.ctx.channels
            .session(tenant.company.id, conn.id)
            .checkNumber("5511987654321")
            .catch(() => null),
        { timeout: TTL, interval: 25 },
      )
      .toBe("5511987654321");
    expect(() => second.ctx.channels.session(tenant.company.id, conn.id)).toThrow(/NOT_CONNECTED/);
  });
});
