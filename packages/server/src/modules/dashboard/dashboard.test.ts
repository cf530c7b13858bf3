import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DashboardResponse } from "@balcao/shared";
import { attendanceCycles, companies, connections, contacts, tickets, users } from "../../db/schema";
import { buildCompany, buildQueue, buildUser, login, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { dashboardSql, type DailySums } from "./service";

/**
 * The dashboard's definitions (docs/decisions.md, "Dashboard indicators") against hand-built attendance
 * histories: each cycle's instants are written directly, so every expected figure is worked out below.
 */

let t: TestApp;
let seq = 0;
const db = () => t.ctx.database.db;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = (s: Session | null, url: string) => t.app.inject({ method: "GET", url: `/api${url}`, headers: s ? s.headers : {} });
const dashboard = async (s: Session, qs: string): Promise<DashboardResponse> => {
  const res = await get(s, `/dashboard?${qs}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

async function desk(timeZone = "America/Sao_Paulo") {
  const company = await buildCompany(t.ctx, { timeZone, dueDate: "2030-01-31" });
  const admin = await buildUser(t.ctx, company.id, { profile: "admin", name: "Zélia Admin" });
  const u1 = await buildUser(t.ctx, company.id, { name: "Ana Atendente" });
  const u2 = await buildUser(t.ctx, company.id, { name: "Bruno Atendente" });
  const queue = await buildQueue(t.ctx, company.id, { name: `Vendas ${++seq}` });
  const [connection] = await db()
    .insert(connections)
    .values({ companyId: company.id, name: `Conexão ${++seq}`, isDefault: true })
    .returning();
  return {
    company,
    admin,
    u1,
    u2,
    queue,
    connection: connection!,
    adminSession: await login(t.app, admin.email),
    userSession: await login(t.app, u1.email),
  };
}
type Desk = Awaited<ReturnType<typeof desk>>;

interface CycleSpec {
  user?: number | null;
  queued?: string | null;
  started?: string | null;
  finished?: string | null;
  rating?: number;
  ratingAt?: string;
  /** The contact of another cycle of this history (a returning customer); default a new contact. */
  contactOf?: number;
}

/** Writes one ticket and one attendance cycle per spec; returns the contact id of each (for contactOf). */
async function history(d: Desk, specs: CycleSpec[]): Promise<number[]> {
  const contactIds: number[] = [];
  for (const s of specs) {
    let contactId = s.contactOf !== undefined ? contactIds[s.contactOf]! : undefined;
    const returning = contactId !== undefined;
    if (!contactId) {
      const [c] = await db()
        .insert(contacts)
        .values({ companyId: d.company.id, name: `Cliente ${++seq}`, number: `55119${String(70_000_000 + ++seq)}` })
        .returning();
      contactId = c!.id;
    }
    contactIds.push(contactId);
    const status = s.finished ? "closed" : s.started ? "open" : "pending";
    const created = new Date((s.queued ?? s.started ?? s.finished)!);
    const [ticket] = await db()
      .insert(tickets)
      .values({
        companyId: d.company.id,
        contactId,
        connectionId: d.connection.id,
        queueId: d.queue.id,
        status,
        userId: s.user ?? null,
        createdAt: created,
      })
      .returning();
    await db()
      .insert(attendanceCycles)
      .values({
        companyId: d.company.id,
        ticketId: ticket!.id,
        connectionId: d.connection.id,
        queueId: d.queue.id,
        userId: s.user ?? null,
        queuedAt: s.queued ? new Date(s.queued) : null,
        startedAt: s.started ? new Date(s.started) : null,
        finishedAt: s.finished ? new Date(s.finished) : null,
        rating: s.rating ?? null,
        rated: s.rating !== undefined,
        ratingAt: s.rating !== undefined ? new Date(s.ratingAt ?? s.finished!) : null,
        firstOfContact: !returning,
        createdAt: created,
      });
  }
  return contactIds;
}

/** Local midnight (as an instant) of `date` in `timeZone`, as PostgreSQL computes it. */
async function localMidnight(date: string, timeZone: string): Promise<Date> {
  const result = await db().execute(sql`select (${date}::date::timestamp at time zone ${timeZone}) as t`);
  const rows = (Array.isArray(result) ? result : (result as unknown as { rows: { t: Date }[] }).rows) as { t: Date }[];
  return new Date(rows[0]!.t);
}

async function localToday(timeZone: string): Promise<string> {
  const result = await db().execute(sql`select (now() at time zone ${timeZone})::date::text as d`);
  const rows = (Array.isArray(result) ? result : (result as unknown as { rows: { d: string }[] }).rows) as { d: string }[];
  return rows[0]!.d;
}

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** 10 March 2025 in São Paulo (UTC−3) at hh:mm[:ss]. */
const sp = (day: number, time: string) => `2025-03-${String(day).padStart(2, "0")}T${time.length === 5 ? `${time}:00` : time}-03:00`;

describe("GET /dashboard: counters of one day in São Paulo", () => {
  let d: Desk;
  let foreign: Desk;
  beforeAll(async () => {
    d = await desk();
    const build = (x: Desk): CycleSpec[] => [
      // M: 02:00–02:30 UTC of the 10th is the evening of the 9th in São Paulo.
      { user: x.u1.id, queued: "2025-03-10T02:00:00Z", started: "2025-03-10T02:10:00Z", finished: "2025-03-10T02:30:00Z" },
      // A: a plain day's cycle, rated 3.
      { user: x.u1.id, queued: sp(10, "09:00"), started: sp(10, "09:10"), finished: sp(10, "09:40"), rating: 3 },
      // B: queued before midnight, served after: its wait (15) and support (30) count on the 10th; rated the next day.
      { user: x.u2.id, queued: sp(9, "23:50"), started: sp(10, "00:05"), finished: sp(10, "00:35"), rating: 1, ratingAt: sp(11, "09:00") },
      // C: started on the 10th, finished after midnight: its wait counts, its finish does not.
      { user: x.u1.id, queued: sp(10, "23:40"), started: sp(10, "23:50"), finished: sp(11, "00:20") },
      // D: finished one minute before midnight.
      { user: x.u2.id, queued: sp(10, "20:00"), started: sp(10, "20:20"), finished: sp(10, "23:59") },
      // E: finished exactly at midnight: the end is exclusive.
      { user: x.u1.id, queued: sp(10, "22:00"), started: sp(10, "22:30"), finished: sp(11, "00:00") },
      // F: waiting since the 10th.  G: waiting since the 9th (another period).
      { queued: sp(10, "10:00") },
      { queued: sp(9, "10:00") },
      // H: in progress since the 10th.  I: in progress since the 9th.
      { user: x.u1.id, queued: sp(10, "11:00"), started: sp(10, "11:05") },
      { user: x.u2.id, queued: sp(9, "10:00"), started: sp(9, "10:30") },
      // J: opened by an attendant (never queued): support counts, no wait.
      { user: x.u2.id, queued: null, started: sp(10, "14:00"), finished: sp(10, "14:10") },
      // K: resolved while still waiting (never started): finished, no support time; a returning contact (of M).
      { user: x.u1.id, queued: sp(10, "15:00"), finished: sp(10, "15:30"), contactOf: 0 },
      // L: 00:30–01:00 UTC of the 11th is 21:30–22:00 of the 10th in São Paulo.
      { user: x.u2.id, queued: "2025-03-11T00:30:00Z", started: "2025-03-11T00:40:00Z", finished: "2025-03-11T01:00:00Z", rating: 2 },
    ];
    await history(d, build(d));
    // Logging in marks a user online; these attendants are away.
    await db()
      .update(users)
      .set({ online: false })
      .where(sql`${users.companyId} = ${d.company.id}`);
    // Another company with the same history on the same day, and users of its own.
    foreign = await desk();
    await history(foreign, build(foreign));
  });

  it("counts each cycle once, by the instant that defines each counter, in the company's day", async () => {
    const body = await dashboard(d.adminSession, "date_from=2025-03-10&date_to=2025-03-10");
    expect(body.period).toEqual({ from: "2025-03-10", to: "2025-03-10", timeZone: "America/Sao_Paulo" });
    expect(body.counters).toEqual({
      // F only (G waits since the 9th).
      supportPending: 1,
      // H only (I started on the 9th; the others started on the 10th are finished).
      supportHappening: 1,
      // A, B, D, J, K, L (C and E finish on the 11th, M on the 9th).
      supportFinished: 6,
      // First cycles begun on the 10th: A, C, D, E, F, H, J, L (B began on the 9th; K's contact came first in M).
      leads: 8,
      // A 30, B 30, D 219, J 10, L 20 (K never started): 309 / 5.
      avgSupportTime: 61.8,
      // Started on the 10th and queued: A 10, B 15, C 10, D 20, E 30, H 5, L 10 (J never queued): 100 / 7.
      avgWaitTime: 14.3,
    });
    expect(body.company).toEqual({ dueDate: "2030-01-31" });
  });

  it("lists every attendant of the company by name with the cycles they finished, their ratings by cycle", async () => {
    const body = await dashboard(d.adminSession, "date_from=2025-03-10&date_to=2025-03-10");
    expect(body.attendants).toEqual([
      // A (30, rated 3) and K (never started).
      { id: d.u1.id, name: "Ana Atendente", tickets: 2, avgSupportTime: 30, rating: 3, ratings: 1, online: false },
      // B (30, rated 1 the next day), D (219), J (10), L (20, rated 2): 279 / 4; (1 + 2) / 2.
      { id: d.u2.id, name: "Bruno Atendente", tickets: 4, avgSupportTime: 69.8, rating: 1.5, ratings: 2, online: false },
      { id: d.admin.id, name: "Zélia Admin", tickets: 0, avgSupportTime: null, rating: null, ratings: 0, online: false },
    ]);
  });

  it("open ends: from a day on, and up to a day", async () => {
    const from = await dashboard(d.adminSession, "date_from=2025-03-10");
    expect(from.period).toMatchObject({ from: "2025-03-10", to: null });
    // + C and E (finished on the 11th).
    expect(from.counters.supportFinished).toBe(8);
    const upTo = await dashboard(d.adminSession, "date_to=2025-03-09");
    expect(upTo.period).toMatchObject({ from: null, to: "2025-03-09" });
    // M only; G waits, I is in progress since the 9th.
    expect(upTo.counters).toMatchObject({ supportFinished: 1, supportPending: 1, supportHappening: 1, avgSupportTime: 20 });
    const empty = await dashboard(d.adminSession, "date_from=2025-03-01&date_to=2025-03-05");
    expect(empty.counters).toEqual({ supportPending: 0, supportHappening: 0, supportFinished: 0, leads: 0, avgSupportTime: null, avgWaitTime: null });
    expect(empty.attendants.every((a) => a.tickets === 0 && a.rating === null)).toBe(true);
  });

  it("never mixes companies: the same history elsewhere changes nothing, and its people are not listed", async () => {
    const mine = await dashboard(d.adminSession, "date_from=2025-03-10&date_to=2025-03-10");
    const theirs = await dashboard(foreign.adminSession, "date_from=2025-03-10&date_to=2025-03-10");
    expect(theirs.counters).toEqual(mine.counters);
    expect(mine.attendants.map((a) => a.id)).toEqual([d.u1.id, d.u2.id, d.admin.id]);
    expect(theirs.attendants.map((a) => a.id)).toEqual([foreign.u1.id, foreign.u2.id, foreign.admin.id]);
    // A companyId in the query is not a parameter of this endpoint: the token's company is used.
    const forged = await dashboard(d.adminSession, `date_from=2025-03-10&date_to=2025-03-10&companyId=${foreign.company.id}`);
    expect(forged.attendants.map((a) => a.id)).toEqual([d.u1.id, d.u2.id, d.admin.id]);
  });
});

describe("GET /dashboard: time zones", () => {
  it("the same instants fall on different days for companies in different zones", async () => {
    const saoPaulo = await desk("America/Sao_Paulo");
    const tokyo = await desk("Asia/Tokyo");
    // 17:00 of the 10th in São Paulo; 05:00 of the 11th in Tokyo.
    for (const x of [saoPaulo, tokyo])
      await history(x, [{ user: x.u1.id, queued: "2025-03-10T19:00:00Z", started: "2025-03-10T19:30:00Z", finished: "2025-03-10T20:00:00Z" }]);
    const day = (s: Session, date: string) => dashboard(s, `date_from=${date}&date_to=${date}`);
    expect((await day(saoPaulo.adminSession, "2025-03-10")).counters.supportFinished).toBe(1);
    expect((await day(tokyo.adminSession, "2025-03-10")).counters.supportFinished).toBe(0);
    expect((await day(tokyo.adminSession, "2025-03-11")).counters).toMatchObject({
      supportFinished: 1,
      avgSupportTime: 30,
      avgWaitTime: 30,
      leads: 1,
    });
    expect((await day(tokyo.adminSession, "2025-03-11")).period.timeZone).toBe("Asia/Tokyo");
  });

  it("a day with a daylight-saving change runs from local midnight to local midnight (23 hours)", async () => {
    const ny = await desk("America/New_York");
    await history(ny, [
      // 23:30 EST of the 8th: another day.
      { user: ny.u1.id, queued: "2025-03-09T04:00:00Z", started: "2025-03-09T04:10:00Z", finished: "2025-03-09T04:30:00Z" },
      // 00:30 EST of the 9th.
      { user: ny.u1.id, queued: "2025-03-09T05:00:00Z", started: "2025-03-09T05:10:00Z", finished: "2025-03-09T05:30:00Z" },
      // 23:30 EDT of the 9th (clocks went forward at 02:00).
      { user: ny.u1.id, queued: "2025-03-10T03:00:00Z", started: "2025-03-10T03:10:00Z", finished: "2025-03-10T03:30:00Z" },
      // 00:30 EDT of the 10th.
      { user: ny.u1.id, queued: "2025-03-10T04:00:00Z", started: "2025-03-10T04:10:00Z", finished: "2025-03-10T04:30:00Z" },
    ]);
    expect((await dashboard(ny.adminSession, "date_from=2025-03-09&date_to=2025-03-09")).counters.supportFinished).toBe(2);
  });
});

describe("GET /dashboard: relative periods, today's chart, presence", () => {
  it("days=N is the last N calendar days including today, in the company's zone", async () => {
    const d = await desk("America/Sao_Paulo");
    const today = await localToday("America/Sao_Paulo");
    const firstDay = await localMidnight(addDays(today, -2), "America/Sao_Paulo");
    const minute = 60_000;
    const at = (base: Date, offsetMinutes: number) => new Date(base.getTime() + offsetMinutes * minute).toISOString();
    await history(d, [
      // One minute into the first of the 3 days: in.
      { user: d.u1.id, queued: at(firstDay, -30), started: at(firstDay, -20), finished: at(firstDay, 1) },
      // One minute before it: out.
      { user: d.u1.id, queued: at(firstDay, -30), started: at(firstDay, -20), finished: at(firstDay, -1) },
    ]);
    const body = await dashboard(d.adminSession, "days=3");
    expect(body.period).toEqual({ from: addDays(today, -2), to: today, timeZone: "America/Sao_Paulo" });
    expect(body.counters.supportFinished).toBe(1);
    // days wins over dates given beside it.
    expect((await dashboard(d.adminSession, "days=3&date_from=2020-01-01&date_to=2020-01-02")).period.from).toBe(addDays(today, -2));
  });

  it("'Atendimentos hoje': cycles begun today, by local hour, whatever the filter", async () => {
    const d = await desk("America/Sao_Paulo");
    const today = await localToday("America/Sao_Paulo");
    const midnight = await localMidnight(today, "America/Sao_Paulo");
    const at = (minutes: number) => new Date(midnight.getTime() + minutes * 60_000).toISOString();
    await history(d, [
      { queued: at(30) },
      { queued: at(9 * 60 + 5), started: at(9 * 60 + 6), user: d.u1.id },
      { queued: at(9 * 60 + 50), started: at(9 * 60 + 55), finished: at(10 * 60), user: d.u1.id },
      { queued: at(23 * 60 + 59) },
      // Yesterday 23:59 and tomorrow 00:00: not today.
      { queued: at(-1) },
      { queued: at(24 * 60) },
    ]);
    const body = await dashboard(d.adminSession, "date_from=2020-01-01&date_to=2020-01-31");
    expect(body.today.date).toBe(today);
    expect(body.today.total).toBe(4);
    expect(body.today.hours).toHaveLength(24);
    const expected = Array.from({ length: 24 }, () => 0);
    expected[0] = 1;
    expected[9] = 2;
    expected[23] = 1;
    expect(body.today.hours).toEqual(expected);
  });

  it("online: the presence flag while the status ping is recent (10 minutes)", async () => {
    const d = await desk();
    await db()
      .update(users)
      .set({ online: false })
      .where(sql`${users.id} = ${d.admin.id}`);
    await db()
      .update(users)
      .set({ online: true, lastSeenAt: new Date() })
      .where(sql`${users.id} = ${d.u1.id}`);
    await db()
      .update(users)
      .set({ online: true, lastSeenAt: new Date(Date.now() - 20 * 60_000) })
      .where(sql`${users.id} = ${d.u2.id}`);
    const body = await dashboard(d.adminSession, "days=7");
    expect(Object.fromEntries(body.attendants.map((a) => [a.id, a.online]))).toEqual({ [d.u1.id]: true, [d.u2.id]: false, [d.admin.id]: false });
  });
});

describe("GET /dashboard: access and validation", () => {
  it("admins only: a profile-user gets 403, no token 401", async () => {
    const d = await desk();
    expect((await get(d.userSession, "/dashboard?days=7")).statusCode).toBe(403);
    expect((await get(d.userSession, "/dashboard?days=7")).json()).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await get(null, "/dashboard?days=7")).statusCode).toBe(401);
    expect((await get(d.adminSession, "/dashboard?days=7")).statusCode).toBe(200);
  });

  it("an empty filter is 'Parametrize o filtro'; bad values are 400, never 500", async () => {
    const d = await desk();
    for (const qs of ["", "days=&date_from=&date_to="]) {
      const res = await get(d.adminSession, `/dashboard?${qs}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe("Parametrize o filtro");
    }
    const reversed = await get(d.adminSession, "/dashboard?date_from=2025-03-10&date_to=2025-03-09");
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().error).toBe("ERR_INVALID_DATE_RANGE");
    for (const qs of [
      "days=0",
      "days=-3",
      "days=abc",
      "days=1.5",
      "days=99999",
      "date_from=2025-02-30",
      "date_to=10/03/2025",
      "date_from=1800-01-01",
      "date_from='; drop table users; --",
    ]) {
      const res = await get(d.adminSession, `/dashboard?${qs}`);
      expect(res.statusCode, qs).toBe(400);
    }
  });
});

describe("attendance_daily stays equal to the cycles it sums", () => {
  const sumsOf = async (companyId: number, q: { date_from?: string; date_to?: string }) => {
    const p = (await dashboardSql.period(db(), companyId, q, new Date()))!;
    return { daily: (await dashboardSql.daily(db(), p)).sort((a, b) => a.user_id - b.user_id), scan: await dashboardSql.scan(db(), p) };
  };
  const normalized = (list: DailySums[]) =>
    list
      .map((r) => ({ ...r, support_seconds: Math.round(r.support_seconds * 1000), wait_seconds: Math.round(r.wait_seconds * 1000) }))
      .filter((r) => Object.entries(r).some(([k, v]) => k !== "user_id" && v !== 0));

  it("through inserts, updates (start, finish, rating, attendant), deletions, a deleted user and a new time zone", async () => {
    const d = await desk();
    await history(d, [
      { user: d.u1.id, queued: sp(10, "09:00"), started: sp(10, "09:10"), finished: sp(10, "09:40"), rating: 3 },
      { user: d.u2.id, queued: sp(10, "10:00"), started: sp(10, "10:07") },
      { queued: sp(10, "22:00") },
      { user: d.u2.id, queued: "2025-03-11T00:30:00Z", started: "2025-03-11T00:40:00Z", finished: "2025-03-11T01:00:00Z", rating: 2 },
    ]);
    const day = { date_from: "2025-03-10", date_to: "2025-03-10" };
    const check = async () => {
      for (const q of [day, { date_from: "2025-03-11" }, { date_to: "2025-03-09" }, {}]) {
        const { daily, scan } = await sumsOf(d.company.id, q.date_from || q.date_to ? q : { date_from: "2000-01-01" });
        expect(normalized(daily), JSON.stringify(q)).toEqual(normalized(scan));
      }
    };
    await check();
    const cycles = await db()
      .select()
      .from(attendanceCycles)
      .where(sql`${attendanceCycles.companyId} = ${d.company.id}`)
      .orderBy(attendanceCycles.id);
    // The waiting one is taken and finished after midnight, then rated; the one in progress changes hands and finishes.
    await db()
      .update(attendanceCycles)
      .set({ startedAt: new Date(sp(10, "22:30")), userId: d.u1.id })
      .where(sql`${attendanceCycles.id} = ${cycles[2]!.id}`);
    await db()
      .update(attendanceCycles)
      .set({ finishedAt: new Date(sp(11, "00:10")) })
      .where(sql`${attendanceCycles.id} = ${cycles[2]!.id}`);
    await db()
      .update(attendanceCycles)
      .set({ rating: 1, rated: true })
      .where(sql`${attendanceCycles.id} = ${cycles[2]!.id}`);
    await db()
      .update(attendanceCycles)
      .set({ userId: d.u1.id, finishedAt: new Date(sp(10, "11:00")) })
      .where(sql`${attendanceCycles.id} = ${cycles[1]!.id}`);
    await check();
    let body = await dashboard(d.adminSession, "date_from=2025-03-10&date_to=2025-03-10");
    expect(body.counters).toMatchObject({ supportPending: 0, supportHappening: 0, supportFinished: 3, avgSupportTime: 34.3 });

    // Deleting a ticket takes its cycle off its days.
    const del = await t.app.inject({ method: "DELETE", url: `/api/tickets/${cycles[0]!.ticketId}`, headers: d.adminSession.headers });
    expect(del.statusCode, del.body).toBe(200);
    await check();
    expect((await dashboard(d.adminSession, "date_from=2025-03-10&date_to=2025-03-10")).counters.supportFinished).toBe(2);

    // A deleted attendant leaves the list; their cycles still count.
    expect((await t.app.inject({ method: "DELETE", url: `/api/users/${d.u1.id}`, headers: d.adminSession.headers })).statusCode).toBeLessThan(300);
    await check();
    body = await dashboard(d.adminSession, "date_from=2025-03-10&date_to=2025-03-10");
    expect(body.counters.supportFinished).toBe(2);
    expect(body.attendants.map((a) => a.id)).toEqual([d.u2.id, d.admin.id]);

    // A new time zone moves every cycle to its day there: 00:30–01:00 UTC of the 11th is the 11th in Lisbon.
    expect((await dashboard(d.adminSession, "date_from=2025-03-11&date_to=2025-03-11")).counters.supportFinished).toBe(1);
    await db()
      .update(companies)
      .set({ timeZone: "Europe/Lisbon" })
      .where(sql`${companies.id} = ${d.company.id}`);
    await check();
    body = await dashboard(d.adminSession, "date_from=2025-03-11&date_to=2025-03-11");
    expect(body.period.timeZone).toBe("Europe/Lisbon");
    expect(body.counters.supportFinished).toBe(2);
  });
});
