import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
});
afterAll(() => t.close());

const call = (session: Session | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session ? session.headers : {}, ...(payload ? { payload } : {}) });

let seq = 0;
const newUserBody = () => ({ name: `Atendente ${++seq}`, email: `atendente${seq}-${Date.now()}@test.dev`, password: "senha1" });

describe("permission matrix of the users endpoints", () => {
  it.each([
    ["GET", "/users/", 200, 200],
    ["GET", "/users/list", 200, 200],
    ["GET", "/users/:self", 200, 200],
    ["POST", "/users", 201, 403],
    ["PUT", "/users/:other", 200, 403],
    ["DELETE", "/users/:victim", 204, 403],
  ] as const)("%s %s → admin %i, user %i, anonymous 401", async (method, path, adminStatus, userStatus) => {
    for (const [role, session, expected] of [
      ["admin", a.adminSession, adminStatus],
      ["user", a.userSession, userStatus],
      ["anonymous", null, 401],
    ] as const) {
      const victim = await buildUser(t.ctx, a.company.id);
      const url = path
        .replace(":self", String(session?.userId ?? a.user.id))
        .replace(":other", String(victim.id))
        .replace(":victim", String(victim.id));
      const body = method === "POST" ? newUserBody() : method === "PUT" ? { name: "Nome Novo" } : undefined;
      const res = await call(session, method, url, body);
      expect({ role, status: res.statusCode }).toEqual({ role, status: expected });
      if (expected === 403) expect(res.json()).toEqual({ error: "ERR_NO_PERMISSION" });
    }
  });
});

describe("two-company isolation", () => {
  it("lists only the caller's company", async () => {
    const res = await call(a.adminSession, "GET", "/users/");
    const ids = res.json().users.map((u: { id: number }) => u.id);
    expect(ids).toContain(a.admin.id);
    expect(ids).not.toContain(b.admin.id);
    const simple = await call(a.adminSession, "GET", `/users/list?companyId=${b.company.id}`);
    expect(simple.json().map((u: { id: number }) => u.id)).not.toContain(b.admin.id);
  });

  it("another company's user answers exactly like a missing one, for every verb, and is left untouched", async () => {
    const missing = 2_000_000_000;
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", { name: "Hacked", email: "pwned@evil.dev", password: "pwned1" }],
      ["DELETE", undefined],
    ] as const) {
      const foreign = await call(a.adminSession, method, `/users/${b.user.id}`, body);
      const absent = await call(a.adminSession, method, `/users/${missing}`, body);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).toBe(absent.body);
    }
    await expect(login(t.app, b.user.email)).resolves.toBeTruthy();
    expect((await call(b.adminSession, "GET", `/users/${b.user.id}`)).json()).toMatchObject({ name: b.user.name, email: b.user.email });
  });

  it("ignores companyId and super smuggled into a create (mass assignment)", async () => {
    const body = { ...newUserBody(), companyId: b.company.id, super: true };
    const res = await call(a.adminSession, "POST", "/users", body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ companyId: a.company.id, super: false, profile: "user" });
  });
});

describe("create, update, delete", () => {
  it("creates with queues of the company only; foreign queue ids are refused", async () => {
    const q = await buildQueue(t.ctx, a.company.id);
    const foreignQueue = await buildQueue(t.ctx, b.company.id);
    const ok = await call(a.adminSession, "POST", "/users", { ...newUserBody(), profile: "admin", queueIds: [q.id] });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ profile: "admin", queues: [{ id: q.id, name: q.name, color: q.color }] });
    const bad = await call(a.adminSession, "POST", "/users", { ...newUserBody(), queueIds: [foreignQueue.id] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: "ERR_NO_QUEUE_FOUND" });
  });

  it("validates with the spec's texts and refuses a duplicate email", async () => {
    const invalid = await call(a.adminSession, "POST", "/users", { name: "A", email: "x", password: "1" });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().issues).toEqual(
      expect.arrayContaining([
        { path: "name", message: "Too Short!" },
        { path: "email", message: "Invalid email" },
        { path: "password", message: "Too Short!" },
      ]),
    );
    const dup = await call(a.adminSession, "POST", "/users", { ...newUserBody(), email: b.admin.email.toUpperCase() });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ error: "ERR_DUPLICATED_EMAIL" });
  });

  it("enforces the plan's user limit", async () => {
    const plan = await buildPlan(t.ctx, { users: 2 });
    const company = await buildCompany(t.ctx, { planId: plan.id });
    const admin = await buildUser(t.ctx, company.id, { profile: "admin" });
    const session = await login(t.app, admin.email);
    expect((await call(session, "POST", "/users", newUserBody())).statusCode).toBe(201);
    const over = await call(session, "POST", "/users", newUserBody());
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ error: "ERR_USER_LIMIT_REACHED", meta: { limit: 2 } });
  });

  it("a user edits its own name and password but not its profile or queues", async () => {
    const me = await buildUser(t.ctx, a.company.id);
    const session = await login(t.app, me.email);
    const ok = await call(session, "PUT", `/users/${me.id}`, { name: "Meu Nome", password: "" });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ name: "Meu Nome", profile: "user" });
    expect((await call(session, "PUT", `/users/${me.id}`, { profile: "admin" })).statusCode).toBe(403);
    expect((await call(session, "PUT", `/users/${me.id}`, { queueIds: [] })).statusCode).toBe(403);
    // Sending the unchanged profile back (as the edit form does) is fine.
    expect((await call(session, "PUT", `/users/${me.id}`, { name: "Meu Nome", profile: "user" })).statusCode).toBe(200);
  });

  it("an admin promotes a user; the change applies to that user's next request", async () => {
    const u = await buildUser(t.ctx, a.company.id);
    const session = await login(t.app, u.email);
    expect((await call(session, "POST", "/users", newUserBody())).statusCode).toBe(403);
    const res = await call(a.adminSession, "PUT", `/users/${u.id}`, { profile: "admin" });
    expect(res.json()).toMatchObject({ profile: "admin" });
    expect((await call(session, "POST", "/users", newUserBody())).statusCode).toBe(201);
  });

  it("an admin resetting another user's password ends that user's sessions", async () => {
    const u = await buildUser(t.ctx, a.company.id);
    const session = await login(t.app, u.email);
    expect((await call(a.adminSession, "PUT", `/users/${u.id}`, { password: "nova-senha" })).statusCode).toBe(200);
    expect((await call(session, "GET", "/auth/me")).statusCode).toBe(401);
    await expect(login(t.app, u.email, "nova-senha")).resolves.toBeTruthy();
  });

  it("an admin cannot delete itself; deleting another removes it", async () => {
    const self = await call(a.adminSession, "DELETE", `/users/${a.admin.id}`);
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ error: "ERR_CANNOT_DELETE_SELF" });
    const victim = await buildUser(t.ctx, a.company.id);
    expect((await call(a.adminSession, "DELETE", `/users/${victim.id}`)).statusCode).toBe(204);
    expect((await call(a.adminSession, "GET", `/users/${victim.id}`)).statusCode).toBe(404);
  });
});

describe("listing", () => {
  it("searches name or email ignoring case and accents, pages of 20 with hasMore", async () => {
    const company = await buildCompany(t.ctx);
    const admin = await buildUser(t.ctx, company.id, { profile: "admin", name: "Zé Admin" });
    await buildUser(t.ctx, company.id, { name: "João Conceição" });
    for (let i = 0; i < 21; i++) await buildUser(t.ctx, company.id, { name: `Pessoa ${String(i).padStart(2, "0")}` });
    const session = await login(t.app, admin.email);
    const found = await call(session, "GET", "/users/?searchParam=JOAO%20CONCEICAO");
    expect(found.json().users.map((u: { name: string }) => u.name)).toEqual(["João Conceição"]);
    const page1 = (await call(session, "GET", "/users/?pageNumber=1")).json();
    const page2 = (await call(session, "GET", "/users/?pageNumber=2")).json();
    expect(page1.users).toHaveLength(20);
    expect(page1.hasMore).toBe(true);
    expect(page2.users).toHaveLength(3);
    expect(page2.hasMore).toBe(false);
    expect(JSON.stringify(page1)).not.toMatch(/password/i);
    const wildcard = await call(session, "GET", "/users/?searchParam=%25");
    expect(wildcard.json().users).toHaveLength(0);
    expect((await call(session, "GET", "/users/?pageNumber=-1")).statusCode).toBe(400);
    expect((await call(session, "GET", `/users/?searchParam=${"x".repeat(1000)}`)).statusCode).toBe(400);
  });
});

describe("user events", () => {
  it("reach sockets of the same company only", async () => {
    const socketA = await connectSocket(t.app, a.userSession.token);
    const socketB = await connectSocket(t.app, b.adminSession.token);
    const leaked = collectEvents(socketB, "user");
    const created = nextEvent<{ action: string; user: { name: string; companyId: number } }>(socketA, "user");
    const body = newUserBody();
    await call(a.adminSession, "POST", "/users", body);
    expect(await created).toMatchObject({ action: "create", user: { name: body.name, companyId: a.company.id } });
    const deletedId = (await call(a.adminSession, "GET", "/users/list")).json().find((u: { name: string }) => u.name === body.name).id;
    const deleted = nextEvent(socketA, "user");
    await call(a.adminSession, "DELETE", `/users/${deletedId}`);
    expect(await deleted).toEqual({ action: "delete", userId: deletedId });
    await new Promise((r) => setTimeout(r, 100));
    expect(leaked).toEqual([]);
    socketA.close();
    socketB.close();
  });
});
