import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectionDTO } from "@balcao/shared";
import { buildCompany, buildUser, login, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 50 });
const call = (session: Session, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session.headers, ...(payload ? { payload } : {}) });

/** A company just signed up: its admin only. */
async function newCompany() {
  const company = await buildCompany(t.app.ctx);
  const admin = await buildUser(t.app.ctx, company.id, { profile: "admin" });
  return { company, admin, session: await login(t.app, admin.email) };
}

const doneSteps = async (session: Session) => {
  const res = await call(session, "GET", "/onboarding");
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { steps: { key: string; done: boolean }[] };
  return body.steps.filter((s) => s.done).map((s) => s.key);
};

describe("GET /onboarding", () => {
  it("ticks each step from the company's own rows, in order, as the admin does them", async () => {
    const a = await newCompany();
    const first = await call(a.session, "GET", "/onboarding");
    expect(first.json()).toEqual({
      steps: [
        { key: "connection", done: false },
        { key: "queue", done: false },
        { key: "attendant", done: false },
        { key: "reply", done: false },
      ],
      completed: false,
      dismissed: false,
    });

    // A simulator connection waiting for its QR is not connected yet; scanning it ticks the step.
    const conn = (await call(a.session, "POST", "/whatsapp", { name: "Simulador" })).json() as ConnectionDTO;
    expect(await doneSteps(a.session)).toEqual([]);
    expect((await call(a.session, "POST", `/simulator/${conn.id}/scan`, { code: conn.qrcode })).statusCode).toBe(200);
    expect(await doneSteps(a.session)).toEqual(["connection"]);

    expect((await call(a.session, "POST", "/queue", { name: "Vendas", color: "#1976D2" })).statusCode).toBe(201);
    expect(await doneSteps(a.session)).toEqual(["connection", "queue"]);

    const invited = await call(a.session, "POST", "/users", { name: "Atendente", email: `at-${a.company.id}@test.dev`, password: "secret-123" });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(await doneSteps(a.session)).toEqual(["connection", "queue", "attendant"]);

    // A customer writes through the simulator; the ticket waits (no reply yet); the admin accepts and answers.
    const phone = "5511987650001";
    expect((await call(a.session, "POST", `/simulator/${conn.id}/phones/${phone}/messages`, { type: "text", body: "Oi" })).statusCode).toBe(201);
    await poll(async () => (await call(a.session, "GET", "/tickets?status=pending")).json().tickets.length).toBe(1);
    const [ticket] = (await call(a.session, "GET", "/tickets?status=pending")).json().tickets;
    expect(await doneSteps(a.session)).toEqual(["connection", "queue", "attendant"]);
    expect((await call(a.session, "PUT", `/tickets/${ticket.id}`, { status: "open", userId: a.admin.id })).statusCode).toBe(200);
    const reply = await call(a.session, "POST", `/messages/${ticket.id}`, { body: "Olá! Como posso ajudar?" });
    expect(reply.statusCode, reply.body).toBeLessThan(300);
    const done = (await call(a.session, "GET", "/onboarding")).json();
    expect(done).toMatchObject({ completed: true, dismissed: false });
    expect(done.steps.every((s: { done: boolean }) => s.done)).toBe(true);
  });

  it("is the company's own: another company's rows tick nothing, and attendants are refused", async () => {
    const a = await newCompany();
    const b = await newCompany();
    await call(b.session, "POST", "/queue", { name: "Suporte", color: "#2E7D32" });
    await call(b.session, "POST", "/users", { name: "Outro", email: `o-${b.company.id}@test.dev`, password: "secret-123" });
    await call(b.session, "PUT", "/onboarding", { dismissed: true });
    expect(await doneSteps(b.session)).toEqual(["queue", "attendant"]);
    expect(await doneSteps(a.session)).toEqual([]);
    expect((await call(a.session, "GET", "/onboarding")).json().dismissed).toBe(false);

    const attendant = await buildUser(t.app.ctx, a.company.id, { profile: "user" });
    const attendantSession = await login(t.app, attendant.email);
    expect((await call(attendantSession, "GET", "/onboarding")).statusCode).toBe(403);
    expect((await call(attendantSession, "PUT", "/onboarding", { dismissed: true })).statusCode).toBe(403);
    expect((await t.app.inject({ method: "GET", url: "/api/onboarding" })).statusCode).toBe(401);
  });
});

describe("PUT /onboarding", () => {
  it("dismisses the checklist for the company's admins and brings it back; validates the body", async () => {
    const a = await newCompany();
    const res = await call(a.session, "PUT", "/onboarding", { dismissed: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ dismissed: true, completed: false });
    // Another admin of the same company sees it dismissed too (stored per company).
    const other = await buildUser(t.app.ctx, a.company.id, { profile: "admin" });
    expect((await call(await login(t.app, other.email), "GET", "/onboarding")).json().dismissed).toBe(true);
    expect((await call(a.session, "PUT", "/onboarding", { dismissed: false })).json().dismissed).toBe(false);
    for (const payload of [{}, { dismissed: "yes" }]) expect((await call(a.session, "PUT", "/onboarding", payload)).statusCode).toBe(400);
  });
});
