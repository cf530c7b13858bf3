import { sql, type SQL } from "drizzle-orm";
import type { DashboardAttendantDTO, DashboardPeriodDTO, DashboardResponse, ReportRowDTO, ReportsResponse } from "@balcao/shared";
import type { AppContext } from "../../context";
import type { Database, Db } from "../../db/client";
import { notFound } from "../../http/errors";

/**
 * The dashboard's indicators (spec §2, §3) and the reports, computed in SQL from attendance_cycles, one
 * row per attendance cycle (queued → started → finished, with its rating). Every definition is in
 * docs/decisions.md ("Dashboard indicators"). A period is whole company-local days, so its sums come from
 * attendance_daily (per day and attendant, kept by triggers on attendance_cycles, migration 0008): the cost
 * grows with days × attendants, not with the cycles in the period. What is not a sum over days (cycles
 * waiting or in progress now, today's hours) reads small partial ranges of attendance_cycles.
 */

/** A user's presence: the socket flag, trusted while their client's 5-minute status ping is recent. */
const ONLINE_FRESH_MINUTES = 10;

export interface PeriodInput {
  days?: number;
  date_from?: string;
  date_to?: string;
}

/** The period as local calendar days and the instants that bound them in the company's time zone. */
export interface ResolvedPeriod {
  companyId: number;
  timeZone: string;
  dueDate: string | null;
  today: string;
  from: string | null;
  to: string | null;
  /** Inclusive lower bound (local midnight of `from`), null when open. */
  start: Date | null;
  /** Exclusive upper bound (local midnight after `to`), null when open. */
  end: Date | null;
  todayStart: Date;
  todayEnd: Date;
}

/** A period's sums for one attendant (user_id 0: cycles without one); seconds, not minutes. */
export interface DailySums {
  user_id: number;
  finished: number;
  served: number;
  support_seconds: number;
  ratings: number;
  rating_sum: number;
  started: number;
  waited: number;
  wait_seconds: number;
  leads: number;
}

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return (Array.isArray(result) ? result : (result as unknown as { rows: T[] }).rows) as T[];
}

const minutes = (seconds: number | null, count: number): number | null =>
  count > 0 && seconds !== null ? Math.round((seconds / count / 60) * 10) / 10 : null;
const average = (sum: number, count: number): number | null => (count > 0 ? Math.round((sum / count) * 10) / 10 : null);

/** `column` within [start, end); an open end adds no condition. */
function within(column: SQL, p: ResolvedPeriod): SQL {
  const parts: SQL[] = [];
  if (p.start) parts.push(sql`${column} >= ${p.start.toISOString()}::timestamptz`);
  if (p.end) parts.push(sql`${column} < ${p.end.toISOString()}::timestamptz`);
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
}

/** One row: the period resolved in the company's time zone and everything the dashboard shows for it. */
export interface Snapshot {
  time_zone: string;
  due_date: string | null;
  today: string;
  d_from: string | null;
  d_to: string | null;
  daily: DailySums[];
  pending: number;
  happening: number;
  hours: { hour: number; n: number }[];
  people: { id: number; name: string; online: boolean }[];
}

/**
 * GET /dashboard as one statement ($1 company, $2 now, $3 days, $4 date_from, $5 date_to, $6 presence
 * minutes): the period's local days and their instants, then the period's sums per attendant
 * (attendance_daily), cycles waiting and in progress, today's cycles by local hour, the company's people.
 * The same parts one by one are dashboardSql.daily / pending / happening / todayByHour / users.
 */
const SNAPSHOT_SQL = `
  with n as (
    select c.id, c.time_zone as tz, c.due_date, ($2::timestamptz at time zone c.time_zone)::date as today
    from companies c where c.id = $1
  ), b as (
    select n.*,
           case when $3::int is not null then n.today - ($3::int - 1) else $4::date end as d_from,
           case when $3::int is not null then n.today else $5::date end as d_to
    from n
  ), p as (
    select b.*,
           coalesce(b.d_from::timestamp at time zone b.tz, '-infinity') as t_from,
           coalesce((b.d_to + 1)::timestamp at time zone b.tz, 'infinity') as t_to,
           b.today::timestamp at time zone b.tz as today_from,
           (b.today + 1)::timestamp at time zone b.tz as today_to
    from b
  )
  select p.tz as time_zone, p.due_date::text as due_date, p.today::text as today, p.d_from::text as d_from, p.d_to::text as d_to,
    (select coalesce(json_agg(s), '[]') from (
       select user_id, sum(finished)::int as finished, sum(served)::int as served, sum(support_ms)::float8 / 1000 as support_seconds,
              sum(ratings)::int as ratings, sum(rating_sum)::int as rating_sum, sum(started)::int as started,
              sum(waited)::int as waited, sum(wait_ms)::float8 / 1000 as wait_seconds, sum(leads)::int as leads
       from attendance_daily d
       where d.company_id = p.id and d.day >= coalesce(p.d_from, '-infinity') and d.day <= coalesce(p.d_to, 'infinity')
       group by user_id) s) as daily,
    (select count(*)::int from attendance_cycles c
       where c.company_id = p.id and c.started_at is null and c.finished_at is null
         and c.queued_at >= p.t_from and c.queued_at < p.t_to) as pending,
    (select count(*)::int from attendance_cycles c
       where c.company_id = p.id and c.finished_at is null and c.started_at is not null
         and c.started_at >= p.t_from and c.started_at < p.t_to) as happening,
    (select coalesce(json_agg(h), '[]') from (
       select extract(hour from c.created_at at time zone p.tz)::int as hour, count(*)::int as n
       from attendance_cycles c
       where c.company_id = p.id and c.created_at >= p.today_from and c.created_at < p.today_to
       group by 1) h) as hours,
    (select coalesce(json_agg(u order by u.name, u.id), '[]') from (
       select id, name, (online and last_seen_at > $2::timestamptz - make_interval(mins => $6::int)) as online
       from users where company_id = p.id) u) as people
  from p`;

/**
 * The raw SQL of the dashboard and reports (bench/dashboard.ts runs it bare as its baseline). Local days
 * become instants with `date::timestamp at time zone tz`, so a day is the company's midnight to midnight,
 * 23 or 25 hours long on daylight-saving changes.
 */
export const dashboardSql = {
  async period(db: Db, companyId: number, q: PeriodInput, now: Date): Promise<ResolvedPeriod | null> {
    const days = q.days ?? null;
    const [r] = await rows<{
      time_zone: string;
      due_date: string | null;
      today: string;
      d_from: string | null;
      d_to: string | null;
      t_from: Date | null;
      t_to: Date | null;
      today_from: Date;
      today_to: Date;
    }>(
      db,
      sql`
        select c.time_zone, c.due_date::text as due_date, b.today::text as today, b.d_from::text as d_from, b.d_to::text as d_to,
               (b.d_from::timestamp at time zone c.time_zone) as t_from,
               ((b.d_to + 1)::timestamp at time zone c.time_zone) as t_to,
               (b.today::timestamp at time zone c.time_zone) as today_from,
               ((b.today + 1)::timestamp at time zone c.time_zone) as today_to
        from companies c
        cross join lateral (select (${now.toISOString()}::timestamptz at time zone c.time_zone)::date as today) n
        cross join lateral (
          select n.today,
                 case when ${days}::int is not null then n.today - (${days}::int - 1) else ${q.date_from ?? null}::date end as d_from,
                 case when ${days}::int is not null then n.today else ${q.date_to ?? null}::date end as d_to
        ) b
        where c.id = ${companyId}`,
    );
    if (!r) return null;
    return {
      companyId,
      timeZone: r.time_zone,
      dueDate: r.due_date,
      today: r.today,
      from: r.d_from,
      to: r.d_to,
      start: r.t_from ? new Date(r.t_from) : null,
      end: r.t_to ? new Date(r.t_to) : null,
      todayStart: new Date(r.today_from),
      todayEnd: new Date(r.today_to),
    };
  },

  /**
   * Everything GET /dashboard shows, in one prepared statement (SNAPSHOT_SQL): one round trip, planned once
   * per pooled connection.
   */
  async snapshot(database: Database, companyId: number, q: PeriodInput, now: Date): Promise<Snapshot | null> {
    const {
      rows: [r],
    } = await database.pool.query<Snapshot>({
      name: "dashboard.snapshot",
      text: SNAPSHOT_SQL,
      values: [companyId, now.toISOString(), q.days ?? null, q.date_from ?? null, q.date_to ?? null, ONLINE_FRESH_MINUTES],
    });
    return r ?? null;
  },

  /**
   * The period's sums per attendant from attendance_daily: finished cycles (by the attendant who finished
   * them), served ones and their support time, ratings; started cycles, those that waited and their wait;
   * leads. The days are local dates, so no time zone arithmetic is left for this statement.
   */
  daily: (db: Db, p: ResolvedPeriod) =>
    rows<DailySums>(
      db,
      sql`
        select user_id, sum(finished)::int as finished, sum(served)::int as served, sum(support_ms)::float8 / 1000 as support_seconds,
               sum(ratings)::int as ratings, sum(rating_sum)::int as rating_sum,
               sum(started)::int as started, sum(waited)::int as waited, sum(wait_ms)::float8 / 1000 as wait_seconds,
               sum(leads)::int as leads
        from attendance_daily
        where company_id = ${p.companyId}
          ${p.from ? sql`and day >= ${p.from}::date` : sql``}
          ${p.to ? sql`and day <= ${p.to}::date` : sql``}
        group by user_id`,
    ),

  /**
   * The same sums straight from attendance_cycles (three range scans). Not used by the API: the benchmark
   * and the tests compare it with \`daily\` to prove the triggers keep the days exact.
   */
  scan: async (db: Db, p: ResolvedPeriod): Promise<DailySums[]> => {
    const [finished, started, leads] = await Promise.all([
      rows<DailySums>(
        db,
        sql`
          select coalesce(user_id, 0) as user_id, count(*)::int as finished, count(started_at)::int as served,
                 coalesce(extract(epoch from sum(finished_at - started_at)), 0)::float8 as support_seconds,
                 count(rating)::int as ratings, coalesce(sum(rating), 0)::int as rating_sum
          from attendance_cycles
          where company_id = ${p.companyId} and ${within(sql`finished_at`, p)}
          group by 1`,
      ),
      rows<DailySums>(
        db,
        sql`
          select coalesce(user_id, 0) as user_id, count(*)::int as started, count(queued_at)::int as waited,
                 coalesce(extract(epoch from sum(started_at - queued_at)), 0)::float8 as wait_seconds
          from attendance_cycles
          where company_id = ${p.companyId} and ${within(sql`started_at`, p)}
          group by 1`,
      ),
      rows<DailySums>(
        db,
        sql`
          select coalesce(user_id, 0) as user_id, count(*)::int as leads
          from attendance_cycles
          where company_id = ${p.companyId} and first_of_contact and ${within(sql`created_at`, p)}
          group by 1`,
      ),
    ]);
    const byUser = new Map<number, DailySums>();
    const zero = (user_id: number): DailySums => ({
      user_id,
      finished: 0,
      served: 0,
      support_seconds: 0,
      ratings: 0,
      rating_sum: 0,
      started: 0,
      waited: 0,
      wait_seconds: 0,
      leads: 0,
    });
    for (const part of [finished, started, leads])
      for (const r of part) {
        const sums = byUser.get(r.user_id) ?? zero(r.user_id);
        for (const [k, v] of Object.entries(r))
          if (k !== "user_id" && v !== undefined && v !== null) (sums as unknown as Record<string, number>)[k] = Number(v);
        byUser.set(r.user_id, sums);
      }
    return [...byUser.values()].sort((a, b) => a.user_id - b.user_id);
  },

  /** Cycles started in the period and still in progress. */
  happening: async (db: Db, p: ResolvedPeriod) =>
    (
      await rows<{ n: number }>(
        db,
        sql`
          select count(*)::int as n from attendance_cycles
          where company_id = ${p.companyId} and finished_at is null and started_at is not null and ${within(sql`started_at`, p)}`,
      )
    )[0]!.n,

  /** Cycles that entered the queue in the period and still wait for an attendant. */
  pending: async (db: Db, p: ResolvedPeriod) =>
    (
      await rows<{ n: number }>(
        db,
        sql`
          select count(*)::int as n from attendance_cycles
          where company_id = ${p.companyId} and started_at is null and finished_at is null and ${within(sql`queued_at`, p)}`,
      )
    )[0]!.n,

  /** Cycles begun today (company time zone), by local hour. */
  todayByHour: (db: Db, p: ResolvedPeriod) =>
    rows<{ hour: number; n: number }>(
      db,
      sql`
        select extract(hour from created_at at time zone ${p.timeZone})::int as hour, count(*)::int as n
        from attendance_cycles
        where company_id = ${p.companyId}
          and created_at >= ${p.todayStart.toISOString()}::timestamptz and created_at < ${p.todayEnd.toISOString()}::timestamptz
        group by 1`,
    ),

  users: (db: Db, companyId: number, now: Date) =>
    rows<{ id: number; name: string; online: boolean }>(
      db,
      sql`
        select id, name,
               (online and last_seen_at > ${now.toISOString()}::timestamptz - make_interval(mins => ${ONLINE_FRESH_MINUTES})) as online
        from users where company_id = ${companyId}
        order by name, id`,
    ),

  /**
   * The reports: cycles finished in the period grouped by attendant and by queue. First response: from
   * the moment the cycle entered the queue to the first message sent to the customer between its start and
   * its finish (found through messages_company_ticket_created_idx, one probe per cycle).
   */
  report: (db: Db, p: ResolvedPeriod) =>
    rows<{
      by: "user" | "queue";
      key: number | null;
      tickets: number;
      waited: number;
      wait_seconds: number | null;
      responded: number;
      response_seconds: number | null;
      served: number;
      support_seconds: number | null;
      ratings: number;
      rating_sum: number;
    }>(
      db,
      sql`
        with f as (
          select c.user_id, c.queue_id, c.queued_at, c.started_at, c.finished_at, c.rating,
                 (select m.created_at from messages m
                   where m.company_id = c.company_id and m.ticket_id = c.ticket_id and m.from_me
                     and m.created_at >= c.started_at and m.created_at <= c.finished_at
                   order by m.created_at limit 1) as first_reply
          from attendance_cycles c
          where c.company_id = ${p.companyId} and ${within(sql`c.finished_at`, p)}
        )
        select case when grouping(user_id) = 0 then 'user' else 'queue' end as by,
               case when grouping(user_id) = 0 then user_id else queue_id end as key,
               count(*)::int as tickets,
               count(queued_at) filter (where started_at is not null)::int as waited,
               extract(epoch from sum(started_at - queued_at))::float8 as wait_seconds,
               count(first_reply) filter (where queued_at is not null)::int as responded,
               extract(epoch from sum(first_reply - queued_at))::float8 as response_seconds,
               count(started_at)::int as served,
               extract(epoch from sum(finished_at - started_at))::float8 as support_seconds,
               count(rating)::int as ratings, coalesce(sum(rating), 0)::int as rating_sum
        from f
        group by grouping sets ((user_id), (queue_id))`,
    ),

  queues: (db: Db, companyId: number) =>
    rows<{ id: number; name: string; color: string }>(db, sql`select id, name, color from queues where company_id = ${companyId} order by name, id`),
};

export class DashboardService {
  constructor(
    private readonly ctx: AppContext,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private get db() {
    return this.ctx.database.db;
  }

  async period(companyId: number, q: PeriodInput): Promise<ResolvedPeriod> {
    const p = await dashboardSql.period(this.db, companyId, q, this.clock());
    if (!p) throw notFound("ERR_NO_COMPANY_FOUND");
    return p;
  }

  private static periodDto(p: ResolvedPeriod): DashboardPeriodDTO {
    return { from: p.from, to: p.to, timeZone: p.timeZone };
  }

  async dashboard(companyId: number, q: PeriodInput): Promise<DashboardResponse> {
    const snap = await dashboardSql.snapshot(this.ctx.database, companyId, q, this.clock());
    if (!snap) throw notFound("ERR_NO_COMPANY_FOUND");
    const { daily, pending, happening, hours: today, people } = snap;

    const total = { finished: 0, served: 0, support: 0, waited: 0, wait: 0, leads: 0 };
    const byUser = new Map<number, DailySums>();
    for (const r of daily) {
      total.finished += r.finished;
      total.served += r.served;
      total.support += r.support_seconds;
      total.waited += r.waited;
      total.wait += r.wait_seconds;
      total.leads += r.leads;
      byUser.set(r.user_id, r);
    }
    const attendants: DashboardAttendantDTO[] = people.map((u) => {
      const r = byUser.get(u.id);
      return {
        id: u.id,
        name: u.name,
        rating: r ? average(r.rating_sum, r.ratings) : null,
        ratings: r?.ratings ?? 0,
        avgSupportTime: r ? minutes(r.support_seconds, r.served) : null,
        tickets: r?.finished ?? 0,
        online: u.online === true,
      };
    });
    const hours = Array.from({ length: 24 }, () => 0);
    for (const h of today) if (h.hour >= 0 && h.hour < 24) hours[h.hour]! += h.n;

    return {
      counters: {
        supportPending: pending,
        supportHappening: happening,
        supportFinished: total.finished,
        leads: total.leads,
        avgSupportTime: minutes(total.support, total.served),
        avgWaitTime: minutes(total.wait, total.waited),
      },
      attendants,
      period: { from: snap.d_from, to: snap.d_to, timeZone: snap.time_zone },
      today: { date: snap.today, total: hours.reduce((a, b) => a + b, 0), hours },
      company: { dueDate: snap.due_date },
    };
  }

  async reports(companyId: number, q: PeriodInput): Promise<ReportsResponse> {
    const p = await this.period(companyId, q);
    return this.reportsFor(p);
  }

  async reportsFor(p: ResolvedPeriod): Promise<ReportsResponse> {
    const [groups, people, queues] = await Promise.all([
      dashboardSql.report(this.db, p),
      dashboardSql.users(this.db, p.companyId, this.clock()),
      dashboardSql.queues(this.db, p.companyId),
    ]);
    const row = (g: (typeof groups)[number] | undefined, id: number | null, name: string | null, color?: string | null): ReportRowDTO => ({
      id,
      name,
      ...(color !== undefined && { color }),
      tickets: g?.tickets ?? 0,
      avgWaitTime: g ? minutes(g.wait_seconds, g.waited) : null,
      avgFirstResponse: g ? minutes(g.response_seconds, g.responded) : null,
      avgSupportTime: g ? minutes(g.support_seconds, g.served) : null,
      rating: g ? average(g.rating_sum, g.ratings) : null,
      ratings: g?.ratings ?? 0,
    });
    const userGroups = new Map(groups.filter((g) => g.by === "user").map((g) => [g.key, g]));
    const queueGroups = new Map(groups.filter((g) => g.by === "queue").map((g) => [g.key, g]));
    const attendants = people.map((u) => row(userGroups.get(u.id), u.id, u.name));
    // Cycles of a deleted attendant (user_id set null) still count, in a row of their own.
    if (userGroups.has(null)) attendants.push(row(userGroups.get(null), null, null));
    const queueRows = queues.map((q) => row(queueGroups.get(q.id), q.id, q.name, q.color));
    if (queueGroups.has(null)) queueRows.push(row(queueGroups.get(null), null, null, null));
    return { period: DashboardService.periodDto(p), queues: queueRows, attendants };
  }
}
