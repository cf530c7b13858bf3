import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { companies } from "../../db/schema";
import { buildTenant, buildUser, login, type Session } from "../../test/factories";
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

const call = (session: Session | null, method: "GET" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session ? session.headers : {}, ...(payload ? { payload } : {}) });
const valueOf = async (session: Session, key: string) =>
  ((await call(session, "GET", "/settings")).json() as { key: string; value: string }[]).find((s) => s.key === key)?.value;

describe("settings options (spec §9)", () => {
  it.each([
    ["userRating", ["enabled", "disabled"]],
    ["call", ["enabled", "disabled"]],
    ["CheckMsgIsGroup", ["enabled", "disabled"]],
    ["sendGreetingAccepted", ["enabled", "disabled"]],
    ["sendMsgTransfTicket", ["enabled", "disabled"]],
    ["scheduleType", ["disabled", "queue", "company"]],
    ["chatBotType", ["text"]],
    ["campaignsEnabled", ["true", "false"]],
  ])("%s accepts %j and nothing else; applied at once", async (key, values) => {
    for (const value of values) {
      const res = await call(a.adminSession, "PUT", `/settings/${key}`, { value });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ key, value });
      expect(await valueOf(a.userSession, key)).toBe(value);
    }
    for (const value of ["", "yes", "ENABLED", "enable", "list"]) {
      const res = await call(a.adminSession, "PUT", `/settings/${key}`, { value });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: "ERR_INVALID_SETTING_VALUE", meta: { key } });
    }
  });

  it("userCreation (the platform's sign-up switch) is the super user's, not a company admin's", async () => {
    const denied = await call(a.adminSession, "PUT", "/settings/userCreation", { value: "disabled" });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: "ERR_NO_PERMISSION" });
    const superUser = await buildUser(t.ctx, a.company.id, { profile: "admin", super: true });
    const superSession = await login(t.app, superUser.email);
    const res = await call(superSession, "PUT", "/settings/userCreation", { value: "disabled" });
    expect(res.statusCode).toBe(200);
    expect(await valueOf(a.userSession, "userCreation")).toBe("disabled");
  });

  it("campaignsEnabled saved by an admin moves the company's own flag too", async () => {
    await call(a.adminSession, "PUT", "/settings/campaignsEnabled", { value: "false" });
    const [row] = await t.ctx.database.db.select({ on: companies.campaignsEnabled }).from(companies).where(eq(companies.id, a.company.id));
    expect(row!.on).toBe(false);
    await call(a.adminSession, "PUT", "/settings/campaignsEnabled", { value: "true" });
    const [again] = await t.ctx.database.db.select({ on: companies.campaignsEnabled }).from(companies).where(eq(companies.id, a.company.id));
    expect(again!.on).toBe(true);
  });

  it("unknown keys (allTicket belongs to users) are 404; a missing body is 400", async () => {
    for (const key of ["allTicket", "noSuchKey", "constructor", "toString"]) {
      const res = await call(a.adminSession, "PUT", `/settings/${key}`, { value: "enabled" });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: "ERR_NO_SETTING_FOUND" });
    }
    expect((await call(a.adminSession, "PUT", "/settings/userRating", {})).statusCode).toBe(400);
  });

  it("only admins change settings; everyone signed in reads them", async () => {
    const denied = await call(a.userSession, "PUT", "/settings/call", { value: "disabled" });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await call(null, "PUT", "/settings/call", { value: "disabled" })).statusCode).toBe(401);
    expect((await call(null, "GET", "/settings")).statusCode).toBe(401);
    expect((await call(a.userSession, "GET", "/settings")).statusCode).toBe(200);
  });

  it("integration credentials are saved (row created on first save) and shown to admins only", async () => {
    const res = await call(a.adminSession, "PUT", "/settings/tokenixc", { value: "s3cr3t" });
    expect(res.json()).toEqual({ key: "tokenixc", value: "s3cr3t" });
    expect(await valueOf(a.adminSession, "tokenixc")).toBe("s3cr3t");
    expect(await valueOf(a.userSession, "tokenixc")).toBeUndefined();
  });

  it("two companies keep separate values", async () => {
    await call(a.adminSession, "PUT", "/settings/scheduleType", { value: "company" });
    await call(b.adminSession, "PUT", "/settings/scheduleType", { value: "queue" });
    expect(await valueOf(a.adminSession, "scheduleType")).toBe("company");
    expect(await valueOf(b.adminSession, "scheduleType")).toBe("queue");
  });
});
