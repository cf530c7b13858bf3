import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refreshSessions } from "../db/schema";
import { buildCompany, buildUser, TEST_PASSWORD } from "../test/factories";
import { createTestApp, type TestApp } from "../test/testApp";

/**
 * Issue 11: the login and sign-up limits key on request.ip, which must not be whatever a client writes in
 * X-Forwarded-For. TRUST_PROXY says how many proxy hops are believed; 0 (the default) believes none.
 */

const LIMIT = { LOGIN_RATE_LIMIT: "3", SIGNUP_RATE_LIMIT: "2" };
let direct: TestApp;
let proxied: TestApp;
beforeAll(async () => {
  [direct, proxied] = await Promise.all([createTestApp({ ...LIMIT }), createTestApp({ ...LIMIT, TRUST_PROXY: "1" })]);
});
afterAll(async () => {
  await Promise.all([direct.close(), proxied.close()]);
});

let n = 0;
const badLogin = (t: TestApp, email: string, remoteAddress: string, forwardedFor?: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password: "wrong-password" },
    remoteAddress,
    headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
  });

describe("TRUST_PROXY=0 (default)", () => {
  it("a client cannot escape the login limit by inventing X-Forwarded-For addresses", async () => {
    const email = `victim-${++n}@test.dev`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await badLogin(direct, email, "203.0.113.7", `198.51.100.${i}`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
  });

  it("nor the sign-up limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await direct.app.inject({
        method: "POST",
        url: "/api/companies/cadastro",
        remoteAddress: "203.0.113.8",
        headers: { "x-forwarded-for": `198.51.100.${i}` },
        payload: { name: `Empresa Proxy ${++n}`, email: `proxy-${n}@test.dev`, password: "segredo", planId: 999_999 },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(2)).toEqual([429, 429]);
  });

  it("records the socket's address on the session, not the header's", async () => {
    const company = await buildCompany(direct.ctx);
    const user = await buildUser(direct.ctx, company.id);
    const res = await direct.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: user.email, password: TEST_PASSWORD },
      remoteAddress: "203.0.113.9",
      headers: { "x-forwarded-for": "1.2.3.4" },
    });
    expect(res.statusCode).toBe(200);
    const [session] = await direct.ctx.database.db.select().from(refreshSessions).where(eq(refreshSessions.userId, user.id));
    expect(session!.ip).toBe("203.0.113.9");
  });
});

describe("TRUST_PROXY=1 (one reverse proxy)", () => {
  const PROXY = "10.0.0.254";

  it("the client is the address the proxy appended (the last hop), whatever the client prepended", async () => {
    const company = await buildCompany(proxied.ctx);
    const user = await buildUser(proxied.ctx, company.id);
    const res = await proxied.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: user.email, password: TEST_PASSWORD },
      remoteAddress: PROXY,
      headers: { "x-forwarded-for": "6.6.6.6, 192.0.2.10" },
    });
    expect(res.statusCode).toBe(200);
    const [session] = await proxied.ctx.database.db.select().from(refreshSessions).where(eq(refreshSessions.userId, user.id));
    expect(session!.ip).toBe("192.0.2.10");
  });

  it("limits per real client: spoofed left entries do not help, another client is not blocked", async () => {
    const email = `victim-${++n}@test.dev`;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await badLogin(proxied, email, PROXY, `198.51.100.${i}, 192.0.2.20`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    // A different client behind the same proxy still gets its own budget.
    expect((await badLogin(proxied, email, PROXY, "192.0.2.21")).statusCode).toBe(401);
  });
});
