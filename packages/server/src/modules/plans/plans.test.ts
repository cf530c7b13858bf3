import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlanWithUsageDTO } from "@balcao/shared";
import { plans } from "../../db/schema";
import { buildCompany, buildPlan, buildTenant, buildUser, login, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

let t: TestApp;
let a: Awaited<ReturnType<typeof buildTenant>>;
let superSession: Session;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0" });
  a = await buildTenant(t.app);
  const platform = await buildCompany(t.ctx, { dueDate: null });
  const root = await buildUser(t.ctx, platform.id, { profile: "admin", super: true });
  superSession = await login(t.app, root.email);
});
afterAll(() => t.close());

const call = (session: Session | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session ? session.headers : {}, ...(payload ? { payload } : {}) });

let seq = 0;
const planBody = (overrides: object = {}) => ({ name: `Plano Teste ${++seq}`, users: 5, connections: 2, queues: 4, value: "129.90", ...overrides });

describe("super-only matrix of the plans endpoints", () => {
  it.each([
    ["GET", "/plans/all", 200],
    ["GET", "/plans/:plan", 200],
    ["POST", "/plans", 201],
    ["PUT", "/plans/:plan", 200],
    ["DELETE", "/plans/:plan", 204],
  ] as const)("%s %s → super %i; company admin and attendant 403; anonymous 401", async (method, path, superStatus) => {
    for (const [role, session, expected] of [
      ["admin", a.adminSession, 403],
      ["user", a.userSession, 403],
      ["anonymous", null, 401],
      ["super", superSession, superStatus],
    ] as const) {
      const plan = await buildPlan(t.ctx);
      const body = method === "POST" ? planBody() : method === "PUT" ? { value: 10 } : undefined;
      const res = await call(session, method, path.replace(":plan", String(plan.id)), body);
      expect({ role, status: res.statusCode }).toEqual({ role, status: expected });
      if (expected === 403) expect(res.json()).toEqual({ error: "ERR_NO_PERMISSION" });
    }
  });

  it("GET /plans/list is public (the sign-up page), cheapest first", async () => {
    const res = await call(null, "GET", "/plans/list");
    expect(res.statusCode).toBe(200);
    const values = (res.json() as { value: number }[]).map((p) => p.value);
    expect(values).toEqual([...values].sort((x, y) => x - y));
    expect(res.json()[0]).not.toHaveProperty("companiesCount");
  });
});

describe("plan CRUD", () => {
  it("creates with the price sent with a dot, shows usage, updates, deletes", async () => {
    const created = await call(superSession, "POST", "/plans", planBody({ name: "Ouro", value: "1234567.89" }));
    expect(created.statusCode).toBe(201);
    const plan = created.json() as PlanWithUsageDTO;
    expect(plan).toMatchObject({ name: "Ouro", users: 5, connections: 2, queues: 4, value: 1234567.89, companiesCount: 0 });
    const updated = await call(superSession, "PUT", `/plans/${plan.id}`, { value: 99.5, users: 7 });
    expect(updated.json()).toMatchObject({ id: plan.id, name: "Ouro", users: 7, value: 99.5 });
    const all = (await call(superSession, "GET", "/plans/all")).json() as PlanWithUsageDTO[];
    expect(all.find((p) => p.id === plan.id)).toMatchObject({ users: 7, companiesCount: 0 });
    expect((await call(superSession, "DELETE", `/plans/${plan.id}`)).statusCode).toBe(204);
    expect((await call(superSession, "GET", `/plans/${plan.id}`)).statusCode).toBe(404);
    expect((await call(superSession, "PUT", `/plans/${plan.id}`, { value: 1 })).statusCode).toBe(404);
    expect((await call(superSession, "DELETE", `/plans/${plan.id}`)).json()).toEqual({ error: "ERR_NO_PLAN_FOUND" });
  });

  it.each([
    [{ value: -1 }],
    [{ value: "-1.00" }],
    [{ value: "1.234,56" }],
    [{ value: "12345678.00" }],
    [{ value: 10000000 }],
    [{ value: 1.234 }],
    [{ value: "abc" }],
    [{ users: 0 }],
    [{ connections: -2 }],
    [{ queues: 1.5 }],
    [{ name: "" }],
    [{ name: "x" }],
  ])("refuses %j with 400 (spec §5 price mask: dot decimal, 2 decimals, 7 digits, no negatives)", async (override) => {
    const res = await call(superSession, "POST", "/plans", planBody(override));
    expect(res.statusCode).toBe(400);
  });

  it("keeps names unique ignoring case", async () => {
    expect((await call(superSession, "POST", "/plans", planBody({ name: "Prata Plus" }))).statusCode).toBe(201);
    const dup = await call(superSession, "POST", "/plans", planBody({ name: "prata plus" }));
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ error: "ERR_DUPLICATED_PLAN" });
    const other = (await call(superSession, "POST", "/plans", planBody())).json() as PlanWithUsageDTO;
    expect((await call(superSession, "PUT", `/plans/${other.id}`, { name: "PRATA PLUS" })).json()).toEqual({ error: "ERR_DUPLICATED_PLAN" });
    // Renaming a plan to its own name in another case is fine.
    expect((await call(superSession, "PUT", `/plans/${other.id}`, { name: other.name.toUpperCase() })).statusCode).toBe(200);
  });

  it("a plan in use cannot be deleted (409 with how many companies use it)", async () => {
    const plan = await buildPlan(t.ctx);
    await buildCompany(t.ctx, { planId: plan.id });
    await buildCompany(t.ctx, { planId: plan.id });
    const res = await call(superSession, "DELETE", `/plans/${plan.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: "ERR_PLAN_IN_USE", meta: { companies: 2 } });
    expect(await t.ctx.database.db.select().from(plans).where(eq(plans.id, plan.id))).toHaveLength(1);
    expect(((await call(superSession, "GET", `/plans/${plan.id}`)).json() as PlanWithUsageDTO).companiesCount).toBe(2);
  });
});

describe("the plan's limits apply to its companies (users, connections, queues), with the limit in the error", () => {
  it("a super user's edit of the plan changes what its companies may create", async () => {
    const plan = (await call(superSession, "POST", "/plans", planBody({ users: 2, connections: 1, queues: 1 }))).json() as PlanWithUsageDTO;
    const company = await buildCompany(t.ctx, { planId: plan.id });
    const admin = await buildUser(t.ctx, company.id, { profile: "admin" });
    const session = await login(t.app, admin.email);

    const user = (n: number) => ({ name: `Pessoa ${n}`, email: `pessoa-${plan.id}-${n}@test.dev`, password: "secret-123" });
    expect((await call(session, "POST", "/users", user(1))).statusCode).toBe(201);
    const overUsers = await call(session, "POST", "/users", user(2));
    expect(overUsers.statusCode).toBe(400);
    expect(overUsers.json()).toEqual({ error: "ERR_USER_LIMIT_REACHED", meta: { limit: 2 } });

    expect((await call(session, "POST", "/queue", { name: "Fila Um", color: "#111111" })).statusCode).toBe(201);
    const overQueues = await call(session, "POST", "/queue", { name: "Fila Dois", color: "#222222" });
    expect(overQueues.json()).toEqual({ error: "ERR_QUEUE_LIMIT_REACHED", meta: { limit: 1 } });

    expect((await call(session, "POST", "/whatsapp", { name: "Conexão Um" })).statusCode).toBe(201);
    const overConnections = await call(session, "POST", "/whatsapp", { name: "Conexão Dois" });
    expect(overConnections.json()).toEqual({ error: "ERR_CONNECTION_LIMIT_REACHED", meta: { limit: 1 } });

    await call(superSession, "PUT", `/plans/${plan.id}`, { users: 3, connections: 2, queues: 2 });
    expect((await call(session, "POST", "/users", user(2))).statusCode).toBe(201);
    expect((await call(session, "POST", "/queue", { name: "Fila Dois", color: "#222222" })).statusCode).toBe(201);
    expect((await call(session, "POST", "/whatsapp", { name: "Conexão Dois" })).statusCode).toBe(201);
    expect((await call(session, "POST", "/users", user(3))).json()).toEqual({ error: "ERR_USER_LIMIT_REACHED", meta: { limit: 3 } });

    // Moving the company to a smaller plan removes nothing, it stops further creation.
    const small = (await call(superSession, "POST", "/plans", planBody({ users: 1, connections: 1, queues: 1 }))).json() as PlanWithUsageDTO;
    expect((await call(superSession, "PUT", `/companies/${company.id}`, { planId: small.id })).statusCode).toBe(200);
    expect((await call(session, "GET", "/users/list")).json()).toHaveLength(3);
    expect((await call(session, "POST", "/queue", { name: "Fila Três", color: "#333333" })).json()).toEqual({
      error: "ERR_QUEUE_LIMIT_REACHED",
      meta: { limit: 1 },
    });
  });
});
