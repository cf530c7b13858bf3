import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "@balcao/shared";
import { companies, settings, users } from "../../db/schema";
import { buildPlan, login } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIGNUP_RATE_LIMIT: "1000" });
});
afterAll(() => t.close());

const signup = (payload: unknown) => t.app.inject({ method: "POST", url: "/api/companies/cadastro", payload: payload as object });

describe("POST /companies/cadastro", () => {
  it("creates the company on the server's trial terms, whatever the client sends, and its admin can log in", async () => {
    const plan = await buildPlan(t.ctx);
    const res = await signup({
      name: "Padaria Pão Quente",
      email: "Dono@Padaria.com.br",
      phone: "+55 11 99999-0000",
      password: "segredo",
      planId: plan.id,
      // A client trying to grant itself a free year: all ignored.
      dueDate: "2099-12-31",
      status: false,
      recurrence: "ANUAL",
      campaignsEnabled: false,
    });
    expect(res.statusCode).toBe(201);
    const { companyId, userId } = res.json();
    const [company] = await t.ctx.database.db.select().from(companies).where(eq(companies.id, companyId));
    expect(company).toMatchObject({
      name: "Padaria Pão Quente",
      recurrence: "MENSAL",
      status: true,
      campaignsEnabled: true,
      planId: plan.id,
      dueDate: addDays(todayIn(t.config.defaultTimeZone), 3),
    });
    const [admin] = await t.ctx.database.db.select().from(users).where(eq(users.id, userId));
    expect(admin).toMatchObject({ email: "dono@padaria.com.br", profile: "admin", super: false, companyId });
    const keys = await t.ctx.database.db.select({ key: settings.key }).from(settings).where(eq(settings.companyId, companyId));
    expect(keys.map((k) => k.key)).toEqual(expect.arrayContaining(["userRating", "scheduleType", "call", "CheckMsgIsGroup"]));
    await expect(login(t.app, "dono@padaria.com.br", "segredo")).resolves.toMatchObject({ companyId });
  });

  it.each([
    [{ name: "A" }, "name", "Too Short!"],
    [{ name: "x".repeat(51) }, "name", "Too Long!"],
    [{ name: "" }, "name", "Required"],
    [{ name: undefined }, "name", "Required"],
    [{ email: "not-an-email" }, "email", "Invalid email"],
    [{ email: "" }, "email", "Required"],
    [{ password: "1234" }, "password", "Too Short!"],
    [{ password: "x".repeat(51) }, "password", "Too Long!"],
  ])("rejects %o with the spec's text", async (override, field, message) => {
    const plan = await buildPlan(t.ctx);
    const res = await signup({ name: "Empresa Válida", email: "valida@test.dev", password: "segredo", planId: plan.id, ...override });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.issues).toContainEqual({ path: field, message });
  });

  it("400 for an unknown plan, a duplicate email or company name — never 500", async () => {
    const plan = await buildPlan(t.ctx);
    expect((await signup({ name: "Sem Plano", email: "semplano@test.dev", password: "segredo", planId: 999999 })).json()).toEqual({
      error: "ERR_NO_PLAN_FOUND",
    });
    expect((await signup({ name: "Loja Um", email: "loja@test.dev", password: "segredo", planId: plan.id })).statusCode).toBe(201);
    const sameEmail = await signup({ name: "Loja Dois", email: "LOJA@test.dev", password: "segredo", planId: plan.id });
    expect(sameEmail.statusCode).toBe(400);
    expect(sameEmail.json()).toEqual({ error: "ERR_DUPLICATED_EMAIL" });
    const sameName = await signup({ name: "loja um", email: "outra@test.dev", password: "segredo", planId: plan.id });
    expect(sameName.statusCode).toBe(400);
    expect(sameName.json()).toEqual({ error: "ERR_DUPLICATED_COMPANY" });
  });

  it("lists plans publicly for the picker", async () => {
    const plan = await buildPlan(t.ctx, { name: "Plano Público", value: 12.5 });
    const res = await t.app.inject({ method: "GET", url: "/api/plans/list" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toContainEqual({ id: plan.id, name: "Plano Público", users: 1000, connections: 5, queues: 10, value: 12.5 });
  });
});
