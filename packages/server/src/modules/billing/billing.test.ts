import { and, eq, sql } from "drizzle-orm";
import { inject } from "vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, addRecurrence, todayIn, type InvoiceDTO, type PaymentEventPayload, type PixChargeDTO } from "@balcao/shared";
import { openDatabase } from "../../db/client";
import { companies, invoicePayments, invoices, pixCharges } from "../../db/schema";
import { withDatabase } from "../../test/globalSetup";
import { buildCompany, buildPlan, buildUser, collectEvents, connectSocket, login, nextEvent, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { generateDueInvoices } from "./generation";
import { billingServiceOf, INVOICE_JOB } from "./routes";

let t: TestApp;
let today: string;

beforeAll(async () => {
  t = await createTestApp({ PIX_PROVIDER: "sandbox", PIX_KEY: "pix@balcao.test", SOCKET_SESSION_CHECK_MS: "600000", JOBS_POLL_SECONDS: "0.5" });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  today = todayIn(t.config.defaultTimeZone);
});
afterAll(() => t.close());

const call = (session: Session | null, method: "GET" | "POST", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session ? session.headers : {}, ...(payload ? { payload } : {}) });

/** A company on a plan of `value` a month, with an admin and an attendant logged in (while it can log in). */
async function tenant(options: { value?: number; recurrence?: string; dueInDays?: number; status?: boolean } = {}) {
  const plan = await buildPlan(t.ctx, { value: options.value ?? 99.9 });
  const company = await buildCompany(t.ctx, {
    planId: plan.id,
    recurrence: options.recurrence ?? "MENSAL",
    dueDate: addDays(today, options.dueInDays ?? 10),
    status: options.status ?? true,
  });
  const admin = await buildUser(t.ctx, company.id, { profile: "admin" });
  const user = await buildUser(t.ctx, company.id, { profile: "user" });
  return { plan, company, admin, user };
}

async function invoicesOf(session: Session): Promise<InvoiceDTO[]> {
  const res = await call(session, "GET", "/invoices/all");
  expect(res.statusCode).toBe(200);
  return (res.json() as { list: InvoiceDTO[] }).list;
}

const companyRow = async (id: number) => (await t.ctx.database.db.select().from(companies).where(eq(companies.id, id)))[0]!;
const invoiceRow = async (id: number) => (await t.ctx.database.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;

describe("invoices", () => {
  it("generates the due invoice from the plan and recurrence; GET /invoices/all pages it", async () => {
    const monthly = await tenant({ value: 99.9, dueInDays: 10 });
    const yearly = await tenant({ value: 50, recurrence: "ANUAL", dueInDays: 3 });
    const far = await tenant({ dueInDays: 40 });
    const [m] = await invoicesOf(await login(t.app, monthly.admin.email));
    expect(m).toMatchObject({
      detail: monthly.plan.name,
      value: 99.9,
      dueDate: addDays(today, 10),
      status: "open",
      paidAt: null,
      recurrence: "MENSAL",
    });
    const [y] = await invoicesOf(await login(t.app, yearly.admin.email));
    expect(y).toMatchObject({ value: 600, recurrence: "ANUAL", dueDate: addDays(today, 3) });
    expect(await invoicesOf(await login(t.app, far.admin.email))).toEqual([]);
    const body = (await call(await login(t.app, monthly.admin.email), "GET", "/invoices/all?searchParam=zzz&pageNumber=1")).json();
    expect(body).toEqual({ list: [], hasMore: false });
  });

  it("runs on the durable job runner (the recurring job's handler, enqueued by name)", async () => {
    const a = await tenant({ dueInDays: 6 });
    expect(await t.ctx.database.db.select().from(invoices).where(eq(invoices.companyId, a.company.id))).toEqual([]);
    expect(await t.ctx.jobs.enqueue(INVOICE_JOB, {})).toEqual(expect.any(String));
    let rows: (typeof invoices.$inferSelect)[] = [];
    for (let i = 0; i < 100 && rows.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      rows = await t.ctx.database.db.select().from(invoices).where(eq(invoices.companyId, a.company.id));
    }
    expect(rows).toMatchObject([{ dueDate: addDays(today, 6), status: "open", value: 99.9 }]);
  });

  it("makes none for inactive companies or free plans", async () => {
    const free = await tenant({ value: 0, dueInDays: 2 });
    const inactive = await tenant({ dueInDays: 2, status: false });
    const created = await generateDueInvoices(t.ctx.database.db, new Date(), { leadDays: 20 });
    expect(created.map((c) => c.companyId)).not.toContain(free.company.id);
    expect(created.map((c) => c.companyId)).not.toContain(inactive.company.id);
  });

  it("is idempotent across two concurrent generators on separate connections (two processes)", async () => {
    const many = await Promise.all(Array.from({ length: 5 }, () => tenant({ dueInDays: 5 })));
    const url = inject("postgresUrl");
    const current = (await t.ctx.database.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] };
    const name = current.rows[0]!.name;
    // On PostgreSQL a second pool on the same database is a second process's connection; PGlite has one connection.
    const second = url ? await openDatabase({ databaseUrl: withDatabase(url, name) }) : null;
    try {
      const now = new Date();
      const runs = await Promise.all([
        generateDueInvoices(t.ctx.database.db, now, { leadDays: 20 }),
        generateDueInvoices((second ?? t.ctx.database).db, now, { leadDays: 20 }),
        generateDueInvoices(t.ctx.database.db, now, { leadDays: 20 }),
      ]);
      const ids = many.map((x) => x.company.id);
      const createdForMany = runs.flat().filter((r) => ids.includes(r.companyId));
      expect(createdForMany).toHaveLength(ids.length);
      // A restart later creates nothing again.
      expect((await generateDueInvoices(t.ctx.database.db, new Date(), { leadDays: 20 })).filter((r) => ids.includes(r.companyId))).toEqual([]);
      const counts = await t.ctx.database.db
        .select({ companyId: invoices.companyId, n: sql<number>`count(*)`.mapWith(Number) })
        .from(invoices)
        .where(
          sql`${invoices.companyId} in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`,
        )
        .groupBy(invoices.companyId);
      expect(counts.map((c) => c.n)).toEqual(ids.map(() => 1));
    } finally {
      await second?.close();
    }
  });

  it("is for admins only and never shows another company's invoices", async () => {
    const a = await tenant();
    const b = await tenant();
    const [invoiceA] = await invoicesOf(await login(t.app, a.admin.email));
    const [invoiceB] = await invoicesOf(await login(t.app, b.admin.email));
    expect(invoiceA!.id).not.toBe(invoiceB!.id);
    expect((await call(await login(t.app, a.user.email), "GET", "/invoices/all")).statusCode).toBe(403);
    expect((await call(null, "GET", "/invoices/all")).statusCode).toBe(401);
    const res = await call(await login(t.app, b.admin.email), "POST", "/subscription", { invoiceId: invoiceA!.id });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: "ERR_NO_INVOICE_FOUND" });
    expect((await call(await login(t.app, a.user.email), "POST", "/subscription", { invoiceId: invoiceA!.id })).statusCode).toBe(403);
  });
});

describe("checkout (POST /subscription)", () => {
  it("answers the spec's validation texts for an incomplete billing address", async () => {
    const a = await tenant();
    const session = await login(t.app, a.admin.email);
    const [invoice] = await invoicesOf(session);
    const res = await call(session, "POST", "/subscription", {
      invoiceId: invoice!.id,
      firstName: "",
      address2: "",
      city: "",
      zipcode: "",
      country: "",
      state: "SP",
    });
    expect(res.statusCode).toBe(400);
    const messages = (res.json() as { issues: { message: string }[] }).issues.map((i) => i.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        "O nome completo é obrigatório",
        "O Endereço é obrigatório",
        "Cidade é obrigatória",
        "CEP é obrigatório",
        "País é obrigatório",
      ]),
    );
    const badCep = await call(session, "POST", "/subscription", {
      invoiceId: invoice!.id,
      firstName: "Ana",
      address2: "Rua A, 1",
      city: "Recife",
      zipcode: "123",
      country: "Brasil",
    });
    expect(badCep.json()).toMatchObject({ error: "CEP inválido" });
    expect((await call(session, "POST", "/subscription", {})).statusCode).toBe(400);
  });

  it("charges the invoice's amount, refuses a tampered price and ignores the client's plan", async () => {
    const a = await tenant({ value: 99.9, recurrence: "TRIMESTRAL" });
    const session = await login(t.app, a.admin.email);
    const [invoice] = await invoicesOf(session);
    expect(invoice!.value).toBeCloseTo(299.7);
    const tampered = await call(session, "POST", "/subscription", {
      invoiceId: invoice!.id,
      price: 0.01,
      plan: JSON.stringify({ price: 0.01, users: 999 }),
    });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json()).toMatchObject({ error: "ERR_CHECKOUT_AMOUNT_MISMATCH" });
    expect(await t.ctx.database.db.select().from(pixCharges).where(eq(pixCharges.invoiceId, invoice!.id))).toEqual([]);

    const res = await call(session, "POST", "/subscription", {
      invoiceId: invoice!.id,
      plan: JSON.stringify({ price: 1, users: 999, connections: 999 }),
      users: 999,
      connections: 999,
      firstName: "Ana",
      lastName: "Souza",
      address2: "Rua das Flores, 10",
      city: "Recife",
      state: "PE",
      zipcode: "50010-000",
      country: "Brasil",
    });
    expect(res.statusCode).toBe(201);
    const charge = res.json() as PixChargeDTO;
    expect(charge).toMatchObject({ invoiceId: invoice!.id, provider: "sandbox", status: "ATIVA", valor: { original: "299.70" } });
    expect(charge.qrcode.qrcode).toMatch(/^000201/);
    expect(charge.txid).toMatch(/^[A-Za-z0-9]{26,35}$/);
    expect(await companyRow(a.company.id)).toMatchObject({ billingName: "Ana Souza", addressZipCode: "50010000", addressCity: "Recife" });
    // The PSP holds the server's amount, not the client's.
    const { sandbox } = await billingOf().pixSetup();
    expect(sandbox!.cob(charge.txid)).toMatchObject({ valor: { original: "299.70" }, chave: "pix@balcao.test" });
    // A second click reuses the live charge.
    const again = (await call(session, "POST", "/subscription", { invoiceId: invoice!.id, price: "299,70" })).json() as PixChargeDTO;
    expect(again.txid).toBe(charge.txid);
  });
});

/** The app's BillingService (the routes' instance, so the sandbox PSP is the one the routes use). */
const billingOf = () => billingServiceOf(t.ctx)!;

describe("payment confirmation", () => {
  async function checkout(a: Awaited<ReturnType<typeof tenant>>) {
    const session = await login(t.app, a.admin.email);
    const [invoice] = await invoicesOf(session);
    const charge = (await call(session, "POST", "/subscription", { invoiceId: invoice!.id })).json() as PixChargeDTO;
    const { sandbox } = await billingOf().pixSetup();
    return { session, invoice: invoice!, charge, psp: sandbox! };
  }

  it("pays through the PSP's webhook once: replays and forged callbacks change nothing", async () => {
    const a = await tenant({ recurrence: "MENSAL", dueInDays: 10 });
    const { session, invoice, charge, psp } = await checkout(a);
    const socket = await connectSocket(t.app, session.token);
    const payments = collectEvents<PaymentEventPayload>(socket, "payment");
    const stranger = await tenant();
    const strangerSocket = await connectSocket(t.app, (await login(t.app, stranger.admin.email)).token);
    const strangerPayments = collectEvents<PaymentEventPayload>(strangerSocket, "payment");
    const webhookUrl = psp.webhookFor("pix@balcao.test")!;
    expect(webhookUrl).toMatch(/\/api\/billing\/pix\/webhook\/[A-Za-z0-9_-]{20,}$/);

    // A callback for a charge the PSP has not seen paid (forged, or early) settles nothing.
    expect(
      await psp.notify(
        { pix: [{ endToEndId: "E00000000202601010000abcdefghijk", txid: charge.txid, valor: "299.70", horario: new Date().toISOString() }] },
        "pix@balcao.test",
      ),
    ).toBe(200);
    expect((await invoiceRow(invoice.id)).status).toBe("open");
    // A wrong secret is a 404, whatever the body says.
    const wrong = await t.app.inject({
      method: "POST",
      url: "/api/billing/pix/webhook/not-the-secret/pix",
      payload: { pix: [{ txid: charge.txid }] },
    });
    expect(wrong.statusCode).toBe(404);

    const paid = nextEvent<PaymentEventPayload>(socket, "payment", 10_000);
    const { pix, webhookStatus } = await psp.pay(charge.txid);
    expect(webhookStatus).toBe(200);
    const expectedDue = addRecurrence(invoice.dueDate, "MENSAL");
    expect(await paid).toEqual({ action: "CONCLUIDA", company: { id: a.company.id, dueDate: expectedDue }, invoiceId: invoice.id });
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: "paid" });
    expect((await companyRow(a.company.id)).dueDate).toBe(expectedDue);

    // The same callback again, and again out of order with the first: nothing moves.
    for (let i = 0; i < 3; i++) expect(await psp.notify({ pix: [pix] }, "pix@balcao.test")).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect((await companyRow(a.company.id)).dueDate).toBe(expectedDue);
    expect(payments).toHaveLength(1);
    // Another company hears nothing of it.
    expect(strangerPayments).toEqual([]);
    strangerSocket.disconnect();
    const rows = await t.ctx.database.db.select().from(invoicePayments).where(eq(invoicePayments.invoiceId, invoice.id));
    expect(rows).toMatchObject([{ method: "pix", endToEndId: pix.endToEndId, applied: true, amount: 99.9 }]);
    // Checkout of a paid invoice is refused.
    expect((await call(session, "POST", "/subscription", { invoiceId: invoice.id })).json()).toMatchObject({ error: "ERR_INVOICE_ALREADY_PAID" });
    socket.disconnect();
  });

  it("the user's company carries its email and a trial expiration until the first payment (spec §3)", async () => {
    const a = await tenant({ dueInDays: 3 });
    const session = await login(t.app, a.admin.email);
    const before = (await call(session, "GET", "/auth/me")).json() as { company: { email: string; trialExpiration: string | null } };
    expect(before.company).toMatchObject({ email: a.company.email, trialExpiration: addDays(today, 3) });
    const [invoice] = await invoicesOf(session);
    await billingOf().settle({ invoiceId: invoice!.id, companyId: a.company.id, method: "manual", amountCents: 9990, paidAt: new Date() });
    const after = (await call(session, "GET", "/auth/me")).json() as { company: { trialExpiration: string | null; dueDate: string } };
    expect(after.company).toMatchObject({ trialExpiration: null, dueDate: addRecurrence(addDays(today, 3), "MENSAL") });
  });

  it("refuses a payment whose amount at the PSP differs from the invoice", async () => {
    const a = await tenant();
    const { invoice, charge, psp } = await checkout(a);
    await psp.pay(charge.txid, { amount: "0.01" });
    expect((await invoiceRow(invoice.id)).status).toBe("open");
    expect((await companyRow(a.company.id)).dueDate).toBe(a.company.dueDate);
  });

  it("a second, different payment of a paid invoice is recorded but extends nothing", async () => {
    const a = await tenant({ recurrence: "BIMESTRAL", dueInDays: 4 });
    const session = await login(t.app, a.admin.email);
    const [invoice] = await invoicesOf(session);
    const billing = billingOf();
    const first = await billing.settle({
      invoiceId: invoice!.id,
      companyId: a.company.id,
      method: "pix",
      amountCents: 9990,
      paidAt: new Date(),
      endToEndId: "E1".padEnd(32, "1"),
    });
    const second = await billing.settle({
      invoiceId: invoice!.id,
      companyId: a.company.id,
      method: "pix",
      amountCents: 9990,
      paidAt: new Date(),
      endToEndId: "E2".padEnd(32, "2"),
    });
    const replay = await billing.settle({
      invoiceId: invoice!.id,
      companyId: a.company.id,
      method: "pix",
      amountCents: 9990,
      paidAt: new Date(),
      endToEndId: "E1".padEnd(32, "1"),
    });
    expect(first).toMatchObject({ applied: true, dueDate: addRecurrence(invoice!.dueDate, "BIMESTRAL") });
    expect(second).toMatchObject({ applied: false, duplicate: false });
    expect(replay).toMatchObject({ applied: false, duplicate: true });
    const rows = await t.ctx.database.db.select().from(invoicePayments).where(eq(invoicePayments.invoiceId, invoice!.id));
    expect(rows.map((r) => r.applied).sort()).toEqual([false, true]);
    expect((await companyRow(a.company.id)).dueDate).toBe(addRecurrence(invoice!.dueDate, "BIMESTRAL"));
  });

  it.each([
    ["MENSAL", 1],
    ["BIMESTRAL", 2],
    ["TRIMESTRAL", 3],
    ["SEMESTRAL", 6],
    ["ANUAL", 12],
  ])("extends a %s company's due date by %i month(s) from the invoice's due date", async (recurrence) => {
    const a = await tenant({ recurrence, dueInDays: 7 });
    const [invoice] = await invoicesOf(await login(t.app, a.admin.email));
    const result = await billingOf().settle({
      invoiceId: invoice!.id,
      companyId: a.company.id,
      method: "manual",
      amountCents: 100,
      paidAt: new Date(),
    });
    expect(result.dueDate).toBe(addRecurrence(addDays(today, 7), recurrence));
  });
});

describe("expired subscription", () => {
  it("keeps non-admins out, lets the admin reach billing only, and lifts the lockout once paid", async () => {
    const a = await tenant({ dueInDays: -3 });
    const refused = await call(null, "POST", "/auth/login", { email: a.user.email, password: a.user.password });
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual({ error: "ERR_SUBSCRIPTION_EXPIRED", meta: { dueDate: addDays(today, -3) } });

    const session = await login(t.app, a.admin.email);
    expect((await call(session, "GET", "/auth/me")).statusCode).toBe(200);
    for (const url of ["/tickets", "/contacts", "/users/", "/settings"]) {
      const res = await call(session, "GET", url);
      expect(res.statusCode, url).toBe(402);
      expect(res.json()).toMatchObject({ error: "ERR_SUBSCRIPTION_EXPIRED" });
    }
    const [invoice] = await invoicesOf(session);
    expect(invoice).toMatchObject({ dueDate: addDays(today, -3), status: "open" });

    // The billing-only socket hears the payment and nothing of the company's traffic.
    const socket = await connectSocket(t.app, session.token);
    const charge = (await call(session, "POST", "/subscription", { invoiceId: invoice!.id })).json() as PixChargeDTO;
    const paid = nextEvent<PaymentEventPayload>(socket, "payment", 10_000);
    const pay = await t.app.inject({ method: "POST", url: "/api/pix-sandbox/pay", payload: { pixCopiaECola: charge.qrcode.qrcode } });
    expect(pay.statusCode).toBe(200);
    // Paid after expiry: a full period from today, so the company is usable at once.
    const expectedDue = addRecurrence(today, "MENSAL");
    expect((await paid).company.dueDate).toBe(expectedDue);
    expect((await call(session, "GET", "/tickets")).statusCode).toBe(200);
    expect((await call(null, "POST", "/auth/login", { email: a.user.email, password: a.user.password })).statusCode).toBe(200);
    // The same socket now has every room of a full one: company traffic reaches it.
    expect(socket.connected).toBe(true);
    const tagEvent = nextEvent<{ action: string }>(socket, "tag", 10_000);
    expect((await call(session, "POST", "/tags", { name: "Pago" })).statusCode).toBe(201);
    expect(await tagEvent).toMatchObject({ action: "create" });
    socket.disconnect();
  });

  it("a deactivated company stays closed even to its admin", async () => {
    const a = await tenant({ dueInDays: 10, status: false });
    expect((await call(null, "POST", "/auth/login", { email: a.admin.email, password: a.admin.password })).statusCode).toBe(402);
  });
});

describe("static Pix and the super user's confirmation", () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await createTestApp({ PIX_PROVIDER: "static", PIX_KEY: "financeiro@balcao.test" });
  });
  afterAll(() => s.close());

  it("returns a static BR Code and pays only through a super user, once", async () => {
    const plan = await buildPlan(s.ctx, { value: 45.5 });
    const company = await buildCompany(s.ctx, { planId: plan.id, dueDate: addDays(todayIn(s.config.defaultTimeZone), 2) });
    const admin = await buildUser(s.ctx, company.id, { profile: "admin" });
    const platform = await buildCompany(s.ctx, { dueDate: "2093-01-01" });
    const root = await buildUser(s.ctx, platform.id, { profile: "admin", super: true });
    const adminSession = await login(s.app, admin.email);
    const rootSession = await login(s.app, root.email);
    const list = (await s.app.inject({ method: "GET", url: "/api/invoices/all", headers: adminSession.headers })).json() as { list: InvoiceDTO[] };
    const invoice = list.list[0]!;
    const charge = (
      await s.app.inject({ method: "POST", url: "/api/subscription", headers: adminSession.headers, payload: { invoiceId: invoice.id } })
    ).json() as PixChargeDTO;
    expect(charge).toMatchObject({ provider: "static", valor: { original: "45.50" }, calendario: { expiracao: null } });
    expect(charge.qrcode.qrcode).toContain("financeiro@balcao.test");
    expect(charge.qrcode.qrcode).toContain("540545.50");
    expect((await s.app.inject({ method: "POST", url: "/api/pix-sandbox/pay", payload: { txid: charge.txid } })).statusCode).toBe(404);

    const pending = (await s.app.inject({ method: "GET", url: "/api/invoices/platform", headers: rootSession.headers })).json() as {
      list: { id: number; companyName: string }[];
    };
    expect(pending.list).toContainEqual(expect.objectContaining({ id: invoice.id, companyName: company.name }));
    expect((await s.app.inject({ method: "GET", url: "/api/invoices/platform", headers: adminSession.headers })).statusCode).toBe(403);
    expect(
      (await s.app.inject({ method: "POST", url: `/api/invoices/${invoice.id}/confirm-payment`, headers: adminSession.headers })).statusCode,
    ).toBe(403);

    const first = await s.app.inject({ method: "POST", url: `/api/invoices/${invoice.id}/confirm-payment`, headers: rootSession.headers });
    expect(first.json()).toMatchObject({ applied: true, invoice: { status: "paid" } });
    const second = await s.app.inject({ method: "POST", url: `/api/invoices/${invoice.id}/confirm-payment`, headers: rootSession.headers });
    expect(second.json()).toMatchObject({ applied: false, invoice: { status: "paid" } });
    const [after] = await s.ctx.database.db.select().from(companies).where(eq(companies.id, company.id));
    expect(after!.dueDate).toBe(addRecurrence(invoice.dueDate, "MENSAL"));
    const payments = await s.ctx.database.db
      .select()
      .from(invoicePayments)
      .where(and(eq(invoicePayments.invoiceId, invoice.id)));
    expect(payments).toMatchObject([{ method: "manual", applied: true, confirmedByUserId: root.id }]);
  });
});
