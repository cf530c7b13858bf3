import { eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReportsResponse } from "@balcao/shared";
import { attendanceCycles, connections, contacts, messages, tickets, userQueues } from "../../db/schema";
import { buildCompany, buildQueue, buildUser, login, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

/** Per-queue and per-attendant reports, their CSV/XLSX exports, and the ticket transcript. */

let t: TestApp;
let seq = 0;
const db = () => t.ctx.database.db;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = (s: Session | null, url: string) => t.app.inject({ method: "GET", url: `/api${url}`, headers: s ? s.headers : {} });
const sp = (time: string) => new Date(`2025-03-10T${time}:00-03:00`);

async function desk() {
  const company = await buildCompany(t.ctx, { timeZone: "America/Sao_Paulo" });
  const admin = await buildUser(t.ctx, company.id, { profile: "admin", name: "Carla Admin" });
  const ana = await buildUser(t.ctx, company.id, { name: "Ana" });
  const bia = await buildUser(t.ctx, company.id, { name: "Bia" });
  const vendas = await buildQueue(t.ctx, company.id, { name: "Vendas", color: "#2E7D32" });
  const suporte = await buildQueue(t.ctx, company.id, { name: "Suporte", color: "#1565C0" });
  await db().insert(userQueues).values({ companyId: company.id, userId: ana.id, queueId: vendas.id });
  const [connection] = await db()
    .insert(connections)
    .values({ companyId: company.id, name: `Conexão ${++seq}`, isDefault: true })
    .returning();
  return {
    company,
    admin,
    ana,
    bia,
    vendas,
    suporte,
    connection: connection!,
    adminSession: await login(t.app, admin.email),
    anaSession: await login(t.app, ana.email),
    biaSession: await login(t.app, bia.email),
  };
}
type Desk = Awaited<ReturnType<typeof desk>>;

/** A finished cycle with its messages: [minutes after queueing, fromMe, body]. */
async function served(
  d: Desk,
  c: { user: number; queue: number | null; queued: string; started: string; finished: string; rating?: number; contactName?: string },
  msgs: [string, boolean, string][] = [],
) {
  const [contact] = await db()
    .insert(contacts)
    .values({ companyId: d.company.id, name: c.contactName ?? `Cliente ${++seq}`, number: `55119${String(50_000_000 + ++seq)}` })
    .returning();
  const [ticket] = await db()
    .insert(tickets)
    .values({ companyId: d.company.id, contactId: contact!.id, connectionId: d.connection.id, queueId: c.queue, userId: c.user, status: "closed" })
    .returning();
  await db()
    .insert(attendanceCycles)
    .values({
      companyId: d.company.id,
      ticketId: ticket!.id,
      userId: c.user,
      queueId: c.queue,
      queuedAt: sp(c.queued),
      startedAt: sp(c.started),
      finishedAt: sp(c.finished),
      rating: c.rating ?? null,
      rated: c.rating !== undefined,
      ratingAt: c.rating !== undefined ? sp(c.finished) : null,
      firstOfContact: true,
      createdAt: sp(c.queued),
    });
  for (const [time, fromMe, body] of msgs)
    await db()
      .insert(messages)
      .values({
        companyId: d.company.id,
        ticketId: ticket!.id,
        contactId: contact!.id,
        connectionId: d.connection.id,
        body,
        fromMe,
        createdAt: sp(time),
      });
  return ticket!;
}

describe("GET /dashboard/reports", () => {
  let d: Desk;
  beforeAll(async () => {
    d = await desk();
    // Ana in Vendas: waited 10, first reply 12 after queueing (the bot's message before the start does not count), support 30, rated 3.
    await served(d, { user: d.ana.id, queue: d.vendas.id, queued: "09:00", started: "09:10", finished: "09:40", rating: 3 }, [
      ["09:00", false, "Oi"],
      ["09:01", true, "Menu do robô"],
      ["09:12", true, "Olá, sou a Ana"],
      ["09:20", true, "Mais alguma coisa?"],
    ]);
    // Ana in Vendas: waited 20, first reply 30, support 20, rated 1.
    await served(d, { user: d.ana.id, queue: d.vendas.id, queued: "10:00", started: "10:20", finished: "10:40", rating: 1 }, [
      ["10:30", true, "Bom dia"],
    ]);
    // Bia in Suporte: waited 5, never wrote (no first response), support 55.
    await served(d, { user: d.bia.id, queue: d.suporte.id, queued: "11:00", started: "11:05", finished: "12:00" }, [["11:02", false, "Alô?"]]);
    // Bia with no queue: waited 0, first reply 1, support 9, rated 2.
    await served(d, { user: d.bia.id, queue: null, queued: "13:00", started: "13:00", finished: "13:09", rating: 2 }, [["13:01", true, "Oi!"]]);
    // Another day: not in the report.
    await served(d, { user: d.ana.id, queue: d.vendas.id, queued: "00:00", started: "00:00", finished: "00:00" }).then((tk) =>
      db()
        .update(attendanceCycles)
        .set({ finishedAt: new Date("2025-03-12T12:00:00Z") })
        .where(eq(attendanceCycles.ticketId, tk.id)),
    );
  });

  it("per queue and per attendant: tickets, wait, first response, support time, ratings", async () => {
    const res = await get(d.adminSession, "/dashboard/reports?date_from=2025-03-10&date_to=2025-03-10");
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as ReportsResponse;
    expect(body.period).toEqual({ from: "2025-03-10", to: "2025-03-10", timeZone: "America/Sao_Paulo" });
    expect(body.queues).toEqual([
      {
        id: d.suporte.id,
        name: "Suporte",
        color: "#1565C0",
        tickets: 1,
        avgWaitTime: 5,
        avgFirstResponse: null,
        avgSupportTime: 55,
        rating: null,
        ratings: 0,
      },
      {
        id: d.vendas.id,
        name: "Vendas",
        color: "#2E7D32",
        tickets: 2,
        avgWaitTime: 15,
        avgFirstResponse: 21,
        avgSupportTime: 25,
        rating: 2,
        ratings: 2,
      },
      { id: null, name: null, color: null, tickets: 1, avgWaitTime: 0, avgFirstResponse: 1, avgSupportTime: 9, rating: 2, ratings: 1 },
    ]);
    expect(body.attendants).toEqual([
      { id: d.ana.id, name: "Ana", tickets: 2, avgWaitTime: 15, avgFirstResponse: 21, avgSupportTime: 25, rating: 2, ratings: 2 },
      { id: d.bia.id, name: "Bia", tickets: 2, avgWaitTime: 2.5, avgFirstResponse: 1, avgSupportTime: 32, rating: 2, ratings: 1 },
      { id: d.admin.id, name: "Carla Admin", tickets: 0, avgWaitTime: null, avgFirstResponse: null, avgSupportTime: null, rating: null, ratings: 0 },
    ]);
  });

  it("exports a table as CSV (';', BOM, decimal comma) and both as XLSX sheets", async () => {
    const csv = await get(d.adminSession, "/dashboard/reports/export?format=csv&table=attendants&date_from=2025-03-10&date_to=2025-03-10");
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    expect(csv.headers["content-disposition"]).toBe('attachment; filename="relatorio-attendants_2025-03-10_2025-03-10.csv"');
    expect(csv.body.startsWith("\uFEFF")).toBe(true);
    expect(csv.body.slice(1).split("\r\n")).toEqual([
      "Atendente;Atendimentos;Espera média (min);Primeira resposta média (min);Tempo médio de atendimento (min);Avaliação média (1 a 3);Avaliações",
      "Ana;2;15;21;25;2;2",
      "Bia;2;2,5;1;32;2;1",
      "Carla Admin;0;;;;;0",
      "",
    ]);
    const en = await get(d.adminSession, "/dashboard/reports/export?format=csv&table=queues&lang=en&date_from=2025-03-10&date_to=2025-03-10");
    expect(en.body.slice(1).split("\r\n").slice(0, 2)).toEqual([
      "Queue;Tickets;Average wait (min);Average first response (min);Average support time (min);Average rating (1 to 3);Ratings",
      "Suporte;1;5;;55;;0",
    ]);
    expect(en.body).toContain("No queue;1;0;1;9;2;1");

    const xlsx = await get(d.adminSession, "/dashboard/reports/export?format=xlsx&date_from=2025-03-10&date_to=2025-03-10");
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers["content-type"]).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(["Filas", "Atendentes"]);
    const sheet = workbook.getWorksheet("Atendentes")!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      "Atendente",
      "Atendimentos",
      "Espera média (min)",
      "Primeira resposta média (min)",
      "Tempo médio de atendimento (min)",
      "Avaliação média (1 a 3)",
      "Avaliações",
    ]);
    expect(sheet.getRow(3).values).toEqual([undefined, "Bia", 2, 2.5, 1, 32, 2, 1]);
    expect(workbook.getWorksheet("Filas")!.getRow(4).getCell(1).value).toBe("Sem fila");
  });

  it("admins only; validated like the dashboard; another company sees only its own", async () => {
    expect((await get(d.anaSession, "/dashboard/reports?days=7")).statusCode).toBe(403);
    expect((await get(d.anaSession, "/dashboard/reports/export?format=csv&days=7")).statusCode).toBe(403);
    expect((await get(null, "/dashboard/reports?days=7")).statusCode).toBe(401);
    expect((await get(d.adminSession, "/dashboard/reports")).json().error).toBe("Parametrize o filtro");
    expect((await get(d.adminSession, "/dashboard/reports/export?format=pdf&days=7")).statusCode).toBe(400);
    expect((await get(d.adminSession, "/dashboard/reports/export?format=csv&table=users&days=7")).statusCode).toBe(400);
    const other = await desk();
    const body = (await get(other.adminSession, "/dashboard/reports?date_from=2025-03-10&date_to=2025-03-10")).json() as ReportsResponse;
    expect(body.queues.every((q) => q.tickets === 0)).toBe(true);
    expect(body.queues.map((q) => q.id)).toEqual([other.suporte.id, other.vendas.id]);
    expect(body.attendants.map((a) => a.id).sort()).toEqual([other.admin.id, other.ana.id, other.bia.id].sort());
  });
});

describe("GET /tickets/:id/transcript", () => {
  it("the conversation with its attendance timeline as printable HTML, escaped", async () => {
    const d = await desk();
    const ticket = await served(
      d,
      { user: d.ana.id, queue: d.vendas.id, queued: "09:00", started: "09:10", finished: "09:40", rating: 3, contactName: "Joana <b>Silva</b>" },
      [
        ["09:00", false, "Oi, <script>alert(1)</script>"],
        ["09:12", true, "Olá, sou a Ana"],
      ],
    );
    const res = await get(d.adminSession, `/tickets/${ticket.id}/transcript`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    const html = res.body;
    expect(html).not.toContain("<script>");
    expect(html).toContain("Oi, &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("Joana &lt;b&gt;Silva&lt;/b&gt;");
    // Messages and timeline in time order, in the company's time zone.
    const order = [
      "09:00:00</time> Entrou na fila: Vendas",
      "Oi, &lt;script&gt;",
      "09:10:00</time> Atendimento iniciado por Ana",
      "Olá, sou a Ana",
      "09:40:00</time> Atendimento finalizado por Ana",
      "Avaliação: 3/3",
    ];
    const positions = order.map((s) => html.indexOf(s));
    expect(
      positions.every((p) => p > 0),
      JSON.stringify(positions),
    ).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(html).toContain("10/03/2025");
    expect((await get(d.adminSession, `/tickets/${ticket.id}/transcript?lang=en`)).body).toContain("Attendance started by Ana");
  });

  it("visible to whoever may open the ticket: its queue's attendant yes, another queue's no, another company 404 like a missing one", async () => {
    const d = await desk();
    const ticket = await served(d, { user: d.ana.id, queue: d.vendas.id, queued: "09:00", started: "09:10", finished: "09:40" });
    expect((await get(d.anaSession, `/tickets/${ticket.id}/transcript`)).statusCode).toBe(200);
    const denied = await get(d.biaSession, `/tickets/${ticket.id}/transcript`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: "Acesso não permitido" });
    const other = await desk();
    const cross = await get(other.adminSession, `/tickets/${ticket.id}/transcript`);
    const missing = await get(other.adminSession, `/tickets/2000000000/transcript`);
    expect(cross.statusCode).toBe(404);
    expect(cross.body).toBe(missing.body);
    expect((await get(null, `/tickets/${ticket.id}/transcript`)).statusCode).toBe(401);
    expect((await get(d.adminSession, `/tickets/abc/transcript`)).statusCode).toBe(400);
  });
});
