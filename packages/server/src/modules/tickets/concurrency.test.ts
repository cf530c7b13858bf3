import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attendanceCycles, connections, contacts, tickets, userQueues } from "../../db/schema";
import { buildCompany, buildQueue, buildUser, login, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

/** Issue 11: PUT /tickets/:id that changes nothing, and many attendants racing for one ticket, never 5xx. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let seq = 0;
async function desk(attendants: number) {
  const db = t.ctx.database.db;
  const company = await buildCompany(t.ctx);
  const queue = await buildQueue(t.ctx, company.id);
  const admin = await buildUser(t.ctx, company.id, { profile: "admin" });
  const users = await Promise.all(Array.from({ length: attendants }, () => buildUser(t.ctx, company.id)));
  if (users.length) await db.insert(userQueues).values(users.map((u) => ({ companyId: company.id, userId: u.id, queueId: queue.id })));
  const [connection] = await db
    .insert(connections)
    .values({ companyId: company.id, name: `Conexão ${++seq}`, isDefault: true, status: "CONNECTED" })
    .returning();
  const [contact] = await db
    .insert(contacts)
    .values({ companyId: company.id, name: `Cliente ${++seq}`, number: `55119${String(20_000_000 + seq)}` })
    .returning();
  const [ticket] = await db
    .insert(tickets)
    .values({ companyId: company.id, contactId: contact!.id, connectionId: connection!.id, queueId: queue.id, status: "pending", unreadMessages: 2 })
    .returning();
  // Distinct client addresses: 30 logins from one address would trip the login limiter's per-IP budget.
  const sessions: Session[] = [];
  for (const [i, u] of users.entries()) sessions.push(await login(t.app, u.email, undefined, `10.1.${Math.floor(i / 250)}.${(i % 250) + 1}`));
  return { company, queue, ticket: ticket!, admin: await login(t.app, admin.email, undefined, "10.2.0.1"), sessions, users };
}

const put = (s: Session, id: number, payload: object) => t.app.inject({ method: "PUT", url: `/api/tickets/${id}`, headers: s.headers, payload });

describe("PUT /tickets/:id that changes nothing", () => {
  it("answers 200 with the unchanged ticket for {}, the same status and the same queue", async () => {
    const d = await desk(1);
    const before = (await t.app.inject({ method: "GET", url: `/api/tickets/${d.ticket.id}`, headers: d.admin.headers })).json();
    for (const payload of [{}, { status: "pending" }, { queueId: d.queue.id }, { status: "pending", queueId: d.queue.id }, { userId: null }]) {
      const res = await put(d.admin, d.ticket.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(200);
      expect(res.json()).toEqual(before);
    }
    // Once open, the owner re-sending "open" is a no-op too.
    const accepted = await put(d.sessions[0]!, d.ticket.id, { status: "open" });
    expect(accepted.statusCode).toBe(200);
    const again = await put(d.sessions[0]!, d.ticket.id, { status: "open" });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(accepted.json());
    const closedTwice = [await put(d.sessions[0]!, d.ticket.id, { status: "closed" }), await put(d.sessions[0]!, d.ticket.id, { status: "closed" })];
    expect(closedTwice.map((r) => r.statusCode)).toEqual([200, 200]);
  });
});

describe("30 attendants accept one pending ticket at the same moment", () => {
  it("exactly one wins; the others get 409 ERR_TICKET_ALREADY_ACCEPTED; no 5xx; one attendance cycle", async () => {
    const d = await desk(30);
    const results = await Promise.all(d.sessions.map((s) => put(s, d.ticket.id, { status: "open" })));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    const winners = results.filter((r) => r.statusCode === 200);
    expect(winners).toHaveLength(1);
    const losers = results.filter((r) => r.statusCode !== 200);
    expect(losers).toHaveLength(29);
    for (const r of losers) {
      expect(r.statusCode).toBe(409);
      expect(r.json()).toMatchObject({ error: "ERR_TICKET_ALREADY_ACCEPTED" });
    }
    const winner = winners[0]!.json() as { userId: number; status: string; unreadMessages: number };
    expect(winner).toMatchObject({ status: "open", unreadMessages: 0 });
    const [row] = await t.ctx.database.db.select().from(tickets).where(eq(tickets.id, d.ticket.id));
    expect(row!.userId).toBe(winner.userId);
    const open = await t.ctx.database.db
      .select()
      .from(attendanceCycles)
      .where(and(eq(attendanceCycles.ticketId, d.ticket.id), isNull(attendanceCycles.finishedAt)));
    expect(open).toHaveLength(1);
    expect(open[0]!.userId).toBe(winner.userId);
  });

  it("racing resolves, returns and transfers of one ticket never 5xx", async () => {
    const d = await desk(6);
    const other = await buildQueue(t.ctx, d.company.id);
    await put(d.admin, d.ticket.id, { status: "open", userId: d.users[0]!.id, queueId: d.queue.id });
    const payloads = [{ status: "closed" }, { status: "pending" }, { queueId: other.id }, { status: "open" }, {}, { status: "closed" }];
    const results = await Promise.all([
      ...d.sessions.map((s, i) => put(s, d.ticket.id, payloads[i]!)),
      ...payloads.map((p) => put(d.admin, d.ticket.id, p)),
    ]);
    expect(results.map((r) => r.statusCode).filter((s) => s >= 500)).toEqual([]);
  });
});
