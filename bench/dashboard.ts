/**
 * Issue 14 benchmark: GET /api/dashboard p50/p95 for one company holding BENCH_TICKETS (100k) tickets,
 * BENCH_TICKETS × BENCH_MESSAGES_PER_TICKET (1M) messages and ~110k attendance cycles over ~70 days,
 * beside two smaller companies, for the default filter (month to date) and the 7/30/90-day periods; each
 * beside the raw SQL of the same request (DashboardService's one statement, dashboardSql.snapshot) measured in
 * the same run. Then its parts one by one, the same sums scanned from attendance_cycles (and a check that both
 * agree), and the reports and XLSX export of the month, which carry no latency target.
 */
import { sql } from "drizzle-orm";
import { DashboardService, dashboardSql, type DailySums, type PeriodInput } from "../packages/server/src/modules/dashboard/service";
import { benchApp, measure, percentile, report } from "./lib";
import { seedAttendance } from "./dashboard-seed";
import { seedCompany } from "./tickets-list";

const TICKETS = Number(process.env.BENCH_TICKETS ?? 100_000);
const PER_TICKET = Number(process.env.BENCH_MESSAGES_PER_TICKET ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const TARGET_P95_MS = 50;

export async function dashboardBench(): Promise<void> {
  const { app, ctx, close } = await benchApp();
  const db = ctx.database.db;
  const started = Date.now();
  const target = await seedCompany(ctx, "Alvo", TICKETS, PER_TICKET);
  await seedAttendance(ctx, target.companyId);
  for (const name of ["Vizinha Um", "Vizinha Dois"]) {
    const neighbour = await seedCompany(ctx, name, Math.ceil(TICKETS / 10), 5);
    await seedAttendance(ctx, neighbour.companyId, 3);
  }
  // What autovacuum does to a table that stopped changing: statistics and the visibility map (index-only scans).
  await db.execute(sql`vacuum analyze`);
  const counts = await db.execute(sql`select (select count(*) from attendance_cycles where company_id = ${target.companyId})::int as cycles`);
  const cycles = ((counts as unknown as { rows: { cycles: number }[] }).rows ?? (counts as unknown as { cycles: number }[]))[0]!.cycles;
  console.log(
    `seeded ${TICKETS} tickets, ${TICKETS * PER_TICKET} messages and ${cycles} attendance cycles (+2 companies) in ${((Date.now() - started) / 1000).toFixed(0)} s (${ctx.database.kind})`,
  );

  const login = await app.inject({ method: "POST", url: "/api/auth/login", payload: { email: target.email, password: "bench-pass" } });
  const headers = { authorization: `Bearer ${login.json().token as string}` };
  const service = new DashboardService(ctx);
  const monthStart = `${new Date().toISOString().slice(0, 8)}01`;

  const raw = (q: PeriodInput) => dashboardSql.snapshot(ctx.database, target.companyId, q, new Date());
  const api = (url: string) => async () => {
    const res = await app.inject({ method: "GET", url, headers });
    if (res.statusCode !== 200) throw new Error(`${url}: status ${res.statusCode}: ${res.body}`);
  };

  const cases: [string, PeriodInput, string][] = [
    ["month to date (default)", { date_from: monthStart }, `date_from=${monthStart}`],
    ["last 7 days", { days: 7 }, "days=7"],
    ["last 30 days", { days: 30 }, "days=30"],
    ["last 90 days (every cycle)", { days: 90 }, "days=90"],
  ];
  const verdicts: string[] = [];
  for (const [label, q, qs] of cases) {
    const baseline = await measure(() => raw(q), RUNS);
    const samples = await measure(api(`/api/dashboard?${qs}`), RUNS);
    report(`raw SQL: ${label}`, baseline);
    report(`GET /api/dashboard: ${label}`, samples, baseline);
    const p95 = percentile(samples, 95);
    verdicts.push(`${label}: p95 ${p95.toFixed(1)} ms ${p95 <= TARGET_P95_MS ? "≤" : ">"} ${TARGET_P95_MS} ms`);
  }

  // The statement's parts one by one (month to date), to see where the time goes.
  const p = (await dashboardSql.period(db, target.companyId, { date_from: monthStart }, new Date()))!;
  const statements: [string, () => Promise<unknown>][] = [
    ["period", () => dashboardSql.period(db, target.companyId, { date_from: monthStart }, new Date())],
    ["daily sums (attendance_daily)", () => dashboardSql.daily(db, p)],
    ["in progress", () => dashboardSql.happening(db, p)],
    ["pending", () => dashboardSql.pending(db, p)],
    ["today by hour", () => dashboardSql.todayByHour(db, p)],
    ["users", () => dashboardSql.users(db, target.companyId, new Date())],
  ];
  for (const [label, fn] of statements) report(`  statement: ${label}`, await measure(fn, RUNS));
  // The same sums scanned from the cycles: what attendance_daily saves, and proof that it is exact.
  report("  the same sums scanned from attendance_cycles", await measure(() => dashboardSql.scan(db, p), Math.max(10, Math.floor(RUNS / 5)), 2));
  for (const q of [{ date_from: monthStart }, { days: 90 }] as PeriodInput[]) {
    const pp = (await dashboardSql.period(db, target.companyId, q, new Date()))!;
    const key = (rows: DailySums[]) =>
      JSON.stringify(
        rows
          .map((r) => ({ ...r, support_seconds: Math.round(r.support_seconds), wait_seconds: Math.round(r.wait_seconds) }))
          .filter((r) => r.finished || r.started || r.leads)
          .sort((a, b) => a.user_id - b.user_id),
      );
    const same = key(await dashboardSql.daily(db, pp)) === key(await dashboardSql.scan(db, pp));
    console.log(`attendance_daily equals the scan of attendance_cycles (${JSON.stringify(q)}): ${same ? "yes" : "NO"}`);
    if (!same) throw new Error("attendance_daily differs from attendance_cycles");
  }

  const reportRuns = Math.max(10, Math.floor(RUNS / 5));
  const reportBaseline = await measure(() => service.reportsFor(p), reportRuns, 2);
  report("raw SQL: reports, month to date", reportBaseline);
  report(
    "GET /api/dashboard/reports: month to date",
    await measure(api(`/api/dashboard/reports?date_from=${monthStart}`), reportRuns, 2),
    reportBaseline,
  );
  report(
    "GET /api/dashboard/reports/export (xlsx)",
    await measure(api(`/api/dashboard/reports/export?format=xlsx&date_from=${monthStart}`), reportRuns, 2),
  );
  console.log(`target p95 ≤ ${TARGET_P95_MS} ms — ${verdicts.join("; ")}`);
  await close();
}
