import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, login, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

let t: TestApp;
let a: Awaited<ReturnType<typeof buildTenant>>;
/** The attendant's current session (a new login replaces the previous one). */
let userSession: Session;

beforeAll(async () => {
  t = await createTestApp();
  a = await buildTenant(t.app);
  userSession = a.userSession;
});
afterAll(() => t.close());

const call = (session: Session, method: "GET" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session.headers, ...(payload ? { payload } : {}) });

describe("the user's interface language (issue 16)", () => {
  it("is null until picked, then stored by the user itself and returned on login and /auth/me", async () => {
    const session = userSession;
    expect((await call(session, "GET", "/auth/me")).json()).toMatchObject({ id: a.user.id, language: null });

    const res = await call(session, "PUT", `/users/${a.user.id}`, { language: "en" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: a.user.id, language: "en" });

    expect((await call(session, "GET", "/auth/me")).json()).toMatchObject({ language: "en" });
    userSession = await login(t.app, a.user.email);
    expect((await call(userSession, "GET", "/auth/me")).json()).toMatchObject({ language: "en" });
  });

  it("refuses a language outside pt, en, es with 400", async () => {
    const res = await call(userSession, "PUT", `/users/${a.user.id}`, { language: "fr" });
    expect(res.statusCode).toBe(400);
    expect((await call(userSession, "GET", `/users/${a.user.id}`)).json()).toMatchObject({ language: "en" });
  });

  it("is not changed by an admin editing another user", async () => {
    await call(userSession, "PUT", `/users/${a.user.id}`, { language: "es" });
    const res = await call(a.adminSession, "PUT", `/users/${a.user.id}`, { name: "Atendente Renomeado", language: "pt" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: "Atendente Renomeado", language: "es" });
  });
});
