/**
 * Issue 17 benchmark: a contact-list spreadsheet of BENCH_IMPORT_ROWS (50,000) rows uploaded through
 * POST /api/contact-lists/:id/upload until GET …/imports/:importId says "done" (the durable job, batches of
 * 1,000 rows with their progress), as .xlsx and as .csv; beside, in the same run, reading the same file alone
 * (exceljs / papaparse + the row checks) and the bare INSERT of the same rows in the same batches (the
 * database's share). Target: 50,000 rows imported in under 30 s. One run each (BENCH_IMPORT_RUNS).
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import ExcelJS from "exceljs";
import { companies, contactLists, plans, users } from "../packages/server/src/db/schema";
import { insertItems } from "../packages/server/src/modules/contactLists/imports";
import { checkRow, findColumns, readSheet, type SpreadsheetFormat } from "../packages/server/src/modules/contactLists/spreadsheet";
import { benchApp } from "./lib";

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 50_000);
const RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 1);
const TARGET_S = 30;
/** Every 1,000th row is refused (a number too short) and every 500th repeats the row before it. */
const rows = Array.from({ length: ROWS }, (_, i) => {
  const n = i % 500 === 499 ? i - 1 : i;
  return { name: `Cliente número ${n}`, number: i % 1000 === 999 ? "12345" : `55119${String(10_000_000 + n)}`, email: `cliente${n}@exemplo.com.br` };
});

async function xlsxFile(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Contatos");
  sheet.addRow(["Nome", "Número", "Email"]);
  for (const r of rows) sheet.addRow([r.name, r.number, r.email]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const csvFile = () => Buffer.from(`\uFEFFNome;Número;Email\r\n${rows.map((r) => `${r.name};${r.number};${r.email}`).join("\r\n")}\r\n`, "utf8");

function multipart(name: string, data: Buffer) {
  const boundary = `----bench${randomBytes(8).toString("hex")}`;
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;
const line = (label: string, s: number, extra = "") =>
  console.log(
    `${label.padEnd(60)} ${s.toFixed(2).padStart(7)} s   ${Math.round(ROWS / s)
      .toLocaleString("en-US")
      .padStart(8)} rows/s${extra}`,
  );

export async function contactListImportBench(): Promise<void> {
  const { app, ctx, close } = await benchApp();
  const db = ctx.database.db;
  const [plan] = await db.insert(plans).values({ name: "Bench", users: 10, connections: 10, queues: 10, value: 1 }).returning();
  const [company] = await db.insert(companies).values({ name: "Bench Co", planId: plan!.id, dueDate: "2099-12-31" }).returning();
  const passwordHash = await ctx.passwords.hash("bench-pass");
  await db.insert(users).values({ companyId: company!.id, name: "Bench Admin", email: "bench@bench.dev", passwordHash, profile: "admin" });
  const login = await app.inject({ method: "POST", url: "/api/auth/login", payload: { email: "bench@bench.dev", password: "bench-pass" } });
  const headers = { authorization: `Bearer ${login.json().token as string}` };

  const files: Record<SpreadsheetFormat, Buffer> = { xlsx: await xlsxFile(), csv: csvFile() };
  console.log(
    `${ROWS} rows: .xlsx ${(files.xlsx.length / 1024 / 1024).toFixed(2)} MB, .csv ${(files.csv.length / 1024 / 1024).toFixed(2)} MB (${ctx.database.kind}, jobs polled every ${ctx.config.jobs.pollSeconds} s)`,
  );
  const results: string[] = [];

  for (let run = 1; run <= RUNS; run++) {
    for (const format of ["xlsx", "csv"] as const) {
      // Reading and checking the rows alone (no database).
      let start = process.hrtime.bigint();
      const sheet = await readSheet(format, files[format]);
      const { headerIndex, columns } = findColumns(sheet);
      const checked = sheet.slice(headerIndex + 1).map((r) => checkRow(r, columns));
      line(`read + check .${format} alone`, seconds(start));

      // The bare INSERTs of the same rows, same batches, into a list of their own (the database's share: the import's own statement).
      const [bare] = await db
        .insert(contactLists)
        .values({ companyId: company!.id, name: `bare ${format} ${run}` })
        .returning();
      const good = checked.flatMap((c) => (c.ok ? [c.item] : []));
      start = process.hrtime.bigint();
      for (let i = 0; i < good.length; i += 1000) await insertItems(db, company!.id, bare!.id, good.slice(i, i + 1000));
      line(`baseline: bare INSERT of the ${format} rows (batches of 1,000)`, seconds(start));

      // The product: upload → job → done.
      const list = (await app.inject({ method: "POST", url: "/api/contact-lists", headers, payload: { name: `Lista ${format} ${run}` } })).json();
      const form = multipart(`contatos.${format}`, files[format]);
      start = process.hrtime.bigint();
      const res = await app.inject({
        method: "POST",
        url: `/api/contact-lists/${list.id}/upload`,
        headers: { ...headers, ...form.headers },
        payload: form.payload,
      });
      if (res.statusCode >= 300) throw new Error(`upload ${res.statusCode}: ${res.body}`);
      const accepted = seconds(start);
      let state = res.json() as { id: number; status: string; inserted: number; duplicates: number; invalid: number };
      while (state.status !== "done" && state.status !== "failed") {
        await new Promise((r) => setTimeout(r, 50));
        state = (await app.inject({ method: "GET", url: `/api/contact-lists/${list.id}/imports/${state.id}`, headers })).json();
      }
      const total = seconds(start);
      const counted = await db.execute(
        sql`select count(*)::int as count from contact_list_items where company_id = ${company!.id} and contact_list_id = ${list.id}`,
      );
      const [{ count }] = (counted as unknown as { rows: { count: number }[] }).rows;
      line(
        `POST /api/contact-lists/:id/upload .${format} → done`,
        total,
        `   (answered 202 in ${accepted.toFixed(2)} s; ${state.inserted} inserted, ${state.duplicates} duplicates, ${state.invalid} refused; ${count} in the list)`,
      );
      results.push(`.${format} run ${run}: ${total.toFixed(1)} s ${total < TARGET_S ? "<" : "≥"} ${TARGET_S} s`);
      if (state.status !== "done" || count !== state.inserted) throw new Error(`import ended ${state.status} with ${count} rows`);
    }
  }
  console.log(`target ${ROWS.toLocaleString("en-US")} rows in under ${TARGET_S} s — ${results.join("; ")}`);
  await close();
}
