/**
 * Issue 5 benchmark: message history page latency (GET /api/messages/:ticketId) at the first page and
 * at a deep page of a 50k-message conversation, beside the raw SQL of the same query, in one run. The page query
 * reads each message's reactions and earlier texts as sub-selects (messages/presenter.ts), so the baseline does too.
 */
import { sql } from "drizzle-orm";
import { companies, connections, contacts, plans, tickets, users } from "../packages/server/src/db/schema";
import { benchApp, measure, report } from "./lib";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 50_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);

export async function messagesHistoryBench(): Promise<void> {
  const { app, ctx, close } = await benchApp();
  const db = ctx.database.db;
  const [plan] = await db.insert(plans).values({ name: "Bench", users: 10, connections: 10, queues: 10, value: 1 }).returning();
  const [company] = await db.insert(companies).values({ name: "Bench Co", planId: plan!.id, dueDate: "2099-12-31" }).returning();
  const passwordHash = await ctx.passwords.hash("bench-pass");
  await db.insert(users).values({ companyId: company!.id, name: "Bench Admin", email: "bench@bench.dev", passwordHash, profile: "admin" });
  const [connection] = await db.insert(connections).values({ companyId: company!.id, name: "Bench", isDefault: true }).returning();
  const [contact] = await db.insert(contacts).values({ companyId: company!.id, name: "Cliente", number: "5511999990000" }).returning();
  const [ticket] = await db
    .insert(tickets)
    .values({ companyId: company!.id, contactId: contact!.id, connectionId: connection!.id, status: "open" })
    .returning();
  const started = Date.now();
  await db.execute(sql`
    insert into messages (company_id, ticket_id, contact_id, connection_id, provider_message_id, body, from_me, created_at)
    select ${company!.id}, ${ticket!.id}, ${contact!.id}, ${connection!.id}, 'M' || g, 'mensagem número ' || g, g % 2 = 0,
           now() - (${MESSAGES} - g) * interval '1 second'
    from generate_series(1, ${MESSAGES}) g`);
  await db.execute(sql`analyze messages`);
  console.log(`seeded ${MESSAGES} messages in ${((Date.now() - started) / 1000).toFixed(1)} s (${ctx.database.kind})`);

  const login = await app.inject({ method: "POST", url: "/api/auth/login", payload: { email: "bench@bench.dev", password: "bench-pass" } });
  const token = login.json().token as string;
  const headers = { authorization: `Bearer ${token}` };
  const deepPage = Math.floor(MESSAGES / 20) - 1;
  // The same statement as the API's page query (messages/service.ts, buildPage): the first page reads the newest
  // rows; an OFFSET page picks its ids first, so the sub-selects run for the page's rows only.
  const conversation = sql`m.company_id = ${company!.id} and m.contact_id = ${contact!.id} and m.connection_id = ${connection!.id}`;
  const raw = (page: number) =>
    db.execute(sql`
      select m.*, c.name, q.id as qid,
        (select json_agg(json_build_object('emoji', r.emoji, 'count', r.count, 'fromMe', r.from_me) order by r.count desc, r.first_at, r.emoji)
         from (select mr.emoji, count(*)::int as count, bool_or(mr.sender = 'me') as from_me, min(mr.created_at) as first_at
               from message_reactions mr where mr.company_id = m.company_id and mr.message_id = m.id group by mr.emoji) r) as reactions,
        case when m.edited_at is not null then
          (select json_agg(json_build_object('body', me.previous_body, 'editedAt', me.edited_at) order by me.edited_at, me.id)
           from message_edits me where me.company_id = m.company_id and me.message_id = m.id) end as edits
      from messages m
      left join contacts c on c.id = m.contact_id
      left join messages q on q.id = m.quoted_msg_id
      where ${
        page === 1
          ? conversation
          : sql`m.company_id = ${company!.id} and m.id in (select m.id from messages m where ${conversation}
              order by m.created_at desc, m.id desc limit 21 offset ${(page - 1) * 20})`
      }
      order by m.created_at desc, m.id desc limit 21`);

  for (const page of [1, deepPage]) {
    const baseline = await measure(() => raw(page), RUNS);
    const api = await measure(async () => {
      const res = await app.inject({ method: "GET", url: `/api/messages/${ticket!.id}?pageNumber=${page}`, headers });
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
    }, RUNS);
    report(`raw SQL, page ${page}`, baseline);
    report(`GET /api/messages/:ticketId, page ${page}`, api, baseline);
  }
  // The same deep page reached by keyset (beforeId = the oldest message of the page before it).
  const anchorResult = await db.execute(sql`
      select id from messages where ticket_id = ${ticket!.id} order by created_at desc, id desc offset ${(deepPage - 1) * 20 - 1} limit 1`);
  const [anchor] = (anchorResult as unknown as { rows: { id: number }[] }).rows;
  const keyset = await measure(async () => {
    const res = await app.inject({ method: "GET", url: `/api/messages/${ticket!.id}?beforeId=${anchor!.id}`, headers });
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
  }, RUNS);
  const rawDeep = await measure(() => raw(deepPage), RUNS);
  report(`GET /api/messages/:ticketId?beforeId (page ${deepPage})`, keyset, rawDeep);
  await close();
}
