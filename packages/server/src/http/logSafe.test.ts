import Fastify, { type FastifyInstance } from "fastify";
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../db/schema";
import { buildTenant } from "../test/factories";
import { createTestApp, type TestApp } from "../test/testApp";
import { registerErrorHandling } from "./errors";
import { isInputDataError, serializeError } from "./logSafe";

/**
 * Issue 11: a failed query was logged with its parameters (password hashes in the log); a value PostgreSQL
 * refuses was a 500. Both through the app's own logger (ctx.log) and error handler, on a real database.
 */

let t: TestApp;
const lines: string[] = [];
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: "info" });
  // Capture what the app's logger (and every request logger derived from it) writes.
  (t.ctx.log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] = { write: (line: string) => void lines.push(line) };
});
afterAll(() => t.close());

const SECRET_HASH = "$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0LXNhbHQ$TOP-SECRET-HASH";

/** A bare Fastify with the app's logger and error handler, and routes that fail in the database. */
async function probeApp() {
  const app = Fastify({ loggerInstance: t.ctx.log });
  registerErrorHandling(app as unknown as FastifyInstance);
  const db = t.ctx.database.db;
  app.post("/dup", async () => {
    const [existing] = await db.select().from(users).limit(1);
    // Same email as an existing user: unique violation, with the hash among the parameters.
    await db.insert(users).values({ companyId: existing!.companyId, name: "Dup", email: existing!.email, passwordHash: SECRET_HASH });
    return {};
  });
  app.get("/day", async () => db.execute(sql`select ${"2024-02-30"}::date as d`));
  app.get("/big", async () => db.execute(sql`select ${"99999999999999"}::integer as n`));
  app.get("/bytes", async () => db.execute(sql`select convert_from('\\xff'::bytea, 'UTF8') as s`));
  await app.ready();
  return app;
}

describe("failed queries in the log", () => {
  it("a 500 from a failed insert logs the SQL and the SQLSTATE, never the parameters or row values", async () => {
    await buildTenant(t.app);
    const app = await probeApp();
    lines.length = 0;
    const res = await app.inject({ method: "POST", url: "/dup" });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain("argon2");
    const logged = lines.join("\n");
    expect(logged).toContain("unhandled error");
    expect(logged).toContain("insert into");
    expect(logged).toContain("23505");
    expect(logged).not.toContain("TOP-SECRET-HASH");
    expect(logged).not.toContain("argon2id");
    expect(logged).not.toMatch(/Key \(email\)/);
    await app.close();
  });

  it("serializeError keeps the query and cause code of a real drizzle error, drops params and detail", async () => {
    const err = await t.ctx.database.db.execute(sql`select ${"secret-param"}::integer`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isInputDataError(err)).toBe(true);
    const out = JSON.stringify(serializeError(err));
    expect(out).not.toContain('secret-param"');
    expect(out).toContain("22P02");
    expect(out).toContain("params: [redacted]");
  });
});

describe("values PostgreSQL refuses", () => {
  it("answer 400 ERR_VALIDATION, not 500 (datetime 22008, out of range 22003, bad bytes 22021)", async () => {
    const app = await probeApp();
    for (const url of ["/day", "/big", "/bytes"]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ error: "ERR_VALIDATION" });
    }
    await app.close();
  });
});

describe("4xx in the log", () => {
  it("names the user and company that were refused", async () => {
    const tenant = await buildTenant(t.app);
    lines.length = 0;
    const res = await t.app.inject({ method: "DELETE", url: `/api/users/${tenant.admin.id}`, headers: tenant.userSession.headers });
    expect(res.statusCode).toBe(403);
    const refused = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === "request refused");
    expect(refused).toMatchObject({ statusCode: 403, userId: tenant.user.id, companyId: tenant.company.id, route: "/api/users/:id" });
    // And never the bearer token.
    expect(lines.join("\n")).not.toContain(tenant.userSession.token);
  });
});
