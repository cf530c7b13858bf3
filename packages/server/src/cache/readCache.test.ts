/**
 * Issue 20: the read cache of settings and connection queues serves repeated reads without the database and
 * follows every change made through the HTTP API — on the process that made it at once, and on a second
 * process on the same database as soon as it hears the change's commit (LISTEN/NOTIFY). No clock: the tests
 * wait on the cache's invalidation count, never on time.
 */
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ChannelAddress, InboundMessage } from "../channels/types";
import type { AppContext } from "../context";
import { connections, contacts, messages } from "../db/schema";
import { automations } from "../modules/chatbot/module";
import { pipelines } from "../modules/messages/module";
import { buildQueue, buildTenant, buildUser, login, type Session } from "../test/factories";
import { secondProcess, type SecondProcess } from "../test/secondProcess";
import { statementsOf } from "../test/statementCount";
import { createTestApp, type TestApp } from "../test/testApp";
import { ReadCache, readCache } from "./readCache";

let t: TestApp;
let second: SecondProcess;
beforeAll(async () => {
  t = await createTestApp();
  second = await secondProcess(t);
});
afterAll(async () => {
  await second.app.close();
  await second.database.close();
  await t.close();
});

let seq = 0;
const db = () => t.ctx.database.db;
const call = (app: TestApp["app"], s: Session, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  app.inject({ method, url: `/api${url}`, headers: s.headers, ...(payload ? { payload } : {}) });

const customer = (): ChannelAddress => ({ id: `55119${String(70_000_000 + ++seq * 41).padStart(8, "0")}`, kind: "phone", pushName: "Rita" });
const group = (): ChannelAddress => ({ id: `1203630${String(++seq).padStart(8, "0")}@g.us`, kind: "group", pushName: "Grupo" });
const inbound = (chat: ChannelAddress, body: string): InboundMessage => ({
  providerMessageId: `WA-CACHE-${++seq}-${Date.now()}`,
  chat,
  ...(chat.kind === "group" && { participant: { id: "5511900000001", kind: "phone" as const, pushName: "Membro" } }),
  fromMe: false,
  kind: "chat",
  body,
  timestamp: new Date(),
});

async function desk() {
  const tenant = await buildTenant(t.app);
  const companyId = tenant.company.id;
  const [connection] = await db()
    .insert(connections)
    .values({ companyId, name: `Cache ${++seq}`, isDefault: true, status: "CONNECTED", greetingMessage: "" })
    .returning();
  return { ...tenant, connection: connection!, source: { companyId, connectionId: connection!.id } };
}
type Desk = Awaited<ReturnType<typeof desk>>;

/** The customer writes through `ctx`'s pipeline; resolves once every process's bot work is done. */
async function say(ctx: AppContext, d: Desk, chat: ChannelAddress, body: string): Promise<number | null> {
  const id = await pipelines.get(ctx)!.receive(d.source, inbound(chat, body));
  await automations.get(t.ctx)!.idle();
  await automations.get(second.ctx)!.idle();
  return id;
}

/** Everything the company sent to the customer, oldest first. */
async function sent(d: Desk, chat: ChannelAddress): Promise<string[]> {
  const [c] = await db()
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.companyId, d.company.id), eq(contacts.number, chat.id)));
  const rows = await db()
    .select({ body: messages.body })
    .from(messages)
    .where(and(eq(messages.companyId, d.company.id), eq(messages.contactId, c!.id), eq(messages.fromMe, true)))
    .orderBy(asc(messages.id));
  return rows.map((r) => r.body);
}

describe("read cache of settings and connection queues", () => {
  it("serves a repeated read without a statement", async () => {
    const d = await desk();
    const cache = readCache(t.ctx);
    expect(await statementsOf(t, () => cache.setting(d.company.id, "scheduleType"))).toBe(1);
    expect(await statementsOf(t, () => cache.setting(d.company.id, "scheduleType"))).toBe(0);
    expect(await statementsOf(t, () => cache.connectionQueues(d.company.id, d.connection.id))).toBe(1);
    expect(await statementsOf(t, () => cache.connectionQueues(d.company.id, d.connection.id))).toBe(0);
    expect(await statementsOf(t, () => cache.queueTransfer(d.company.id, d.connection.id))).toBe(1);
    expect(await statementsOf(t, () => cache.queueTransfer(d.company.id, d.connection.id))).toBe(0);
    expect(await statementsOf(t, () => cache.activeWebhooks(d.company.id))).toBe(1);
    expect(await statementsOf(t, () => cache.activeWebhooks(d.company.id))).toBe(0);
  });

  it("a connection's timed queue transfer changed through the HTTP API: this process at once, another once it hears the commit", async () => {
    const d = await desk();
    const queue = await buildQueue(t.ctx, d.company.id, { name: "Triagem", greetingMessage: "", orderQueue: 0 });
    const a = readCache(t.ctx);
    const b = readCache(second.ctx);
    expect(await a.queueTransfer(d.company.id, d.connection.id)).toEqual({ timeSendQueue: 0, sendIdQueue: 0 });
    expect(await b.queueTransfer(d.company.id, d.connection.id)).toEqual({ timeSendQueue: 0, sendIdQueue: 0 });
    const seen = b.invalidations;
    const changed = await call(t.app, d.adminSession, "PUT", `/whatsapp/${d.connection.id}`, { timeSendQueue: 5, sendIdQueue: queue.id });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await a.queueTransfer(d.company.id, d.connection.id)).toEqual({ timeSendQueue: 5, sendIdQueue: queue.id });
    await b.invalidated(seen);
    expect(await b.queueTransfer(d.company.id, d.connection.id)).toEqual({ timeSendQueue: 5, sendIdQueue: queue.id });
    expect(await a.queueTransfer(d.company.id, d.connection.id + 1_000_000)).toBeNull();
  });

  it("a setting changed through the HTTP API: the next inbound message follows it", async () => {
    const d = await desk();
    // Group messages are ignored by default (CheckMsgIsGroup enabled); the cache now holds the company's settings.
    expect(await say(t.ctx, d, group(), "ignorada")).toBeNull();
    expect(await statementsOf(t, () => readCache(t.ctx).setting(d.company.id, "CheckMsgIsGroup"))).toBe(0);
    expect((await call(t.app, d.adminSession, "PUT", "/settings/CheckMsgIsGroup", { value: "disabled" })).statusCode).toBe(200);
    expect(await say(t.ctx, d, group(), "recebida")).not.toBeNull();
    expect((await call(t.app, d.adminSession, "PUT", "/settings/CheckMsgIsGroup", { value: "enabled" })).statusCode).toBe(200);
    expect(await say(t.ctx, d, group(), "ignorada de novo")).toBeNull();
  });

  it("queues edited or attached to the connection through the HTTP API: the bot's next answer follows them", async () => {
    const d = await desk();
    const queue = await buildQueue(t.ctx, d.company.id, { name: "Vendas", greetingMessage: "Bem-vindo às vendas.", orderQueue: 0 });
    // No queues yet: the bot stays silent (the connection has no greeting).
    const first = customer();
    await say(t.ctx, d, first, "Oi");
    expect(await sent(d, first)).toEqual([]);

    // Attached through PUT /whatsapp/:id: a new customer lands in the only queue and gets its greeting.
    const attached = await call(t.app, d.adminSession, "PUT", `/whatsapp/${d.connection.id}`, { queueIds: [queue.id] });
    expect(attached.statusCode).toBe(200);
    const ana = customer();
    await say(t.ctx, d, ana, "Oi");
    expect(await sent(d, ana)).toEqual(["Bem-vindo às vendas."]);

    // The queue's greeting edited through PUT /queue/:id.
    const edited = await call(t.app, d.adminSession, "PUT", `/queue/${queue.id}`, { greetingMessage: "Vendas: em que posso ajudar?" });
    expect(edited.statusCode).toBe(200);
    const bia = customer();
    await say(t.ctx, d, bia, "Oi");
    expect(await sent(d, bia)).toEqual(["Vendas: em que posso ajudar?"]);

    // A second queue created and attached: the menu now lists both.
    const created = await call(t.app, d.adminSession, "POST", "/queue", { name: "Suporte", color: "#123456", greetingMessage: "" });
    expect(created.statusCode).toBe(201);
    const both = await call(t.app, d.adminSession, "PUT", `/whatsapp/${d.connection.id}`, {
      queueIds: [queue.id, created.json().id],
      greetingMessage: "Escolha uma fila:",
    });
    expect(both.statusCode, both.body).toBe(200);
    const caio = customer();
    await say(t.ctx, d, caio, "Oi");
    const [menu] = await sent(d, caio);
    expect(menu).toMatch(/^Escolha uma fila:/);
    expect(menu).toMatch(/Vendas/);
    expect(menu).toMatch(/Suporte/);
  });

  it("two app instances on one database: a change made through one is followed by the other", async () => {
    const d = await desk();
    const a = readCache(t.ctx);
    const queue = await buildQueue(t.ctx, d.company.id, { name: "Financeiro", greetingMessage: "Financeiro, bom dia.", orderQueue: 0 });

    // Process A has the company's settings and the connection's (empty) queue list cached.
    expect(await say(t.ctx, d, group(), "ignorada")).toBeNull();
    expect(await a.connectionQueues(d.company.id, d.connection.id)).toEqual([]);
    expect(await statementsOf(t, () => a.setting(d.company.id, "CheckMsgIsGroup"))).toBe(0);

    // The setting changed through process B's HTTP API; A follows once it hears the commit.
    let seen = a.invalidations;
    expect((await call(second.app, d.adminSession, "PUT", "/settings/CheckMsgIsGroup", { value: "disabled" })).statusCode).toBe(200);
    await a.invalidated(seen);
    expect(await say(t.ctx, d, group(), "recebida em A")).not.toBeNull();

    // The connection's queues changed through B: A's cached list follows, and so does the bot (whichever
    // process runs it).
    seen = a.invalidations;
    expect((await call(second.app, d.adminSession, "PUT", `/whatsapp/${d.connection.id}`, { queueIds: [queue.id] })).statusCode).toBe(200);
    await a.invalidated(seen);
    expect((await a.connectionQueues(d.company.id, d.connection.id)).map((q) => q.id)).toEqual([queue.id]);
    const chat = customer();
    await say(t.ctx, d, chat, "Oi");
    expect(await sent(d, chat)).toEqual(["Financeiro, bom dia."]);

    // A queue edited through B.
    seen = a.invalidations;
    expect((await call(second.app, d.adminSession, "PUT", `/queue/${queue.id}`, { greetingMessage: "Financeiro, boa tarde." })).statusCode).toBe(200);
    await a.invalidated(seen);
    expect((await a.connectionQueues(d.company.id, d.connection.id))[0]?.greetingMessage).toBe("Financeiro, boa tarde.");
    const other = customer();
    await say(t.ctx, d, other, "Oi");
    expect(await sent(d, other)).toEqual(["Financeiro, boa tarde."]);
  });
});

describe("read cache of authenticated sessions", () => {
  const me = (app: TestApp["app"], session: Session) => call(app, session, "GET", "/auth/me");

  it("serves a session's repeated requests without reading it again", async () => {
    const d = await desk();
    const cache = readCache(t.ctx);
    const session = cache.session.bind(cache);
    let reads = 0;
    const spy = vi.spyOn(cache, "session").mockImplementation((companyId, sid, load) => session(companyId, sid, () => (reads++, load())));
    // A new login: its session is not read yet.
    const fresh = await login(t.app, d.user.email);
    for (let i = 0; i < 3; i++) expect((await me(t.app, fresh)).statusCode).toBe(200);
    expect(reads).toBe(1);
    spy.mockRestore();
  });

  it("keeps a session for sessionTtlMs, never one not found, and clears the expired as new ones come", async () => {
    let clock = 1_000_000;
    const cache = new ReadCache(t.ctx, { ttlMs: 60_000, sessionTtlMs: 5_000, holdMs: 10_000 }, () => clock);
    let reads = 0;
    const load = (found: boolean) => async () => (reads++, found ? { user: "u" } : undefined);
    await cache.session(1, "s1", load(true));
    await cache.session(1, "s1", load(true));
    expect(reads).toBe(1);
    clock += 5_000;
    await cache.session(1, "s1", load(true));
    expect(reads).toBe(2);
    await cache.session(1, "gone", load(false));
    await cache.session(1, "gone", load(false));
    expect(reads).toBe(4);

    const sizeOf = () => (cache as unknown as { companies: Map<number, { sessions: Map<string, unknown> }> }).companies.get(1)!.sessions.size;
    for (let i = 0; i < 40; i++) await cache.session(1, `login-${i}`, load(true));
    expect(sizeOf()).toBe(41);
    clock += 5_001;
    await cache.session(1, "after", load(true));
    expect(sizeOf()).toBe(1);
    cache.stop();
  });

  it("a profile change and a logout are followed by the very next request of the session", async () => {
    const d = await desk();
    const other = await buildUser(t.ctx, d.company.id, { profile: "admin" });
    const session = await login(t.app, other.email);
    // An admin-only route: an admin learns the user does not exist, anyone else is refused first.
    const adminOnly = async () => (await call(t.app, session, "DELETE", "/users/2147483000")).statusCode;
    expect(await adminOnly()).toBe(404);
    expect(await adminOnly()).toBe(404);
    const demoted = await call(t.app, d.adminSession, "PUT", `/users/${other.id}`, { profile: "user" });
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect(await adminOnly()).toBe(403);

    expect((await me(t.app, session)).statusCode).toBe(200);
    expect((await t.app.inject({ method: "DELETE", url: "/api/auth/logout", headers: session.headers })).statusCode).toBeLessThan(300);
    expect((await me(t.app, session)).statusCode).toBe(401);
  });

  it("two app instances on one database: a logout through one is refused by the other once it hears the commit", async () => {
    const d = await desk();
    // Process A has the session cached (for sessionTtlMs, 5 s).
    expect((await me(t.app, d.userSession)).statusCode).toBe(200);
    const out = await second.app.inject({ method: "DELETE", url: "/api/auth/logout", headers: d.userSession.headers });
    expect(out.statusCode).toBeLessThan(300);
    // Well within the entry's 5 s: the commit's notification dropped it, not its age.
    await expect.poll(async () => (await me(t.app, d.userSession)).statusCode, { timeout: 2_000, interval: 20 }).toBe(401);
  });
});
