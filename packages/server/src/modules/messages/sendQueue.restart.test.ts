/**
 * Issue 21, item 4, across a process restart: a reply queued by a server process (src/main.ts as a child, the
 * production entry point) while its connection is down survives that process's kill -9, and the next owner of
 * the connection delivers it exactly once when the connection is CONNECTED again. The rows are the queue.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessageDTO } from "@balcao/shared";
import type { AppContext } from "../../context";
import { connectionLeases, messages, tickets } from "../../db/schema";
import { phoneInbox } from "../../test/campaigns";
import { buildTenant } from "../../test/factories";
import { startServerProcess, type ServerProcess } from "../../test/reliability/serverProcess";
import { createTestApp, type TestApp } from "../../test/testApp";
import { pipelines } from "./module";

let t: TestApp;
let child: ServerProcess | undefined;

beforeAll(async () => {
  // This process plays the next owner: it takes the connection over once the child is gone.
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0", CHANNEL_LEASE_RENEW_MS: "200", JOBS_POLL_SECONDS: "0.5" });
});

afterAll(async () => {
  if (child && child.child.exitCode === null && child.child.signalCode === null) child.child.kill("SIGKILL");
  await child?.exited;
  await t.ctx.channels.stop();
  await t.close();
});

const urlOf = (ctx: AppContext) => (ctx.database.pool as unknown as { options: { connectionString: string } }).options.connectionString;

describe("a queued reply across a restart", () => {
  it("kill -9 of the process that queued it: the next owner delivers it once when the connection is back", async () => {
    const tenant = await buildTenant(t.app);
    const headers = tenant.adminSession.headers as Record<string, string>;
    const api = (url: string, path: string, method = "GET", body?: object) =>
      fetch(`${url}/api${path}`, {
        method,
        headers: { ...headers, "content-type": "application/json" },
        ...(body && { body: JSON.stringify(body) }),
      });

    // A paired simulator connection with one accepted conversation, then left free for the child to claim.
    const conn = (await t.app.inject({ method: "POST", url: "/api/whatsapp", headers, payload: { name: "Reinício" } })).json() as {
      id: number;
      qrcode: string;
    };
    expect((await t.app.inject({ method: "POST", url: `/api/simulator/${conn.id}/scan`, headers, payload: { code: conn.qrcode } })).statusCode).toBe(
      200,
    );
    await expect.poll(() => t.ctx.channels.isLocal(conn.id), { timeout: 15_000 }).toBe(true);
    const phone = "5511977001234";
    await pipelines.get(t.ctx)!.handle(
      { companyId: tenant.company.id, connectionId: conn.id },
      {
        type: "message",
        message: {
          providerMessageId: "RESTART-1",
          chat: { id: phone, kind: "phone" },
          fromMe: false,
          kind: "chat",
          body: "oi",
          timestamp: new Date(),
        },
      },
    );
    const [ticket] = await t.ctx.database.db
      .select({ id: tickets.id })
      .from(tickets)
      .where(and(eq(tickets.companyId, tenant.company.id), eq(tickets.connectionId, conn.id)));
    const accepted = await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket!.id}`,
      headers,
      payload: { status: "open", userId: tenant.admin.id },
    });
    expect(accepted.statusCode).toBe(200);
    await t.ctx.channels.stop();

    // The child runs the connection; WhatsApp's connection drops there and the attendant replies: queued.
    child = await startServerProcess(t.config, { DATABASE_URL: urlOf(t.ctx), CHANNEL_LEASE_TTL_MS: "6000", CHANNEL_LEASE_RENEW_MS: "300" });
    const lease = async () => (await t.ctx.database.db.select().from(connectionLeases).where(eq(connectionLeases.connectionId, conn.id)))[0];
    await expect.poll(async () => (await lease())?.ownerId, { timeout: 30_000, interval: 100 }).toBeTruthy();
    await expect
      .poll(async () => (await api(child!.url, `/simulator/${conn.id}/connection`, "POST", { state: "lost" })).status, { timeout: 30_000 })
      .toBe(200);
    const res = await api(child.url, `/messages/${ticket!.id}`, "POST", { body: "depois do reinício" });
    expect(res.status).toBe(201);
    const [queued] = (await res.json()) as MessageDTO[];
    const rowOf = async () => (await t.ctx.database.db.select().from(messages).where(eq(messages.id, queued!.id)))[0]!;
    expect(await rowOf()).toMatchObject({ status: "pending", dataJson: { queued: "waiting" } });

    child.child.kill("SIGKILL");
    expect(await child.exited).toBe("SIGKILL");
    // Still there, still waiting: nothing was lost with the process.
    expect(await rowOf()).toMatchObject({ status: "pending", dataJson: { queued: "waiting" } });

    // This process takes the connection over once the dead lease expires; the session comes back CONNECTED.
    await t.ctx.channels.start();
    await expect.poll(() => t.ctx.channels.isLocal(conn.id), { timeout: 30_000, interval: 100 }).toBe(true);
    await expect.poll(async () => (await rowOf()).status, { timeout: 30_000, interval: 100 }).toBe("sent");
    expect(phoneInbox(t.ctx, conn.id, phone).filter((b) => b === "depois do reinício")).toHaveLength(1);
    expect((await rowOf()).dataJson ?? {}).not.toHaveProperty("queued");
  }, 180_000);
});
