/**
 * Two app instances on one database, each with its own pool like two processes behind a load balancer: a
 * reply posted to the process that does not run the connection is delivered by the one that does.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type App } from "../../app";
import { createContext, type AppContext } from "../../context";
import { openDatabase, type Database } from "../../db/client";
import { connectionLeases, connections, messages, tickets } from "../../db/schema";
import { buildTenant, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { pipelines } from "./module";

let t: TestApp;
let second: { app: App; ctx: AppContext; database: Database };
let tenant: Awaited<ReturnType<typeof buildTenant>>;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0", SEND_RELAY_TIMEOUT_MS: "1500" });
  const pool = t.ctx.database.pool as unknown as { options: { connectionString: string } };
  const database = await openDatabase({ databaseUrl: pool.options.connectionString });
  const ctx = createContext(t.config, database);
  const app = await buildApp(ctx);
  await app.ready();
  second = { app, ctx, database };
  tenant = await buildTenant(t.app);
});

afterAll(async () => {
  await second.app.close();
  await second.database.close();
  await t.close();
});

const call = (app: App, session: Session, method: "GET" | "POST", url: string, payload?: object) =>
  app.inject({ method, url: `/api${url}`, headers: session.headers, ...(payload ? { payload } : {}) });

/** A customer writes on the connection; returns the ticket. */
async function ticketOn(connectionId: number) {
  await pipelines.get(t.ctx)!.handle(
    { companyId: tenant.company.id, connectionId },
    {
      type: "message",
      message: {
        providerMessageId: `R-${++seq}`,
        chat: { id: `551198877${String(1000 + seq)}`, kind: "phone", pushName: "Rita" },
        fromMe: false,
        kind: "chat",
        body: "oi",
        timestamp: new Date(),
      },
    },
  );
  const [row] = await t.ctx.database.db
    .select()
    .from(tickets)
    .where(and(eq(tickets.companyId, tenant.company.id), eq(tickets.connectionId, connectionId)));
  const accepted = await t.app.inject({
    method: "PUT",
    url: `/api/tickets/${row!.id}`,
    headers: tenant.adminSession.headers,
    payload: { status: "open", userId: tenant.admin.id },
  });
  expect(accepted.statusCode).toBe(200);
  return row!;
}

describe("sends through the connection's owner", () => {
  it("a reply posted to the other process is delivered by the owner, with the owner's result", async () => {
    const conn = (await call(t.app, tenant.adminSession, "POST", "/whatsapp", { name: `Relé ${++seq}` })).json();
    await call(t.app, tenant.adminSession, "POST", `/simulator/${conn.id}/scan`, { code: conn.qrcode });
    await expect.poll(() => t.ctx.channels.isLocal(conn.id)).toBe(true);
    expect(second.ctx.channels.isLocal(conn.id)).toBe(false);
    const ticket = await ticketOn(conn.id);
    const res = await call(second.app, tenant.adminSession, "POST", `/messages/${ticket.id}`, { body: "Resposta pelo outro nó" });
    expect(res.statusCode).toBe(201);
    const [row] = await t.ctx.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, true)));
    expect(row).toMatchObject({ body: expect.stringContaining("Resposta pelo outro nó"), status: "sent" });
    expect(row!.providerMessageId).toBeTruthy();
  });

  it("an owner that never answers leaves the message failed (with retry) and the caller gets the send error", async () => {
    const [conn] = await t.ctx.database.db
      .insert(connections)
      .values({ companyId: tenant.company.id, name: `Fantasma ${++seq}`, channel: "simulator", status: "CONNECTED", token: `ghost-${seq}` })
      .returning();
    await t.ctx.database.db
      .insert(connectionLeases)
      .values({ connectionId: conn!.id, companyId: tenant.company.id, ownerId: "ghost:1:dead", expiresAt: new Date(Date.now() + 60_000) });
    const ticket = await ticketOn(conn!.id);
    const res = await call(second.app, tenant.adminSession, "POST", `/messages/${ticket.id}`, { body: "Ninguém entrega" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "ERR_SENDING_WAPP_MSG" });
    const [row] = await t.ctx.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, true)));
    expect(row!.status).toBe("failed");
  });
});
