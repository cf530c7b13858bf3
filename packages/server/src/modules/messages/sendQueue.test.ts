/**
 * Issue 21, item 4: a reply queued while its connection is down does not wait forever. Once older than the
 * limit (SEND_QUEUE_MAX_AGE_MINUTES, 24 h by default) it is failed with retry and the reason
 * ERR_SEND_QUEUE_EXPIRED — by the minute expiry job while the connection stays down, and by the queue's run
 * when the connection comes back — instead of reaching the customer a day late. The queue's clock is the
 * test's (sendQueueOf(ctx).clock); the connection drops and comes back through the simulator's API.
 */
import { and, desc, eq } from "drizzle-orm";
import { afterEach, beforeAll, afterAll, describe, expect, it } from "vitest";
import type { AppMessageEvent, MessageDTO } from "@balcao/shared";
import { messages, tickets } from "../../db/schema";
import { buildTenant, collectEvents, connectSocket } from "../../test/factories";
import { phoneInbox } from "../../test/campaigns";
import { createTestApp, type TestApp } from "../../test/testApp";
import { pipelines } from "./module";
import { SEND_QUEUE_EXPIRED, sendQueueOf } from "./sendQueue";

const HOUR = 3_600_000;
let t: TestApp;
let tenant: Awaited<ReturnType<typeof buildTenant>>;
let connectionId: number;
let seq = 0;

const call = (method: "GET" | "POST", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: tenant.adminSession.headers, ...(payload ? { payload } : {}) });
const rowOf = async (id: number) => (await t.ctx.database.db.select().from(messages).where(eq(messages.id, id)))[0]!;
const queue = () => sendQueueOf(t.ctx);
/** The queue's clock, `hours` after the real one. */
const later = (hours: number) => (queue().clock = () => new Date(Date.now() + hours * HOUR));

async function connection(state: "lost" | "back") {
  const res = await call("POST", `/simulator/${connectionId}/connection`, { state });
  expect(res.statusCode, res.body).toBe(200);
}

/** The company's simulator connection, scanned and run by this process (made by the first test that needs it). */
async function live(): Promise<void> {
  if (connectionId) return;
  const conn = (await call("POST", "/whatsapp", { name: "Fila com prazo" })).json() as { id: number; qrcode: string };
  expect((await call("POST", `/simulator/${conn.id}/scan`, { code: conn.qrcode })).statusCode).toBe(200);
  await expect.poll(() => t.ctx.channels.isLocal(conn.id), { timeout: 15_000 }).toBe(true);
  connectionId = conn.id;
}

/** A customer writes; the admin accepts the ticket. Returns the ticket id and the customer's number. */
async function conversation(): Promise<{ ticketId: number; phone: string }> {
  await live();
  const phone = `551196655${String(1000 + ++seq)}`;
  await pipelines.get(t.ctx)!.handle(
    { companyId: tenant.company.id, connectionId },
    {
      type: "message",
      message: {
        providerMessageId: `SQ-${seq}`,
        chat: { id: phone, kind: "phone", pushName: "Cliente" },
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
    .where(and(eq(tickets.companyId, tenant.company.id), eq(tickets.connectionId, connectionId)))
    .orderBy(desc(tickets.id))
    .limit(1);
  const accepted = await t.app.inject({
    method: "PUT",
    url: `/api/tickets/${row!.id}`,
    headers: tenant.adminSession.headers,
    payload: { status: "open", userId: tenant.admin.id },
  });
  expect(accepted.statusCode).toBe(200);
  return { ticketId: row!.id, phone };
}

async function reply(ticketId: number, body: string): Promise<MessageDTO> {
  const res = await call("POST", `/messages/${ticketId}`, { body });
  expect(res.statusCode, res.body).toBe(201);
  const [m] = res.json() as MessageDTO[];
  expect(m).toMatchObject({ body, status: "pending" });
  return m!;
}

async function listed(ticketId: number, id: number): Promise<MessageDTO | undefined> {
  const res = await call("GET", `/messages/${ticketId}`);
  expect(res.statusCode).toBe(200);
  return (res.json() as { messages: MessageDTO[] }).messages.find((m) => m.id === id);
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0", JOBS_POLL_SECONDS: "0.5" });
  tenant = await buildTenant(t.app);
});

afterEach(async () => {
  queue().clock = () => new Date();
  // Back up for the next test (a refused no-op when it already is).
  if (connectionId) await call("POST", `/simulator/${connectionId}/connection`, { state: "back" });
});

afterAll(() => t.close());

describe("a queued reply expires (SEND_QUEUE_MAX_AGE_MINUTES, 24 h by default)", () => {
  it("while the connection stays down: failed with retry and ERR_SEND_QUEUE_EXPIRED after 24 h, not before; the retry sends it once", async () => {
    expect(t.ctx.config.sendQueueMaxAgeMs).toBe(24 * HOUR);
    const { ticketId, phone } = await conversation();
    await connection("lost");
    const m = await reply(ticketId, "ainda serve?");
    expect((await rowOf(m.id)).dataJson).toMatchObject({ queued: "waiting" });
    const socket = await connectSocket(t.app, tenant.adminSession.token);
    const updates = collectEvents<AppMessageEvent>(socket, "appMessage");
    try {
      // 23 h later it still waits.
      later(23);
      expect(await queue().expireAll(t.ctx.services.messages)).toBe(0);
      expect(await listed(ticketId, m.id)).toMatchObject({ status: "pending" });
      // 25 h later the minute job fails it, with its reason; the attendant's screen hears of it.
      later(25);
      expect(await queue().expireAll(t.ctx.services.messages)).toBe(1);
      const failed = await listed(ticketId, m.id);
      expect(failed).toMatchObject({ status: "failed", failureReason: SEND_QUEUE_EXPIRED });
      expect(SEND_QUEUE_EXPIRED).toBe("ERR_SEND_QUEUE_EXPIRED");
      await expect
        .poll(() => updates.some((u) => u.action === "update" && u.message.id === m.id && u.message.status === "failed"), { timeout: 10_000 })
        .toBe(true);
      expect((await rowOf(m.id)).dataJson ?? {}).not.toHaveProperty("queued");
      // Nothing goes when the connection is back…
      await connection("back");
      expect(await queue().expireAll(t.ctx.services.messages)).toBe(0);
      await queue().flush(t.ctx.services.messages, { companyId: tenant.company.id, connectionId });
      expect(phoneInbox(t.ctx, connectionId, phone)).not.toContain("ainda serve?");
      // …until the attendant retries it: sent once, without the old reason.
      const retried = await call("POST", `/messages/${m.id}/retry`);
      expect(retried.statusCode, retried.body).toBe(200);
      expect(retried.json()).toMatchObject({ id: m.id, status: "sent" });
      expect(retried.json()).not.toHaveProperty("failureReason");
      expect(phoneInbox(t.ctx, connectionId, phone).filter((b) => b === "ainda serve?")).toHaveLength(1);
    } finally {
      socket.disconnect();
    }
  });

  it("when the connection comes back after the limit: it is failed instead of sent; a younger reply still goes", async () => {
    const { ticketId, phone } = await conversation();
    const other = await conversation();
    await connection("lost");
    const old = await reply(ticketId, "de ontem");
    // The first reply is written a day before the second: the queue's clock moves between them.
    later(25);
    const young = await reply(other.ticketId, "de agora");
    await t.ctx.database.db
      .update(messages)
      .set({ createdAt: new Date(Date.now() + 25 * HOUR) })
      .where(eq(messages.id, young.id));
    await connection("back");
    await expect.poll(async () => [(await rowOf(old.id)).status, (await rowOf(young.id)).status], { timeout: 15_000 }).toEqual(["failed", "sent"]);
    expect(await listed(ticketId, old.id)).toMatchObject({ status: "failed", failureReason: SEND_QUEUE_EXPIRED });
    expect(phoneInbox(t.ctx, connectionId, phone)).not.toContain("de ontem");
    expect(phoneInbox(t.ctx, connectionId, other.phone).filter((b) => b === "de agora")).toHaveLength(1);
  });
});
