import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_QUEUE_SCHEDULES } from "@balcao/shared";
import { plans } from "../../db/schema";
import {
  buildCompany,
  buildPlan,
  buildQueue,
  buildTenant,
  buildUser,
  collectEvents,
  connectSocket,
  login,
  nextEvent,
  type Session,
} from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

let t: TestApp;
let a: Awaited<ReturnType<typeof buildTenant>>;
let b: Awaited<ReturnType<typeof buildTenant>>;

beforeAll(async () => {
  t = await createTestApp();
  a = await buildTenant(t.app);
  b = await buildTenant(t.app);
  // These tenants create many queues; the plan limit has its own test.
  for (const c of [a.company, b.company]) await t.ctx.database.db.update(plans).set({ queues: 0 }).where(eq(plans.id, c.planId!));
});
afterAll(() => t.close());

const call = (session: Session | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session ? session.headers : {}, ...(payload ? { payload } : {}) });

let seq = 0;
const hex = () => `#${(0x100000 + ((++seq * 7919) % 0xefffff)).toString(16)}`;
const queueBody = (overrides: object = {}) => ({ name: `Fila ${++seq}`, color: hex(), greetingMessage: "Olá!", ...overrides });

describe("permission matrix of the queue endpoints", () => {
  it.each([
    ["GET", "/queue", 200, 200],
    ["GET", "/queue/:id", 200, 200],
    ["POST", "/queue", 201, 403],
    ["PUT", "/queue/:id", 200, 403],
    ["DELETE", "/queue/:id", 204, 403],
    ["GET", "/queue-options?queueId=:id", 200, 200],
    ["POST", "/queue-options", 201, 403],
    ["GET", "/companies/:company/schedules", 200, 200],
    ["PUT", "/companies/:company/schedules", 200, 403],
  ] as const)("%s %s → admin %i, user %i, anonymous 401", async (method, path, adminStatus, userStatus) => {
    for (const [role, session, expected] of [
      ["admin", a.adminSession, adminStatus],
      ["user", a.userSession, userStatus],
      ["anonymous", null, 401],
    ] as const) {
      const q = await buildQueue(t.ctx, a.company.id);
      const url = path.replace(":id", String(q.id)).replace(":company", String(a.company.id));
      const body =
        method === "POST" && path === "/queue"
          ? queueBody()
          : method === "POST"
            ? { queueId: q.id, title: "Financeiro" }
            : path.includes("schedules")
              ? { schedules: [] }
              : method === "PUT"
                ? { name: `Renomeada ${++seq}` }
                : undefined;
      const res = await call(session, method, url, body);
      expect({ role, status: res.statusCode }).toEqual({ role, status: expected });
      if (expected === 403) expect(res.json()).toEqual({ error: "ERR_NO_PERMISSION" });
    }
  });

  it("queue options: PUT and DELETE are admin-only too", async () => {
    const q = await buildQueue(t.ctx, a.company.id);
    const opt = (await call(a.adminSession, "POST", "/queue-options", { queueId: q.id, title: "Vendas" })).json();
    expect((await call(a.userSession, "PUT", `/queue-options/${opt.id}`, { title: "X" })).statusCode).toBe(403);
    expect((await call(a.userSession, "DELETE", `/queue-options/${opt.id}`)).statusCode).toBe(403);
    expect((await call(a.adminSession, "DELETE", `/queue-options/${opt.id}`)).statusCode).toBe(204);
  });
});

describe("queues", () => {
  it("creates with the spec's default schedules and reads it back", async () => {
    const body = queueBody({ outOfHoursMessage: "Fechados" });
    const res = await call(a.adminSession, "POST", "/queue", body);
    expect(res.statusCode).toBe(201);
    const q = res.json();
    expect(q).toMatchObject({ name: body.name, color: body.color, greetingMessage: "Olá!", outOfHoursMessage: "Fechados", companyId: a.company.id });
    expect(q.schedules).toEqual(DEFAULT_QUEUE_SCHEDULES);
    expect(q.schedules.find((s: { weekdayEn: string }) => s.weekdayEn === "sunday")).toMatchObject({ startTime: "00:00", endTime: "00:00" });
    expect(q.schedules.find((s: { weekdayEn: string }) => s.weekdayEn === "saturday")).toMatchObject({ startTime: "08:00", endTime: "12:00" });
    expect((await call(a.userSession, "GET", `/queue/${q.id}`)).json()).toEqual(q);
  });

  it("validates with the spec's texts", async () => {
    const res = await call(a.adminSession, "POST", "/queue", { name: "A", color: "#1" });
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toEqual(
      expect.arrayContaining([
        { path: "name", message: "Too Short!" },
        { path: "color", message: "Too Short!" },
      ]),
    );
    const long = await call(a.adminSession, "POST", "/queue", { name: "x".repeat(51), color: "#1234567890" });
    expect(long.json().issues).toEqual(
      expect.arrayContaining([
        { path: "name", message: "Too Long!" },
        { path: "color", message: "Too Long!" },
      ]),
    );
    const missing = await call(a.adminSession, "POST", "/queue", {});
    expect(missing.json().issues).toEqual(
      expect.arrayContaining([
        { path: "name", message: "Required" },
        { path: "color", message: "Required" },
      ]),
    );
    const badTime = await call(
      a.adminSession,
      "POST",
      "/queue",
      queueBody({ schedules: [{ weekday: "Segunda", weekdayEn: "monday", startTime: "25:00", endTime: "18:00" }] }),
    );
    expect(badTime.statusCode).toBe(400);
    expect(badTime.json().error).toBe("Horário inválido (HH:mm)");
    const halfDay = await call(
      a.adminSession,
      "POST",
      "/queue",
      queueBody({ schedules: [{ weekdayEn: "monday", startTime: "08:00", endTime: "" }] }),
    );
    expect(halfDay.statusCode).toBe(400);
    const twice = await call(a.adminSession, "POST", "/queue", queueBody({ schedules: [{ weekdayEn: "monday" }, { weekdayEn: "monday" }] }));
    expect(twice.json().error).toBe("Dia da semana repetido");
  });

  it("colour (and name) are unique in the company, not across companies", async () => {
    const color = hex();
    expect((await call(a.adminSession, "POST", "/queue", queueBody({ color }))).statusCode).toBe(201);
    const dup = await call(a.adminSession, "POST", "/queue", queueBody({ color: color.toUpperCase() }));
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ error: "ERR_QUEUE_COLOR_ALREADY_EXISTS" });
    expect((await call(b.adminSession, "POST", "/queue", queueBody({ color }))).statusCode).toBe(201);
    const other = (await call(a.adminSession, "POST", "/queue", queueBody())).json();
    const clash = await call(a.adminSession, "PUT", `/queue/${other.id}`, { color });
    expect(clash.json()).toEqual({ error: "ERR_QUEUE_COLOR_ALREADY_EXISTS" });
    // Saving a queue with its own colour is fine.
    expect((await call(a.adminSession, "PUT", `/queue/${other.id}`, { color: other.color, name: other.name })).statusCode).toBe(200);
    const sameName = await call(a.adminSession, "POST", "/queue", queueBody({ name: other.name.toUpperCase() }));
    expect(sameName.json()).toEqual({ error: "ERR_QUEUE_NAME_ALREADY_EXISTS" });
  });

  it("updates schedules and messages; deleting leaves its tickets queue-less", async () => {
    const q = (await call(a.adminSession, "POST", "/queue", queueBody())).json();
    const schedules = [{ weekday: "Segunda-feira", weekdayEn: "monday", startTime: "22:00", endTime: "06:00" }];
    const res = await call(a.adminSession, "PUT", `/queue/${q.id}`, { schedules, outOfHoursMessage: "Volte amanhã", orderQueue: 2 });
    expect(res.json()).toMatchObject({ schedules, outOfHoursMessage: "Volte amanhã", orderQueue: 2, name: q.name });
    expect((await call(a.adminSession, "DELETE", `/queue/${q.id}`)).statusCode).toBe(204);
    expect((await call(a.adminSession, "GET", `/queue/${q.id}`)).statusCode).toBe(404);
  });

  it("enforces the plan's queue limit", async () => {
    const plan = await buildPlan(t.ctx, { queues: 1 });
    const company = await buildCompany(t.ctx, { planId: plan.id });
    const admin = await buildUser(t.ctx, company.id, { profile: "admin" });
    const session = await login(t.app, admin.email);
    expect((await call(session, "POST", "/queue", queueBody())).statusCode).toBe(201);
    const over = await call(session, "POST", "/queue", queueBody());
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ error: "ERR_QUEUE_LIMIT_REACHED", meta: { limit: 1 } });
  });

  it("lists by orderQueue, then creation", async () => {
    const tenant = await buildTenant(t.app);
    const first = (await call(tenant.adminSession, "POST", "/queue", queueBody())).json();
    const second = (await call(tenant.adminSession, "POST", "/queue", queueBody({ orderQueue: 1 }))).json();
    const list = (await call(tenant.userSession, "GET", "/queue")).json();
    expect(list.map((q: { id: number }) => q.id)).toEqual([second.id, first.id]);
  });
});

describe("two-company isolation", () => {
  it("lists only the caller's company; companyId in the query is ignored for non-super users", async () => {
    const mine = await buildQueue(t.ctx, a.company.id);
    const theirs = await buildQueue(t.ctx, b.company.id);
    const list = (await call(a.adminSession, "GET", `/queue?companyId=${b.company.id}`)).json();
    const ids = list.map((q: { id: number }) => q.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
  });

  it("a super user may list another company's queues", async () => {
    const root = await buildUser(t.ctx, a.company.id, { profile: "admin", super: true });
    const session = await login(t.app, root.email);
    const theirs = await buildQueue(t.ctx, b.company.id);
    const list = (await call(session, "GET", `/queue?companyId=${b.company.id}`)).json();
    expect(list.map((q: { id: number }) => q.id)).toContain(theirs.id);
  });

  it("another company's queue answers exactly like a missing one, for every verb, and is left untouched", async () => {
    const theirs = await buildQueue(t.ctx, b.company.id);
    const missing = 2_000_000_000;
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", { name: "Hacked" }],
      ["DELETE", undefined],
    ] as const) {
      const foreign = await call(a.adminSession, method, `/queue/${theirs.id}`, body);
      const absent = await call(a.adminSession, method, `/queue/${missing}`, body);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).toBe(absent.body);
    }
    expect((await call(b.adminSession, "GET", `/queue/${theirs.id}`)).json()).toMatchObject({ name: theirs.name });
  });

  it("queue options: foreign queues, options and parents are refused like missing ones", async () => {
    const theirs = await buildQueue(t.ctx, b.company.id);
    const theirOption = (await call(b.adminSession, "POST", "/queue-options", { queueId: theirs.id, title: "Deles" })).json();
    const mine = await buildQueue(t.ctx, a.company.id);
    expect((await call(a.adminSession, "GET", `/queue-options?queueId=${theirs.id}`)).statusCode).toBe(404);
    const create = await call(a.adminSession, "POST", "/queue-options", { queueId: theirs.id, title: "Intrusa" });
    expect(create.statusCode).toBe(400);
    expect(create.json()).toEqual({ error: "ERR_NO_QUEUE_FOUND" });
    const foreignParent = await call(a.adminSession, "POST", "/queue-options", { queueId: mine.id, parentId: theirOption.id, title: "Filha" });
    expect(foreignParent.json()).toEqual({ error: "ERR_NO_QUEUE_OPTION_FOUND" });
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", { title: "Hacked" }],
      ["DELETE", undefined],
    ] as const) {
      const foreign = await call(a.adminSession, method, `/queue-options/${theirOption.id}`, body);
      const absent = await call(a.adminSession, method, `/queue-options/2000000000`, body);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).toBe(absent.body);
    }
    expect((await call(b.adminSession, "GET", `/queue-options/${theirOption.id}`)).json()).toMatchObject({ title: "Deles" });
  });

  it("company schedules: another company's id is a 404, even for its admin's peers", async () => {
    for (const method of ["GET", "PUT"] as const) {
      const res = await call(a.adminSession, method, `/companies/${b.company.id}/schedules`, method === "PUT" ? { schedules: [] } : undefined);
      expect(res.statusCode).toBe(404);
    }
  });
});

describe("queue options (option trees)", () => {
  it("builds a tree of any depth, numbers options, lists a level with -1 for roots", async () => {
    const q = await buildQueue(t.ctx, a.company.id);
    const post = async (body: object) => {
      const res = await call(a.adminSession, "POST", "/queue-options", { queueId: q.id, ...body });
      expect(res.statusCode).toBe(201);
      return res.json();
    };
    const vendas = await post({ title: "Vendas", message: "Escolha o produto" });
    const suporte = await post({ title: "Suporte", parentId: -1 });
    const planos = await post({ title: "Planos", parentId: vendas.id, message: "Qual plano?" });
    const basico = await post({ title: "Básico", parentId: planos.id, option: "5" });
    const premium = await post({ title: "Premium", parentId: planos.id });
    expect([vendas.option, suporte.option, planos.option, basico.option, premium.option]).toEqual(["1", "2", "1", "5", "6"]);
    const roots = (await call(a.userSession, "GET", `/queue-options?queueId=${q.id}&parentId=-1`)).json();
    expect(roots.map((o: { title: string }) => o.title)).toEqual(["Vendas", "Suporte"]);
    expect(roots[0].children[0]).toMatchObject({ title: "Planos", children: [{ title: "Básico" }, { title: "Premium" }] });
    const level = (await call(a.userSession, "GET", `/queue-options?queueId=${q.id}&parentId=${planos.id}`)).json();
    expect(level.map((o: { option: string }) => o.option)).toEqual(["5", "6"]);

    const dup = await call(a.adminSession, "POST", "/queue-options", { queueId: q.id, parentId: planos.id, title: "Outro", option: 6 });
    expect(dup.json()).toEqual({ error: "ERR_QUEUE_OPTION_ALREADY_EXISTS" });
    for (const option of ["0", "#", "abc", "1000"]) {
      const bad = await call(a.adminSession, "POST", "/queue-options", { queueId: q.id, title: "X", option });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toBe("A opção deve ser um número de 1 a 999");
    }
    // A node cannot move under its own subtree.
    const cycle = await call(a.adminSession, "PUT", `/queue-options/${vendas.id}`, { parentId: basico.id });
    expect(cycle.json()).toEqual({ error: "ERR_NO_QUEUE_OPTION_FOUND" });
    const renamed = await call(a.adminSession, "PUT", `/queue-options/${premium.id}`, { title: "Premium+", option: 2 });
    expect(renamed.json()).toMatchObject({ title: "Premium+", option: "2", parentId: planos.id });
    // Deleting a node deletes its subtree.
    expect((await call(a.adminSession, "DELETE", `/queue-options/${vendas.id}`)).statusCode).toBe(204);
    expect((await call(a.adminSession, "GET", `/queue-options/${basico.id}`)).statusCode).toBe(404);
    expect((await call(a.adminSession, "GET", `/queue-options?queueId=${q.id}`)).json().map((o: { title: string }) => o.title)).toEqual(["Suporte"]);
  });

  it("a parent must belong to the same queue", async () => {
    const q1 = await buildQueue(t.ctx, a.company.id);
    const q2 = await buildQueue(t.ctx, a.company.id);
    const parent = (await call(a.adminSession, "POST", "/queue-options", { queueId: q1.id, title: "Pai" })).json();
    const res = await call(a.adminSession, "POST", "/queue-options", { queueId: q2.id, parentId: parent.id, title: "Filho" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: "ERR_NO_QUEUE_OPTION_FOUND" });
    const missingTitle = await call(a.adminSession, "POST", "/queue-options", { queueId: q1.id });
    expect(missingTitle.json().issues).toEqual([{ path: "title", message: "Required" }]);
  });
});

describe("company schedules", () => {
  it("returns the seven weekdays, saves a week, validates times", async () => {
    const empty = (await call(a.userSession, "GET", `/companies/${a.company.id}/schedules`)).json();
    expect(empty.schedules).toHaveLength(7);
    expect(empty.schedules[0]).toEqual({ weekday: "Segunda-feira", weekdayEn: "monday", startTime: "", endTime: "" });
    const week = [
      { weekday: "Segunda-feira", weekdayEn: "monday", startTime: "09:00", endTime: "17:00" },
      { weekday: "Domingo", weekdayEn: "sunday", startTime: "00:00", endTime: "00:00" },
    ];
    const saved = await call(a.adminSession, "PUT", `/companies/${a.company.id}/schedules`, { schedules: week });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().schedules.filter((s: { startTime: string }) => s.startTime)).toEqual(week);
    const bad = await call(a.adminSession, "PUT", `/companies/${a.company.id}/schedules`, {
      schedules: [{ weekdayEn: "funday", startTime: "9", endTime: "" }],
    });
    expect(bad.statusCode).toBe(400);
    expect((await call(a.adminSession, "PUT", `/companies/${a.company.id}/schedules`, {})).statusCode).toBe(400);
  });
});

describe("queue events", () => {
  it("reach sockets of the same company only", async () => {
    const socketA = await connectSocket(t.app, a.userSession.token);
    const socketB = await connectSocket(t.app, b.adminSession.token);
    const leaked = collectEvents(socketB, "queue");
    const created = nextEvent<{ action: string; queue: { id: number; name: string } }>(socketA, "queue");
    const body = queueBody();
    const q = (await call(a.adminSession, "POST", "/queue", body)).json();
    expect(await created).toMatchObject({ action: "create", queue: { id: q.id, name: body.name } });
    const updated = nextEvent(socketA, "queue");
    await call(a.adminSession, "PUT", `/queue/${q.id}`, { greetingMessage: "Novo" });
    expect(await updated).toMatchObject({ action: "update", queue: { id: q.id, greetingMessage: "Novo" } });
    const deleted = nextEvent(socketA, "queue");
    await call(a.adminSession, "DELETE", `/queue/${q.id}`);
    expect(await deleted).toEqual({ action: "delete", queueId: q.id });
    await new Promise((r) => setTimeout(r, 100));
    expect(leaked).toEqual([]);
    socketA.close();
    socketB.close();
  });
});
