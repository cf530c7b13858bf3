import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, addRecurrence, todayIn, type CompanyDTO, type CompanyListResponse, type ConnectionDTO, type SettingDTO } from "@balcao/shared";
import { companies, contacts, settings, tickets, users } from "../../db/schema";
import { buildCompany, buildContact, buildPlan, buildTenant, buildUser, login, TEST_PASSWORD, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

let t: TestApp;
let a: Awaited<ReturnType<typeof buildTenant>>;
let b: Awaited<ReturnType<typeof buildTenant>>;
let platform: Awaited<ReturnType<typeof buildCompany>>;
let superSession: Session;
let today: string;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0", SIGNUP_RATE_LIMIT: "1000" });
  a = await buildTenant(t.app);
  b = await buildTenant(t.app);
  platform = await buildCompany(t.ctx, { name: "Plataforma", dueDate: null });
  const root = await buildUser(t.ctx, platform.id, { profile: "admin", super: true });
  superSession = await login(t.app, root.email);
  today = todayIn(t.config.defaultTimeZone);
});
afterAll(() => t.close());

const call = (session: Session | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session ? session.headers : {}, ...(payload ? { payload } : {}) });

let seq = 0;
const companyBody = async (overrides: object = {}) => {
  const n = ++seq;
  const plan = await buildPlan(t.ctx);
  return { name: `Empresa Nova ${n}`, email: `nova-${n}-${Date.now()}@test.dev`, password: "segredo", planId: plan.id, ...overrides };
};

describe("super-only matrix of the companies endpoints", () => {
  it.each([
    ["GET", "/companies", 200],
    ["GET", "/companies/list", 200],
    ["GET", "/companies/:company", 200],
    ["POST", "/companies", 201],
    ["PUT", "/companies/:company", 200],
    ["DELETE", "/companies/:company", 204],
    ["GET", "/companies/:company/settings", 200],
    ["PUT", "/companies/:company/settings/userRating", 200],
  ] as const)("%s %s → super %i; company admin and attendant 403; anonymous 401", async (method, path, superStatus) => {
    for (const [role, session, expected] of [
      ["admin", a.adminSession, 403],
      ["user", a.userSession, 403],
      ["anonymous", null, 401],
      ["super", superSession, superStatus],
    ] as const) {
      // The admin's own company too: being its admin gives no platform rights.
      const target = role === "admin" ? a.company : await buildCompany(t.ctx);
      const url = path.replace(":company", String(target.id));
      const body =
        method === "POST"
          ? await companyBody()
          : path.endsWith("/settings/userRating")
            ? { value: "enabled" }
            : method === "PUT"
              ? { phone: "123" }
              : undefined;
      const res = await call(session, method, url, body);
      expect({ role, status: res.statusCode }).toEqual({ role, status: expected });
      if (expected === 403) expect(res.json()).toEqual({ error: "ERR_NO_PERMISSION" });
    }
  });
});

describe("listing", () => {
  it("pages of 20 by name, searchable on name or email ignoring case and accents, with the plan", async () => {
    const plan = await buildPlan(t.ctx, { name: "Plano Listado", value: 77.7 });
    for (let i = 0; i < 22; i++) await buildCompany(t.ctx, { name: `Zélia Comércio ${String(i).padStart(2, "0")}`, planId: plan.id });
    await buildCompany(t.ctx, { name: "Outra Coisa", email: "zelia-contato@test.dev", planId: plan.id });
    const page1 = (await call(superSession, "GET", "/companies?searchParam=ZELIA")).json() as CompanyListResponse;
    expect(page1.companies).toHaveLength(20);
    expect(page1.hasMore).toBe(true);
    expect(page1.companies[0]).toMatchObject({ name: "Outra Coisa", plan: { id: plan.id, name: "Plano Listado", value: 77.7 } });
    expect(page1.companies[1]!.name).toBe("Zélia Comércio 00");
    const page2 = (await call(superSession, "GET", "/companies?searchParam=zelia&pageNumber=2")).json() as CompanyListResponse;
    expect(page2.companies.map((c) => c.name)).toEqual(["Zélia Comércio 19", "Zélia Comércio 20", "Zélia Comércio 21"]);
    expect(page2.hasMore).toBe(false);
    const all = (await call(superSession, "GET", "/companies/list")).json() as CompanyDTO[];
    expect(all.map((c) => c.id)).toEqual(expect.arrayContaining([a.company.id, b.company.id, platform.id]));
    expect(all[0]).not.toHaveProperty("passwordHash");
  });
});

describe("create, show, update", () => {
  it("creates the company with its admin, default settings and the given terms", async () => {
    const body = await companyBody({
      name: "Mercado Central",
      phone: "11 4000-0000",
      dueDate: "2030-01-31",
      recurrence: "TRIMESTRAL",
      status: true,
      campaignsEnabled: false,
    });
    const res = await call(superSession, "POST", "/companies", body);
    expect(res.statusCode).toBe(201);
    const company = res.json() as CompanyDTO;
    expect(company).toMatchObject({
      name: "Mercado Central",
      phone: "11 4000-0000",
      dueDate: "2030-01-31",
      recurrence: "TRIMESTRAL",
      status: true,
      campaignsEnabled: false,
      planId: body.planId,
    });
    expect((await call(superSession, "GET", `/companies/${company.id}`)).json()).toEqual(company);
    const admin = await login(t.app, body.email, "segredo");
    expect(admin.companyId).toBe(company.id);
    const own = (await call(admin, "GET", "/settings")).json() as SettingDTO[];
    expect(own.find((s) => s.key === "campaignsEnabled")?.value).toBe("false");
    const [user] = await t.ctx.database.db.select().from(users).where(eq(users.companyId, company.id));
    expect(user).toMatchObject({ profile: "admin", super: false, name: "Mercado Central" });
  });

  it("answers clear errors: duplicated name or email, missing plan, bad fields", async () => {
    const taken = await call(superSession, "POST", "/companies", await companyBody({ name: a.company.name.toUpperCase() }));
    expect(taken.json()).toEqual({ error: "ERR_DUPLICATED_COMPANY" });
    const email = await call(superSession, "POST", "/companies", await companyBody({ email: a.admin.email }));
    expect(email.json()).toEqual({ error: "ERR_DUPLICATED_EMAIL" });
    const plan = await call(superSession, "POST", "/companies", await companyBody({ planId: 999_999 }));
    expect(plan.json()).toEqual({ error: "ERR_NO_PLAN_FOUND" });
    for (const override of [
      { dueDate: "2026-02-30" },
      { dueDate: "31/12/2026" },
      { recurrence: "SEMANAL" },
      { name: "A" },
      { password: "123" },
      { email: "x" },
    ]) {
      const res = await call(superSession, "POST", "/companies", await companyBody(override));
      expect({ override, status: res.statusCode }).toEqual({ override, status: 400 });
    }
    expect((await call(superSession, "GET", "/companies/999999")).json()).toEqual({ error: "ERR_NO_COMPANY_FOUND" });
    expect((await call(superSession, "PUT", "/companies/999999", { phone: "1" })).statusCode).toBe(404);
  });

  it("an empty or null due date clears it (no expiry); a full ISO timestamp keeps its date", async () => {
    const company = await buildCompany(t.ctx);
    expect((await call(superSession, "PUT", `/companies/${company.id}`, { dueDate: "" })).json()).toMatchObject({ dueDate: null });
    expect((await call(superSession, "PUT", `/companies/${company.id}`, { dueDate: "2031-07-15T03:00:00.000Z" })).json()).toMatchObject({
      dueDate: "2031-07-15",
    });
    expect((await call(superSession, "PUT", `/companies/${company.id}`, { dueDate: null })).json()).toMatchObject({ dueDate: null });
    expect((await call(superSession, "PUT", `/companies/${company.id}`, { dueDate: "Invalid date" })).statusCode).toBe(400);
  });

  it("campaignsEnabled on the company and the setting the menu reads stay in step, both ways", async () => {
    const company = await buildCompany(t.ctx);
    const admin = await buildUser(t.ctx, company.id, { profile: "admin" });
    const session = await login(t.app, admin.email);
    await call(superSession, "PUT", `/companies/${company.id}`, { campaignsEnabled: false });
    expect(((await call(session, "GET", "/settings")).json() as SettingDTO[]).find((s) => s.key === "campaignsEnabled")?.value).toBe("false");
    await call(superSession, "PUT", `/companies/${company.id}/settings/campaignsEnabled`, { value: "true" });
    expect((await call(superSession, "GET", `/companies/${company.id}`)).json()).toMatchObject({ campaignsEnabled: true });
  });
});

describe("due date, '+ Vencimento' and activation", () => {
  it("an expired company's users are locked out (402) until the super user extends the due date by the recurrence", async () => {
    const expired = addDays(today, -4);
    const company = await buildCompany(t.ctx, { dueDate: expired, recurrence: "MENSAL" });
    // An attendant: an expired company's admin may keep a billing-only session to pay (issue 13).
    const attendant = await buildUser(t.ctx, company.id, { profile: "user" });
    const admin = await buildUser(t.ctx, company.id, { profile: "admin" });
    const refused = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: attendant.email, password: TEST_PASSWORD } });
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual({ error: "ERR_SUBSCRIPTION_EXPIRED", meta: { dueDate: expired } });

    // What the Companies tab's '+ Vencimento' sends: the due date plus one recurrence span.
    let dueDate = expired;
    while (dueDate < today) dueDate = addRecurrence(dueDate, "MENSAL");
    const extended = await call(superSession, "PUT", `/companies/${company.id}`, { dueDate });
    expect(extended.json()).toMatchObject({ dueDate });
    for (const user of [attendant, admin]) {
      const session = await login(t.app, user.email);
      expect((await call(session, "GET", "/settings")).statusCode).toBe(200);
      expect((await call(session, "GET", "/tags/list")).statusCode).toBe(200);
    }
  });

  it("deactivating a company locks its users out at once; reactivating lets them back in", async () => {
    const company = await buildCompany(t.ctx);
    const admin = await buildUser(t.ctx, company.id, { profile: "admin" });
    const session = await login(t.app, admin.email);
    expect((await call(superSession, "PUT", `/companies/${company.id}`, { status: false })).json()).toMatchObject({ status: false });
    expect((await call(session, "GET", "/settings")).statusCode).toBe(402);
    await call(superSession, "PUT", `/companies/${company.id}`, { status: "t" });
    expect((await login(t.app, admin.email)).companyId).toBe(company.id);
  });
});

describe("every company's settings, for the super user", () => {
  it("reads all keys (credentials included) and saves with the settings rules", async () => {
    const list = (await call(superSession, "GET", `/companies/${b.company.id}/settings`)).json() as SettingDTO[];
    expect(list.map((s) => s.key)).toEqual(expect.arrayContaining(["userRating", "scheduleType", "userCreation"]));
    const saved = await call(superSession, "PUT", `/companies/${b.company.id}/settings/scheduleType`, { value: "company" });
    expect(saved.json()).toEqual({ key: "scheduleType", value: "company" });
    expect(((await call(b.adminSession, "GET", "/settings")).json() as SettingDTO[]).find((s) => s.key === "scheduleType")?.value).toBe("company");
    expect((await call(superSession, "PUT", `/companies/${b.company.id}/settings/scheduleType`, { value: "sometimes" })).json()).toMatchObject({
      error: "ERR_INVALID_SETTING_VALUE",
    });
    expect((await call(superSession, "PUT", `/companies/${b.company.id}/settings/nope`, { value: "x" })).statusCode).toBe(404);
    expect((await call(superSession, "GET", "/companies/999999/settings")).statusCode).toBe(404);
    // Company a's own settings are untouched.
    expect(((await call(a.adminSession, "GET", "/settings")).json() as SettingDTO[]).find((s) => s.key === "scheduleType")?.value).toBe("disabled");
  });
});

describe("userCreation (spec §8 ERR_USER_CREATION_DISABLED)", () => {
  it("the platform company's setting closes and reopens public sign-up", async () => {
    const plan = await buildPlan(t.ctx);
    const body = (n: string) => ({ name: `Cadastro ${n}`, email: `cadastro-${n}@test.dev`, password: "segredo", planId: plan.id });
    await call(superSession, "PUT", `/companies/${platform.id}/settings/userCreation`, { value: "disabled" });
    const refused = await t.app.inject({ method: "POST", url: "/api/companies/cadastro", payload: body("fechado") });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: "ERR_USER_CREATION_DISABLED" });
    expect(await t.ctx.database.db.select().from(companies).where(eq(companies.name, "Cadastro fechado"))).toHaveLength(0);
    // Another company's value has no say.
    await call(superSession, "PUT", `/companies/${a.company.id}/settings/userCreation`, { value: "enabled" });
    expect((await t.app.inject({ method: "POST", url: "/api/companies/cadastro", payload: body("fechado") })).statusCode).toBe(400);
    await call(superSession, "PUT", `/companies/${platform.id}/settings/userCreation`, { value: "enabled" });
    expect((await t.app.inject({ method: "POST", url: "/api/companies/cadastro", payload: body("aberto") })).statusCode).toBe(201);
  });
});

describe("deleting a company", () => {
  it("removes its data and users, stops its connections and its files; other companies are untouched", async () => {
    const company = await buildCompany(t.ctx, { name: "Empresa Condenada" });
    const admin = await buildUser(t.ctx, company.id, { profile: "admin" });
    const session = await login(t.app, admin.email);
    const created = await call(session, "POST", "/whatsapp", { name: "Conexão Condenada" });
    expect(created.statusCode).toBe(201);
    const connection = created.json() as ConnectionDTO;
    expect(t.ctx.channels.isLocal(connection.id)).toBe(true);
    const contact = await buildContact(t.ctx, company.id);
    await t.ctx.database.db.insert(tickets).values({ companyId: company.id, contactId: contact.id, status: "open" });
    const mediaDir = path.join(t.config.dataDir, "media", String(company.id));
    mkdirSync(mediaDir, { recursive: true });
    writeFileSync(path.join(mediaDir, "file"), "x");
    const neighbour = await buildContact(t.ctx, b.company.id);

    expect((await call(superSession, "DELETE", `/companies/${company.id}`)).statusCode).toBe(204);
    expect(t.ctx.channels.isLocal(connection.id)).toBe(false);
    expect(existsSync(mediaDir)).toBe(false);
    const db = t.ctx.database.db;
    expect(await db.select().from(companies).where(eq(companies.id, company.id))).toHaveLength(0);
    expect(await db.select().from(users).where(eq(users.companyId, company.id))).toHaveLength(0);
    expect(await db.select().from(contacts).where(eq(contacts.companyId, company.id))).toHaveLength(0);
    expect(await db.select().from(tickets).where(eq(tickets.companyId, company.id))).toHaveLength(0);
    expect(await db.select().from(settings).where(eq(settings.companyId, company.id))).toHaveLength(0);
    expect((await call(session, "GET", "/settings")).statusCode).toBe(401);
    expect(await db.select().from(contacts).where(eq(contacts.id, neighbour.id))).toHaveLength(1);
    expect((await call(superSession, "DELETE", `/companies/${company.id}`)).statusCode).toBe(404);
  });

  it("a super user cannot delete its own company", async () => {
    const res = await call(superSession, "DELETE", `/companies/${platform.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: "ERR_CANNOT_DELETE_OWN_COMPANY" });
  });
});
