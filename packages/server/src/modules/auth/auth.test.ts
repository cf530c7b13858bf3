import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "@balcao/shared";
import { refreshSessions } from "../../db/schema";
import { buildCompany, buildUser, connectSocket, login, nextEvent, TEST_PASSWORD } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: "3" });
});
afterAll(() => t.close());

const refresh = (cookie: string) => t.app.inject({ method: "POST", url: "/api/auth/refresh_token", headers: { cookie } });

describe("POST /auth/login", () => {
  it("returns a token and the user with company, sets an httpOnly strict refresh cookie, never the hash", async () => {
    const company = await buildCompany(t.ctx);
    const user = await buildUser(t.ctx, company.id, { profile: "admin" });
    const res = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: user.email.toUpperCase(), password: TEST_PASSWORD } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^ey/);
    expect(body.user).toMatchObject({
      id: user.id,
      email: user.email,
      profile: "admin",
      companyId: company.id,
      company: { id: company.id, name: company.name },
    });
    expect(JSON.stringify(body)).not.toMatch(/password|argon/i);
    const cookie = res.cookies.find((c) => c.name === "jrt")!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/api/auth" });
    const [session] = await t.ctx.database.db.select().from(refreshSessions).where(eq(refreshSessions.userId, user.id));
    expect(session!.tokenHash).not.toContain(cookie.value.split(".")[1]!);
  });

  it("answers 401 ERR_INVALID_CREDENTIALS for a wrong password or unknown email, alike", async () => {
    const company = await buildCompany(t.ctx);
    const user = await buildUser(t.ctx, company.id);
    const wrong = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: user.email, password: "nope-nope" },
      remoteAddress: "10.9.0.1",
    });
    const unknown = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: "ghost@test.dev", password: "nope-nope" },
      remoteAddress: "10.9.0.1",
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: "ERR_INVALID_CREDENTIALS" });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
  });

  it("validates the body with a 400, never a 500", async () => {
    for (const payload of [{}, { email: 1, password: [] }, "not json", { email: "a@b.co", password: "x".repeat(500) }]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: payload as object,
        headers: { "content-type": "application/json" },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBeTruthy();
    }
  });

  it("rate-limits failures per email and IP with 429 and Retry-After", async () => {
    const company = await buildCompany(t.ctx);
    const user = await buildUser(t.ctx, company.id);
    const attempt = (password: string) =>
      t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: user.email, password }, remoteAddress: "10.7.7.7" });
    for (let i = 0; i < 3; i++) expect((await attempt("wrong-pass")).statusCode).toBe(401);
    const blocked = await attempt(TEST_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ error: "ERR_TOO_MANY_ATTEMPTS" });
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
    // Another IP is not blocked by this one's failures.
    const other = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: user.email, password: TEST_PASSWORD },
      remoteAddress: "10.7.7.8",
    });
    expect(other.statusCode).toBe(200);
  });

  it("refuses login once the company's due date has passed, naming the date; super users pass", async () => {
    const yesterday = addDays(todayIn(t.config.defaultTimeZone), -1);
    const company = await buildCompany(t.ctx, { dueDate: yesterday });
    // Its admins still log in, to a billing-only session (modules/billing/billing.test.ts).
    const user = await buildUser(t.ctx, company.id, { profile: "user" });
    const res = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: user.email, password: TEST_PASSWORD } });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ error: "ERR_SUBSCRIPTION_EXPIRED", meta: { dueDate: yesterday } });
    const superUser = await buildUser(t.ctx, company.id, { profile: "admin", super: true });
    expect(
      (await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: superUser.email, password: TEST_PASSWORD } })).statusCode,
    ).toBe(200);
  });

  it("accepts a company due today", async () => {
    const company = await buildCompany(t.ctx, { dueDate: todayIn(t.config.defaultTimeZone) });
    const user = await buildUser(t.ctx, company.id);
    await expect(login(t.app, user.email)).resolves.toMatchObject({ userId: user.id });
  });
});

describe("access tokens", () => {
  it("401 without a token, 401 with a forged or alg-none token, 403 ERR_TOKEN_EXPIRED when expired", async () => {
    const company = await buildCompany(t.ctx);
    const user = await buildUser(t.ctx, company.id);
    const session = await login(t.app, user.email);
    const me = (authorization?: string) => t.app.inject({ method: "GET", url: "/api/auth/me", headers: authorization ? { authorization } : {} });
    expect((await me()).statusCode).toBe(401);
    expect((await me()).json()).toEqual({ error: "ERR_SESSION_EXPIRED" });
    const claims = JSON.parse(Buffer.from(session.token.split(".")[1]!, "base64url").toString());
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode("mysecret"));
    expect((await me(`Bearer ${forged}`)).statusCode).toBe(401);
    const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${session.token.split(".")[1]}.`;
    expect((await me(`Bearer ${none}`)).statusCode).toBe(401);
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 })
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    const res = await me(`Bearer ${expired}`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: "ERR_TOKEN_EXPIRED" });
    const ok = await me(session.headers.authorization);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: user.id, companyId: company.id });
  });
});

describe("refresh and logout", () => {
  it("rotates the refresh token; replaying a rotated token after the grace revokes the session", async () => {
    const company = await buildCompany(t.ctx);
    const user = await buildUser(t.ctx, company.id);
    const session = await login(t.app, user.email);
    const first = await refresh(session.cookie);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ token: expect.any(String), user: { id: user.id } });
    const rotated = `jrt=${first.cookies.find((c) => c.name === "jrt")!.value}`;
    expect(rotated).not.toBe(session.cookie);
    // Pretend the rotation happened long ago, so the old token is outside the two-tab grace window.
    await t.ctx.database.db
      .update(refreshSessions)
      .set({ updatedAt: new Date(Date.now() - 60_000) })
      .where(eq(refreshSessions.userId, user.id));
    const replay = await refresh(session.cookie);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ error: "ERR_SESSION_EXPIRED" });
    // The theft detection ended the whole session: the legitimate new token no longer works either.
    expect((await refresh(rotated)).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: "/api/auth/me", headers: session.headers })).statusCode).toBe(401);
  });

  it("401 without a cookie or with garbage", async () => {
    expect((await refresh("")).statusCode).toBe(401);
    expect((await refresh("jrt=abc.def")).statusCode).toBe(401);
  });

  it("logout revokes the session at once: access and refresh tokens stop working", async () => {
    const company = await buildCompany(t.ctx);
    const user = await buildUser(t.ctx, company.id);
    const session = await login(t.app, user.email);
    const out = await t.app.inject({ method: "DELETE", url: "/api/auth/logout", headers: { ...session.headers, cookie: session.cookie } });
    expect(out.statusCode).toBe(204);
    expect((await t.app.inject({ method: "GET", url: "/api/auth/me", headers: session.headers })).statusCode).toBe(401);
    expect((await refresh(session.cookie)).statusCode).toBe(401);
  });
});

describe("another device", () => {
  it("a new login ends the older one and sends `auth` only to the older session's sockets", async () => {
    const company = await buildCompany(t.ctx);
    const user = await buildUser(t.ctx, company.id);
    const older = await login(t.app, user.email);
    const olderSocket = await connectSocket(t.app, older.token);
    const event = nextEvent<{ action: string; user: { id: number }; sessionId: string }>(olderSocket, "auth");
    const disconnected = nextEvent(olderSocket, "disconnect");
    const newer = await login(t.app, user.email, TEST_PASSWORD, "10.0.0.2");
    const payload = await event;
    expect(payload).toMatchObject({ action: "update", user: { id: user.id, email: user.email, companyId: company.id } });
    const newerSid = JSON.parse(Buffer.from(newer.token.split(".")[1]!, "base64url").toString()).sid;
    expect(payload.sessionId).toBe(newerSid);
    await disconnected;
    expect((await t.app.inject({ method: "GET", url: "/api/auth/me", headers: older.headers })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: "/api/auth/me", headers: newer.headers })).statusCode).toBe(200);
    olderSocket.close();
  });
});
