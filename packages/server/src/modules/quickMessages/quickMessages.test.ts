import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quickMessages } from "../../db/schema";
import { buildCompany, buildTenant, buildUser, collectEvents, connectSocket, login, nextEventWhere, type Session } from "../../test/factories";
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
const body = () => ({ shortcode: `atalho${++seq}`, message: `Olá! Mensagem rápida número ${seq}.` });

async function quickMessage(companyId: number, userId: number | null, overrides: Partial<typeof quickMessages.$inferInsert> = {}) {
  const [row] = await t.ctx.database.db
    .insert(quickMessages)
    .values({ companyId, userId, ...body(), ...overrides })
    .returning();
  return row!;
}

describe("permission matrix of the quick-messages endpoints", () => {
  // "own" = written by the caller; "other" = written by someone else in the company.
  it.each([
    ["GET", "/quick-messages", "own", 200, 200],
    ["GET", "/quick-messages/list", "own", 200, 200],
    ["GET", "/quick-messages/:id", "other", 200, 200],
    ["POST", "/quick-messages", "own", 201, 201],
    ["PUT", "/quick-messages/:id", "own", 200, 200],
    ["PUT", "/quick-messages/:id", "other", 200, 403],
    ["DELETE", "/quick-messages/:id", "own", 204, 204],
    ["DELETE", "/quick-messages/:id", "other", 204, 403],
  ] as const)("%s %s (%s) → admin %i, user %i, anonymous 401", async (method, path, whose, adminStatus, userStatus) => {
    const someoneElse = await buildUser(t.ctx, a.company.id);
    for (const [role, session, author, expected] of [
      ["admin", a.adminSession, a.admin.id, adminStatus],
      ["user", a.userSession, a.user.id, userStatus],
      ["anonymous", null, a.user.id, 401],
    ] as const) {
      const record = await quickMessage(a.company.id, whose === "own" ? author : someoneElse.id);
      const payload = method === "POST" ? body() : method === "PUT" ? { message: "Texto novo" } : undefined;
      const res = await call(session, method, path.replace(":id", String(record.id)), payload);
      expect({ role, status: res.statusCode }).toEqual({ role, status: expected });
      if (expected === 403) {
        expect(res.json()).toEqual({ error: "ERR_NO_PERMISSION" });
        const [row] = await t.ctx.database.db.select().from(quickMessages).where(eq(quickMessages.id, record.id));
        expect(row).toMatchObject({ message: record.message });
      }
    }
  });

  it("a message whose author was deleted is left to admins", async () => {
    const record = await quickMessage(a.company.id, null);
    expect((await call(a.userSession, "PUT", `/quick-messages/${record.id}`, { message: "Tentativa" })).statusCode).toBe(403);
    expect((await call(a.adminSession, "PUT", `/quick-messages/${record.id}`, { message: "Pelo admin" })).statusCode).toBe(200);
  });
});

describe("validation (spec §5)", () => {
  it("shortcode 3–50 and message 3–1000, both required", async () => {
    const missing = await call(a.userSession, "POST", "/quick-messages", {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().issues).toEqual(
      expect.arrayContaining([
        { path: "shortcode", message: "Required" },
        { path: "message", message: "Required" },
      ]),
    );
    const short = await call(a.userSession, "POST", "/quick-messages", { shortcode: "ab", message: "oi" });
    expect(short.json().issues).toEqual(
      expect.arrayContaining([
        { path: "shortcode", message: "Too Short!" },
        { path: "message", message: "Too Short!" },
      ]),
    );
    const long = await call(a.userSession, "POST", "/quick-messages", { shortcode: "x".repeat(51), message: "y".repeat(1001) });
    expect(long.json().issues).toEqual(
      expect.arrayContaining([
        { path: "shortcode", message: "Too Long!" },
        { path: "message", message: "Too Long!" },
      ]),
    );
    const edge = await call(a.userSession, "POST", "/quick-messages", { shortcode: "x".repeat(50), message: "y".repeat(1000) });
    expect(edge.statusCode).toBe(201);
    expect((await call(a.userSession, "PUT", "/quick-messages/1", { message: "no" })).statusCode).toBe(400);
  });

  it("shortcodes are unique per company, ignoring case; other companies may reuse them", async () => {
    expect((await call(a.userSession, "POST", "/quick-messages", { shortcode: "saudacao", message: "Bom dia!" })).statusCode).toBe(201);
    const dup = await call(a.adminSession, "POST", "/quick-messages", { shortcode: "SAUDACAO", message: "Boa tarde!" });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ error: "ERR_DUPLICATED_SHORTCODE" });
    expect((await call(b.userSession, "POST", "/quick-messages", { shortcode: "saudacao", message: "Oi!" })).statusCode).toBe(201);
    const other = (await call(a.userSession, "POST", "/quick-messages", body())).json();
    const rename = await call(a.userSession, "PUT", `/quick-messages/${other.id}`, { shortcode: "Saudacao" });
    expect(rename.json()).toEqual({ error: "ERR_DUPLICATED_SHORTCODE" });
    const keep = await call(a.userSession, "PUT", `/quick-messages/${other.id}`, { shortcode: other.shortcode, message: "Mudou só o texto" });
    expect(keep.json()).toMatchObject({ shortcode: other.shortcode, message: "Mudou só o texto" });
  });
});

describe("listing", () => {
  it("/list is the whole company's, by shortcode; the paginated list pages by 20 with hasMore and search", async () => {
    const company = await buildCompany(t.ctx);
    const u1 = await buildUser(t.ctx, company.id);
    const u2 = await buildUser(t.ctx, company.id);
    const session = await login(t.app, u1.email);
    for (let i = 0; i < 12; i++) await quickMessage(company.id, u1.id, { shortcode: `a${String(i).padStart(2, "0")}x` });
    for (let i = 0; i < 9; i++) await quickMessage(company.id, u2.id, { shortcode: `b${String(i).padStart(2, "0")}x` });
    await quickMessage(company.id, u2.id, { shortcode: "promocao", message: "Promoção de verão, aproveite!" });
    const list = (await call(session, "GET", `/quick-messages/list?userId=${u1.id}&companyId=${a.company.id}`)).json();
    expect(list).toHaveLength(22);
    expect(list[0].shortcode).toBe("a00x");
    expect(list.every((q: { companyId: number }) => q.companyId === company.id)).toBe(true);
    const page1 = (await call(session, "GET", "/quick-messages?pageNumber=1")).json();
    const page2 = (await call(session, "GET", "/quick-messages?pageNumber=2")).json();
    expect(page1.records).toHaveLength(20);
    expect(page1.hasMore).toBe(true);
    expect(page2).toMatchObject({ hasMore: false });
    expect(page2.records).toHaveLength(2);
    const found = (await call(session, "GET", "/quick-messages?searchParam=PROMOCAO%20DE%20VERAO")).json();
    expect(found.records.map((q: { shortcode: string }) => q.shortcode)).toEqual(["promocao"]);
  });
});

describe("two-company isolation", () => {
  it("another company's quick message answers exactly like a missing one, for every verb, and is left untouched", async () => {
    const theirs = await quickMessage(b.company.id, b.admin.id, { shortcode: "deles", message: "Intocável" });
    const missing = 2_000_000_000;
    for (const [method, payload] of [
      ["GET", undefined],
      ["PUT", { shortcode: "hack", message: "Hackeada" }],
      ["DELETE", undefined],
    ] as const) {
      const foreign = await call(a.adminSession, method, `/quick-messages/${theirs.id}`, payload);
      const absent = await call(a.adminSession, method, `/quick-messages/${missing}`, payload);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).toBe(absent.body);
      expect(foreign.json()).toEqual({ error: "ERR_NO_QUICK_MESSAGE_FOUND" });
    }
    const [row] = await t.ctx.database.db.select().from(quickMessages).where(eq(quickMessages.id, theirs.id));
    expect(row).toMatchObject({ shortcode: "deles", message: "Intocável" });
    const mine = (await call(a.adminSession, "GET", "/quick-messages/list")).json();
    expect(mine.map((q: { id: number }) => q.id)).not.toContain(theirs.id);
    const paged = (await call(a.adminSession, "GET", "/quick-messages?searchParam=deles")).json();
    expect(paged.records).toEqual([]);
  });

  it("companyId and userId smuggled into a create are ignored", async () => {
    const res = await call(a.userSession, "POST", "/quick-messages", { ...body(), companyId: b.company.id, userId: b.admin.id });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ companyId: a.company.id, userId: a.user.id });
  });
});

describe("quick message events", () => {
  it("create, update and delete reach sockets of the same company only", async () => {
    const socketA = await connectSocket(t.app, a.adminSession.token);
    const socketB = await connectSocket(t.app, b.adminSession.token);
    const leaked = collectEvents(socketB, "quickmessage");
    const payload = body();
    // Other tests' events may still be on their way through the outbox: wait for this record's.
    const created = nextEventWhere<{ action: string; record: { id: number; shortcode: string } }>(
      socketA,
      "quickmessage",
      (e) => e.record?.shortcode === payload.shortcode,
    );
    const res = await call(a.userSession, "POST", "/quick-messages", payload);
    expect(await created).toMatchObject({ action: "create", record: { shortcode: payload.shortcode, companyId: a.company.id } });
    const id = res.json().id;
    const updated = nextEventWhere<{ action: string; record?: { id: number } }>(
      socketA,
      "quickmessage",
      (e) => e.action === "update" && e.record?.id === id,
    );
    await call(a.userSession, "PUT", `/quick-messages/${id}`, { message: "Atualizada" });
    expect(await updated).toMatchObject({ action: "update", record: { id, message: "Atualizada" } });
    const deleted = nextEventWhere<{ action: string; id?: number }>(socketA, "quickmessage", (e) => e.action === "delete" && e.id === id);
    await call(a.userSession, "DELETE", `/quick-messages/${id}`);
    expect(await deleted).toEqual({ action: "delete", id });
    await t.ctx.events.drain();
    await new Promise((r) => setTimeout(r, 100));
    expect(leaked).toEqual([]);
    socketA.close();
    socketB.close();
  });
});
