/**
 * Issue 4 benchmark: GET /api/tickets p50/p95 (first page, deep page, search) for one company holding
 * BENCH_TICKETS tickets and BENCH_TICKETS × BENCH_MESSAGES_PER_TICKET messages beside two other
 * companies, each printed beside the bare page query (TicketsService.listQuery) run in the same process.
 */
import { sql } from "drizzle-orm";
import { encodeKeysetCursor, ticketListQuery } from "@balcao/shared";
import { companies, connections, plans, users } from "../packages/server/src/db/schema";
import { AuthService } from "../packages/server/src/modules/auth/service";
import { TICKETS_PAGE_SIZE, TicketsService } from "../packages/server/src/modules/tickets/service";
import type { AppContext } from "../packages/server/src/context";
import { benchApp, measure, report } from "./lib";

const TICKETS = Number(process.env.BENCH_TICKETS ?? 100_000);
const PER_TICKET = Number(process.env.BENCH_MESSAGES_PER_TICKET ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);

export async function seedCompany(ctx: AppContext, name: string, tickets: number, perTicket: number) {
  const db = ctx.database.db;
  const [plan] = await db
    .insert(plans)
    .values({ name: `Plano ${name}`, users: 100, connections: 10, queues: 10, value: 1 })
    .returning();
  const [company] = await db.insert(companies).values({ name, planId: plan!.id, dueDate: "2099-12-31" }).returning();
  const passwordHash = await ctx.passwords.hash("bench-pass");
  const email = `admin@${name.toLowerCase().replace(/\W/g, "")}.bench`;
  const [admin] = await db.insert(users).values({ companyId: company!.id, name: "Admin", email, passwordHash, profile: "admin" }).returning();
  const [connection] = await db.insert(connections).values({ companyId: company!.id, name: "Bench", isDefault: true }).returning();
  const cid = company!.id;
  await db.execute(sql`
    insert into contacts (company_id, name, number)
    select ${cid}::int, 'Cliente ' || g, '55' || (11000000000 + ${cid}::bigint * 100000000 + g)::text from generate_series(1, ${tickets}::int) g`);
  await db.execute(sql`
    insert into tickets (company_id, contact_id, connection_id, status, user_id, last_message, unread_messages, created_at, updated_at)
    select ${cid}, c.id, ${connection!.id},
           case when c.id % 20 = 0 then 'pending' when c.id % 20 < 4 then 'open' else 'closed' end,
           case when c.id % 20 between 1 and 3 then ${admin!.id}::int else null end,
           'última mensagem ' || c.id, (c.id % 3), now() - c.id * interval '1 minute', now() - c.id * interval '1 minute'
    from contacts c where c.company_id = ${cid}`);
  await db.execute(sql`
    insert into messages (company_id, ticket_id, contact_id, connection_id, body, from_me, created_at)
    select t.company_id, t.id, t.contact_id, t.connection_id, 'mensagem ' || k || ' sobre o pedido ' || t.id, k % 2 = 0,
           t.updated_at - k * interval '1 second'
    from tickets t cross join generate_series(1, ${perTicket}) k where t.company_id = ${cid}`);
  return { email, companyId: cid };
}

export async function ticketsListBench(): Promise<void> {
  const { app, ctx, close } = await benchApp();
  const started = Date.now();
  const target = await seedCompany(ctx, "Alvo", TICKETS, PER_TICKET);
  await seedCompany(ctx, "Vizinha Um", Math.ceil(TICKETS / 10), 5);
  await seedCompany(ctx, "Vizinha Dois", Math.ceil(TICKETS / 10), 5);
  // vacuum, not only analyze: it also empties the trigram indexes' pending lists, as autovacuum does after a
  // bulk load (a search otherwise scans ~4 MB of pending entries first).
  await ctx.database.db.execute(sql`vacuum analyze`);
  console.log(
    `seeded ${TICKETS} tickets and ${TICKETS * PER_TICKET} messages (+2 companies) in ${((Date.now() - started) / 1000).toFixed(0)} s (${ctx.database.kind})`,
  );

  const login = await app.inject({ method: "POST", url: "/api/auth/login", payload: { email: target.email, password: "bench-pass" } });
  const token = login.json().token as string;
  const actor = await new AuthService(ctx).authenticate(token);
  const service = new TicketsService(ctx);
  const headers = { authorization: `Bearer ${token}` };

  // Page 100 of the same tab reached by keyset: the cursor of page 99's last row (what the web app sends).
  const anchorResult = await ctx.database.db.execute(sql`
    select id, (extract(epoch from updated_at) * 1000000)::bigint::text as at from tickets
    where company_id = ${target.companyId} and status = 'closed'
    order by updated_at desc, id desc offset ${99 * TICKETS_PAGE_SIZE - 1} limit 1`);
  const [anchor] = (anchorResult as unknown as { rows: { id: number; at: string }[] }).rows;
  const cursor = encodeKeysetCursor({ at: Number(anchor!.at), id: anchor!.id });

  const cases: [string, string][] = [
    ["first page (all visible, newest first)", ""],
    ["first page, closed, showAll", "status=closed&showAll=true"],
    ["deep page 100, closed, showAll", "status=closed&showAll=true&pageNumber=100"],
    ["deep page 100 by cursor, closed, showAll", `status=closed&showAll=true&cursor=${cursor}`],
    ["search contact name", "searchParam=Cliente%2042424"],
    ["search message text", "searchParam=pedido%2077777"],
  ];
  for (const [label, qs] of cases) {
    const parsed = ticketListQuery.parse(Object.fromEntries(new URLSearchParams(qs)));
    const baseline = await measure(() => service.listQuery(actor, parsed), RUNS, 3);
    const api = await measure(
      async () => {
        const res = await app.inject({ method: "GET", url: `/api/tickets?${qs}`, headers });
        if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}: ${res.body}`);
      },
      RUNS,
      3,
    );
    report(`page query: ${label}`, baseline);
    report(`GET /api/tickets: ${label}`, api, baseline);
  }
  await close();
}
