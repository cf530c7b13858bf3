/**
 * Attendance history for the dashboard benchmark, laid over the tickets seedCompany (tickets-list.ts)
 * creates: attendants, queues, and one attendance cycle per ticket (plus an earlier, finished cycle for
 * every tenth ticket: a reopened conversation), with wait and support times, ratings 1–3, the contact's
 * first cycle marked (leads) and contacts whose creation matches their first ticket; then its days in
 * attendance_daily.
 */
import { sql } from "drizzle-orm";
import type { AppContext } from "../packages/server/src/context";

export async function seedAttendance(ctx: AppContext, companyId: number, attendants = 8): Promise<void> {
  const db = ctx.database.db;
  const cid = companyId;
  const passwordHash = await ctx.passwords.hash("bench-pass");
  await db.execute(sql`
    insert into users (company_id, name, email, password_hash, profile, online, last_seen_at)
    select ${cid}::int, 'Atendente ' || g, 'atendente' || g || '.' || ${cid}::int || '@bench.dev', ${passwordHash}, 'user', g % 2 = 0, now()
    from generate_series(1, ${attendants}::int) g`);
  await db.execute(sql`
    insert into queues (company_id, name, color)
    select ${cid}::int, 'Fila ' || g, '#00000' || g from generate_series(1, 3) g`);
  // Attendant and queue of every ticket by its id; pending tickets have no attendant.
  await db.execute(sql`
    with a as (select id, row_number() over (order by id) - 1 as k, count(*) over () as n from users where company_id = ${cid} and profile = 'user'),
         q as (select id, row_number() over (order by id) - 1 as k, count(*) over () as n from queues where company_id = ${cid})
    update tickets t set
      user_id = case when t.status = 'pending' then null else (select a.id from a where a.k = t.id % a.n) end,
      queue_id = (select q.id from q where q.k = t.id % q.n)
    where t.company_id = ${cid}`);
  await db.execute(sql`
    update contacts c set created_at = t.created_at, updated_at = t.created_at
    from tickets t where t.company_id = ${cid} and c.company_id = ${cid} and t.contact_id = c.id`);
  // A bulk load: the per-row triggers that keep attendance_daily wait, and the days are rebuilt at the end.
  await db.execute(sql`alter table attendance_cycles disable trigger user`);
  // The current cycle: queued at creation, started 0–29 min later, finished 1–90 min after that
  // (never in the future); a third of the finished ones rated 1, 2 or 3.
  await db.execute(sql`
    insert into attendance_cycles (company_id, ticket_id, connection_id, user_id, queue_id, queued_at, started_at, finished_at,
                                   rating, rated, rating_at, created_at, updated_at)
    select t.company_id, t.id, t.connection_id, t.user_id, t.queue_id, t.created_at,
           s.started, f.finished,
           case when f.finished is not null and t.id % 3 = 0 then 1 + (t.id / 3) % 3 end,
           f.finished is not null and t.id % 3 = 0,
           case when f.finished is not null and t.id % 3 = 0 then f.finished + interval '2 minutes' end,
           t.created_at, t.updated_at
    from tickets t
    cross join lateral (select case when t.status = 'pending' then null
                                    else least(now(), t.created_at + (t.id % 30) * interval '1 minute') end as started) s
    cross join lateral (select case when t.status = 'closed'
                                    then least(now(), s.started + (1 + t.id % 90) * interval '1 minute') end as finished) f
    where t.company_id = ${cid}`);
  // An earlier finished cycle for every tenth ticket (the conversation was closed and reopened).
  await db.execute(sql`
    insert into attendance_cycles (company_id, ticket_id, connection_id, user_id, queue_id, queued_at, started_at, finished_at,
                                   rating, rated, created_at, updated_at)
    select t.company_id, t.id, t.connection_id, coalesce(t.user_id, (select min(id) from users where company_id = ${cid} and profile = 'user')),
           t.queue_id, t.created_at - interval '3 hours', t.created_at - interval '170 minutes', t.created_at - interval '2 hours',
           case when t.id % 20 = 0 then 3 end, t.id % 20 = 0, t.created_at - interval '3 hours', t.created_at - interval '2 hours'
    from tickets t where t.company_id = ${cid} and t.id % 10 = 0`);
  // Leads: each contact's first cycle, as cycles.ts marks it when the cycle is created.
  await db.execute(sql`
    update attendance_cycles c set first_of_contact = true
    from (select distinct on (t.contact_id) c2.id from attendance_cycles c2 join tickets t on t.id = c2.ticket_id
          where c2.company_id = ${cid} order by t.contact_id, c2.created_at, c2.id) f
    where c.id = f.id`);
  await db.execute(sql`alter table attendance_cycles enable trigger user`);
  await db.execute(sql`select attendance_daily_rebuild(${cid}::int)`);
}
