/**
 * Timed queue transfer through the outbox and the job runner, with two app instances on one database (each
 * with its own pool, like two processes). Time passes by moving the job's due time, not by waiting minutes.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TicketEvent } from "@balcao/shared";
import { buildApp, type App } from "../../app";
import type { ChannelAddress } from "../../channels/types";
import { createContext, type AppContext } from "../../context";
import { openDatabase, type Database } from "../../db/client";
import { connections, tickets, userQueues } from "../../db/schema";
import { buildQueue, buildTenant, buildUser, connectSocket, login, nextEventWhere } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { pipelines } from "../messages/module";
import { QUEUE_TRANSFER_JOB } from "./queueTransfer";

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 50 });

let t: TestApp;
let second: { app: App; ctx: AppContext; database: Database };
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ JOBS_POLL_SECONDS: "0.5" });
  const pool = t.ctx.database.pool as unknown as { options: { connectionString: string } };
  const database = await openDatabase({ databaseUrl: pool.options.connectionString });
  const ctx = createContext({ ...t.config, jobs: { pollSeconds: 0.5 } }, database);
  const app = await buildApp(ctx);
  await app.ready();
  second = { app, ctx, database };
});

afterAll(async () => {
  await second.app.close();
  await second.database.close();
  await t.close();
});

const db = () => t.ctx.database.db;
const pool = () => t.ctx.database.pool!;

async function desk(timeSendQueue: number) {
  const tenant = await buildTenant(t.app);
  const companyId = tenant.company.id;
  const queue = await buildQueue(t.ctx, companyId, { name: `Suporte ${++seq}` });
  const [connection] = await db()
    .insert(connections)
    .values({ companyId, name: `Conexão ${++seq}`, isDefault: true, status: "CONNECTED", greetingMessage: "", timeSendQueue, sendIdQueue: queue.id })
    .returning();
  return { ...tenant, queue, connection: connection!, source: { companyId, connectionId: connection!.id } };
}

const customer = (): ChannelAddress => ({ id: `55119${String(70_000_000 + ++seq * 41).padStart(8, "0")}`, kind: "phone", pushName: "Bia" });

async function customerWrites(d: Awaited<ReturnType<typeof desk>>, chat: ChannelAddress) {
  await pipelines.get(t.ctx)!.handle(d.source, {
    type: "message",
    message: { providerMessageId: `QT-${++seq}`, chat, fromMe: false, kind: "chat", body: "oi", timestamp: new Date() },
  });
  const [row] = await db()
    .select()
    .from(tickets)
    .where(and(eq(tickets.companyId, d.company.id), eq(tickets.connectionId, d.connection.id)));
  return row!;
}

async function jobsOf(ticketId: number) {
  const { rows } = await pool().query<{ id: string; state: string; start_after: Date }>(
    "select id, state, start_after from pgboss.job where name = $1 and singleton_key = $2 order by created_on",
    [QUEUE_TRANSFER_JOB, `ticket:${ticketId}`],
  );
  return rows;
}

/** The clock moves: the waiting job becomes due now. */
const makeDue = (ticketId: number) =>
  pool().query("update pgboss.job set start_after = now() where name = $1 and singleton_key = $2 and state = 'created'", [
    QUEUE_TRANSFER_JOB,
    `ticket:${ticketId}`,
  ]);

describe("timed queue transfer (timeSendQueue → sendIdQueue)", () => {
  it("schedules one job per waiting ticket, due timeSendQueue minutes later, however often it is updated", async () => {
    const d = await desk(5);
    const chat = customer();
    const before = Date.now();
    const ticket = await customerWrites(d, chat);
    await customerWrites(d, chat);
    await t.ctx.events.drain();
    await second.ctx.events.drain();
    await poll(async () => (await jobsOf(ticket.id)).length).toBe(1);
    const [job] = await jobsOf(ticket.id);
    expect(job!.state).toBe("created");
    const dueIn = job!.start_after.getTime() - before;
    expect(dueIn).toBeGreaterThan(4.5 * 60_000);
    expect(dueIn).toBeLessThan(5.5 * 60_000);
  });

  it("moves a ticket still waiting without a queue, exactly once across two processes, and tells the queue's sockets", async () => {
    const d = await desk(1);
    const attendant = await buildUser(t.ctx, d.company.id, { profile: "user" });
    await db().insert(userQueues).values({ companyId: d.company.id, userId: attendant.id, queueId: d.queue.id });
    const session = await login(t.app, attendant.email);
    const socket = await connectSocket(t.app, session.token);
    try {
      const ticket = await customerWrites(d, customer());
      await t.ctx.events.drain();
      await poll(async () => (await jobsOf(ticket.id)).length).toBe(1);
      const arrived = nextEventWhere<TicketEvent>(socket, "ticket", (e) => e.action === "update" && e.ticket.id === ticket.id, 10_000);
      await makeDue(ticket.id);
      const event = await arrived;
      expect(event).toMatchObject({ action: "update", ticket: { id: ticket.id, queueId: d.queue.id, status: "pending" } });
      const [moved] = await db().select().from(tickets).where(eq(tickets.id, ticket.id));
      expect(moved!.queueId).toBe(d.queue.id);
      await poll(async () => (await jobsOf(ticket.id)).map((j) => j.state)).toEqual(["completed"]);
      // Two runners polled the same queue; the job ran once and the ticket was updated once.
      const { rows } = await pool().query(
        "select count(*)::int as n from outbox_events where type = 'tickets.updated' and (payload->'ticket'->>'id')::int = $1 and payload->'ticket'->>'queueId' is not null",
        [ticket.id],
      );
      expect(rows[0].n).toBe(1);
    } finally {
      socket.disconnect();
    }
  });

  it("leaves alone a ticket an attendant took meanwhile", async () => {
    const d = await desk(1);
    const ticket = await customerWrites(d, customer());
    await t.ctx.events.drain();
    await poll(async () => (await jobsOf(ticket.id)).length).toBe(1);
    const accepted = await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket.id}`,
      headers: d.adminSession.headers,
      payload: { status: "open", userId: d.admin.id },
    });
    expect(accepted.statusCode).toBe(200);
    await makeDue(ticket.id);
    await poll(async () => (await jobsOf(ticket.id)).map((j) => j.state)).toEqual(["completed"]);
    const [row] = await db().select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row).toMatchObject({ status: "open", queueId: null, userId: d.admin.id });
  });

  it("schedules nothing when the connection's timer is off", async () => {
    const d = await desk(0);
    const ticket = await customerWrites(d, customer());
    await t.ctx.events.drain();
    await new Promise((r) => setTimeout(r, 300));
    expect(await jobsOf(ticket.id)).toEqual([]);
  });
});
