import { and, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DashboardResponse } from "@balcao/shared";
import type { ChannelAddress, InboundMessage } from "../../channels/types";
import { attendanceCycles, connections, contacts, settings, tickets, userQueues, users } from "../../db/schema";
import { buildContact, buildQueue, buildTenant, buildUser, login, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { automations } from "../chatbot/module";
import { pipelines } from "../messages/module";

/**
 * The counters move with the real ticket lifecycle (inbound messages, accept, transfer, return, resolve,
 * reopen, the rating answer): what the attendance cycles record through the API is what the dashboard reads.
 */

let t: TestApp;
let seq = 0;
const db = () => t.ctx.database.db;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const call = (s: Session, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: s.headers, ...(payload ? { payload } : {}) });
/**
 * The dashboard over today and yesterday (company-local days): the tests move instants up to 40 minutes back,
 * which in the first 40 minutes after local midnight lands in yesterday; a new company has nothing older.
 */
const today = async (s: Session): Promise<DashboardResponse> => {
  const res = await call(s, "GET", "/dashboard?days=2");
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

async function desk(options: { ratingMessage?: string; userRating?: "enabled" | "disabled" } = {}) {
  const tenant = await buildTenant(t.app);
  const companyId = tenant.company.id;
  const queue = await buildQueue(t.ctx, companyId);
  const other = await buildUser(t.ctx, companyId, { name: `Outro ${++seq}` });
  await db()
    .insert(userQueues)
    .values([
      { companyId, userId: tenant.user.id, queueId: queue.id },
      { companyId, userId: other.id, queueId: queue.id },
    ]);
  const [connection] = await db()
    .insert(connections)
    .values({ companyId, name: `Conexão ${++seq}`, isDefault: true, status: "CONNECTED", ratingMessage: options.ratingMessage ?? "" })
    .returning();
  if (options.userRating)
    await db()
      .update(settings)
      .set({ value: options.userRating })
      .where(and(eq(settings.companyId, companyId), eq(settings.key, "userRating")));
  return {
    ...tenant,
    queue,
    other,
    connection: connection!,
    userSession: await login(t.app, tenant.user.email),
    otherSession: await login(t.app, other.email),
    source: { companyId, connectionId: connection!.id },
  };
}
type Desk = Awaited<ReturnType<typeof desk>>;

const customer = (): ChannelAddress => ({
  id: `55119${String(60_000_000 + ++seq * 41).padStart(8, "0")}`,
  kind: "phone",
  pushName: `Cliente ${seq}`,
});
async function say(d: Desk, chat: ChannelAddress, body: string) {
  const message: InboundMessage = { providerMessageId: `WA-${++seq}-${Date.now()}`, chat, fromMe: false, kind: "chat", body, timestamp: new Date() };
  await pipelines.get(t.ctx)!.handle(d.source, { type: "message", message });
  await automations.get(t.ctx)!.idle();
}
async function lastTicket(d: Desk, chat: ChannelAddress) {
  const [row] = await db()
    .select({ ticket: tickets })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(and(eq(tickets.companyId, d.company.id), eq(contacts.number, chat.id)))
    .orderBy(desc(tickets.id))
    .limit(1);
  return row!.ticket;
}
const cyclesOf = (ticketId: number) =>
  db().select().from(attendanceCycles).where(eq(attendanceCycles.ticketId, ticketId)).orderBy(attendanceCycles.id);
/** Moves a cycle's instants back, as if `minutes` had passed since each. */
const age = (cycleId: number, minutes: number) =>
  db().execute(sql`
    update attendance_cycles set queued_at = queued_at - make_interval(mins => ${minutes}), started_at = started_at - make_interval(mins => ${minutes})
    where id = ${cycleId}`);

describe("the counters follow the ticket lifecycle", () => {
  it("a new customer waits (a lead); accept serves; a transfer keeps the start; the finisher is credited", async () => {
    const d = await desk();
    await db().update(users).set({ online: false }).where(eq(users.companyId, d.company.id));
    const chat = customer();
    await say(d, chat, "Oi, preciso de ajuda");
    const ticket = await lastTicket(d, chat);
    expect((await today(d.adminSession)).counters).toMatchObject({ supportPending: 1, supportHappening: 0, supportFinished: 0, leads: 1 });

    expect((await call(d.userSession, "PUT", `/tickets/${ticket.id}`, { status: "open" })).statusCode).toBe(200);
    let [cycle] = await cyclesOf(ticket.id);
    // 10 minutes in line, then 30 minutes with the first attendant before the transfer.
    await db().execute(
      sql`update attendance_cycles set queued_at = now() - interval '40 minutes', started_at = now() - interval '30 minutes' where id = ${cycle!.id}`,
    );
    const startedAt = (await cyclesOf(ticket.id))[0]!.startedAt!;
    expect((await today(d.adminSession)).counters).toMatchObject({ supportPending: 0, supportHappening: 1, avgWaitTime: 10 });

    const moved = await call(d.adminSession, "PUT", `/tickets/${ticket.id}`, { queueId: d.queue.id, userId: d.other.id });
    expect(moved.json()).toMatchObject({ status: "open", userId: d.other.id });
    [cycle] = await cyclesOf(ticket.id);
    expect(cycle).toMatchObject({ userId: d.other.id, startedAt, finishedAt: null });

    expect((await call(d.otherSession, "PUT", `/tickets/${ticket.id}`, { status: "closed" })).statusCode).toBe(200);
    const body = await today(d.adminSession);
    expect(body.counters).toMatchObject({ supportPending: 0, supportHappening: 0, supportFinished: 1, leads: 1, avgWaitTime: 10 });
    expect(body.counters.avgSupportTime).toBeGreaterThanOrEqual(30);
    expect(body.counters.avgSupportTime).toBeLessThan(31);
    const byId = Object.fromEntries(body.attendants.map((a) => [a.id, a]));
    expect(byId[d.other.id]).toMatchObject({ tickets: 1 });
    expect(byId[d.other.id]!.avgSupportTime).toBeGreaterThanOrEqual(30);
    expect(byId[d.user.id]).toMatchObject({ tickets: 0, avgSupportTime: null });

    // The same customer again: a new conversation waits, but is not a new lead.
    await say(d, chat, "Voltei");
    expect((await today(d.adminSession)).counters).toMatchObject({ supportPending: 1, leads: 1 });
  });

  it("returning a ticket to the queue waits again from the return; a reopen or a ticket the attendant opens never waited", async () => {
    const d = await desk();
    const chat = customer();
    await say(d, chat, "Bom dia");
    const ticket = await lastTicket(d, chat);
    await call(d.userSession, "PUT", `/tickets/${ticket.id}`, { status: "open" });
    await call(d.userSession, "PUT", `/tickets/${ticket.id}`, { status: "pending" });
    let [cycle] = await cyclesOf(ticket.id);
    expect(cycle).toMatchObject({ startedAt: null, userId: null, finishedAt: null });
    expect((await today(d.adminSession)).counters).toMatchObject({ supportPending: 1, supportHappening: 0 });
    await age(cycle!.id, 5);
    await call(d.otherSession, "PUT", `/tickets/${ticket.id}`, { status: "open" });
    await call(d.otherSession, "PUT", `/tickets/${ticket.id}`, { status: "closed" });
    let body = await today(d.adminSession);
    expect(body.counters.avgWaitTime).toBeGreaterThanOrEqual(5);
    expect(body.counters.avgWaitTime).toBeLessThan(6);

    // Reopened by an attendant: a new cycle with no time in line, and the contact is no new lead.
    await call(d.adminSession, "PUT", `/tickets/${ticket.id}`, { status: "open" });
    const cycles = await cyclesOf(ticket.id);
    expect(cycles).toHaveLength(2);
    expect(cycles[1]).toMatchObject({ queuedAt: null, firstOfContact: false, userId: d.admin.id });
    expect(cycles[0]).toMatchObject({ firstOfContact: true });

    // A ticket an attendant opens for a new contact: a lead, served at once, no wait.
    const contact = await buildContact(t.ctx, d.company.id);
    const created = await call(d.userSession, "POST", "/tickets", { contactId: contact.id, queueId: d.queue.id, whatsappId: d.connection.id });
    expect(created.statusCode, created.body).toBe(201);
    [cycle] = await cyclesOf(created.json().id);
    expect(cycle).toMatchObject({ queuedAt: null, firstOfContact: true, userId: d.user.id });
    body = await today(d.adminSession);
    expect(body.counters).toMatchObject({ supportHappening: 2, leads: 2 });
    // The average wait still has only the cycle that waited.
    expect(body.counters.avgWaitTime).toBeLessThan(6);
  });

  it("a rating answered 1–3 is the finishing attendant's, on that cycle; an invalid answer is no rating", async () => {
    const d = await desk({ ratingMessage: "Avalie nosso atendimento", userRating: "enabled" });
    const rated = customer();
    await say(d, rated, "Oi");
    const first = await lastTicket(d, rated);
    await call(d.userSession, "PUT", `/tickets/${first.id}`, { status: "open" });
    await call(d.userSession, "PUT", `/tickets/${first.id}`, { status: "closed" });
    await automations.get(t.ctx)!.idle();
    await say(d, rated, "9");
    await say(d, rated, "2");
    const unrated = customer();
    await say(d, unrated, "Olá");
    const second = await lastTicket(d, unrated);
    await call(d.otherSession, "PUT", `/tickets/${second.id}`, { status: "open" });
    await call(d.otherSession, "PUT", `/tickets/${second.id}`, { status: "closed" });

    const body = await today(d.adminSession);
    const byId = Object.fromEntries(body.attendants.map((a) => [a.id, a]));
    expect(byId[d.user.id]).toMatchObject({ tickets: 1, rating: 2, ratings: 1 });
    expect(byId[d.other.id]).toMatchObject({ tickets: 1, rating: null, ratings: 0 });
    expect(body.counters.supportFinished).toBe(2);
  });
});
