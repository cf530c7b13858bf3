import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectionDTO } from "@balcao/shared";
import { connectionAuth, connectionLeases, connections } from "../../db/schema";
import {
  buildCompany,
  buildPlan,
  buildQueue,
  buildTenant,
  buildUser,
  collectEvents,
  connectSocket as openSocket,
  login,
  nextEvent,
  type Session,
} from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

/** Polls with room for a loaded CI machine (other listeners, e.g. the message pipeline, run first). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 20 });

let t: TestApp;
let a: Awaited<ReturnType<typeof buildTenant>>;
let b: Awaited<ReturnType<typeof buildTenant>>;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0" });
  a = await buildTenant(t.app);
  b = await buildTenant(t.app);
});
const sockets: Awaited<ReturnType<typeof openSocket>>[] = [];
/** Every socket is closed in afterAll, even when a test fails half-way (an open client keeps the server from closing). */
const connectSocket = async (...args: Parameters<typeof openSocket>) => {
  const socket = await openSocket(...args);
  sockets.push(socket);
  return socket;
};
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.close();
});

const call = (session: Session | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session ? session.headers : {}, ...(payload ? { payload } : {}) });

let seq = 0;
const create = async (session: Session, body: object = {}) => {
  const res = await call(session, "POST", "/whatsapp", { name: `Conexão ${++seq}`, ...body });
  if (res.statusCode !== 201) throw new Error(`create failed ${res.statusCode}: ${res.body}`);
  return res.json() as ConnectionDTO;
};

describe("simulator connection lifecycle through the API", () => {
  it("a new connection goes OPENING → qrcode, and scanning the QR makes it CONNECTED; the pairing survives a restart", async () => {
    const socket = await connectSocket(t.app, a.adminSession.token);
    const sessions = collectEvents<{ action: string; session: ConnectionDTO }>(socket, "whatsappSession");
    const created = await create(a.adminSession);
    expect(created).toMatchObject({ status: "qrcode", channel: "simulator", retries: 0 });
    expect(created.qrcode).toMatch(new RegExp(`^balcao-sim:${created.id}:`));
    await poll(() => sessions.map((e) => e.session.status)).toEqual(expect.arrayContaining(["OPENING", "qrcode"]));
    expect(sessions.every((e) => e.action === "update" && e.session.id === created.id)).toBe(true);

    const wrong = await call(a.adminSession, "POST", `/simulator/${created.id}/scan`, { code: "balcao-sim:nope" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: "ERR_SIMULATOR_INVALID_CODE" });

    const connected = nextEvent<{ session: ConnectionDTO }>(socket, "whatsappSession");
    const scan = await call(a.adminSession, "POST", `/simulator/${created.id}/scan`, { code: created.qrcode });
    expect(scan.json()).toEqual({ status: "CONNECTED" });
    expect((await connected).session).toMatchObject({ id: created.id, status: "CONNECTED", qrcode: "", number: expect.stringMatching(/^\d+$/) });

    // Retry (POST /whatsappsession) restarts the session: the stored pairing brings it straight back.
    const retried = await call(a.adminSession, "POST", `/whatsappsession/${created.id}`);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ status: "CONNECTED", qrcode: "" });

    // New QR (PUT) unpairs and shows a fresh code.
    const fresh = await call(a.adminSession, "PUT", `/whatsappsession/${created.id}`);
    expect(fresh.json()).toMatchObject({ status: "qrcode" });
    expect(fresh.json().qrcode).not.toBe(created.qrcode);

    // Disconnect (DELETE) logs out: DISCONNECTED, no QR, no lease, no pairing left.
    const off = await call(a.adminSession, "DELETE", `/whatsappsession/${created.id}`);
    expect(off.json()).toMatchObject({ status: "DISCONNECTED", qrcode: "" });
    expect(t.ctx.channels.isLocal(created.id)).toBe(false);
    expect(await t.ctx.database.db.select().from(connectionLeases).where(eq(connectionLeases.connectionId, created.id))).toEqual([]);
    socket.disconnect();
  });

  it("never puts credentials on the wire, whatever `session` says", async () => {
    const created = await create(a.adminSession);
    await call(a.adminSession, "POST", `/simulator/${created.id}/scan`, { code: created.qrcode });
    const [auth] = await t.ctx.database.db.select().from(connectionAuth).where(eq(connectionAuth.connectionId, created.id));
    expect(auth?.creds).toEqual({ paired: true });
    for (const url of ["/whatsapp/", "/whatsapp/?session=1", `/whatsapp/${created.id}`, `/whatsapp/${created.id}?session=0`]) {
      const res = await call(a.adminSession, "GET", url);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toMatch(/creds|paired|session"|keys/);
    }
  });
});

describe("permission matrix", () => {
  it.each([
    ["GET", "/whatsapp/", 200, 200],
    ["GET", "/whatsapp/:id", 200, 200],
    ["POST", "/whatsapp", 201, 403],
    ["PUT", "/whatsapp/:id", 200, 403],
    ["DELETE", "/whatsapp/:victim", 204, 403],
    ["POST", "/whatsappsession/:id", 200, 403],
    ["PUT", "/whatsappsession/:id", 200, 403],
    ["DELETE", "/whatsappsession/:id", 200, 403],
  ] as const)("%s %s → admin %i, user %i, anonymous 401", async (method, path, adminStatus, userStatus) => {
    const plan = await buildPlan(t.ctx, { connections: 50 });
    const company = await buildCompany(t.ctx, { planId: plan.id });
    const admin = await buildUser(t.ctx, company.id, { profile: "admin" });
    const user = await buildUser(t.ctx, company.id, { profile: "user" });
    const adminSession = await login(t.app, admin.email);
    const userSession = await login(t.app, user.email);
    for (const [role, session, expected] of [
      ["anonymous", null, 401],
      ["user", userSession, userStatus],
      ["admin", adminSession, adminStatus],
    ] as const) {
      const target = await create(adminSession);
      const url = path.replace(":id", String(target.id)).replace(":victim", String(target.id));
      const body =
        method === "POST" && path === "/whatsapp"
          ? { name: `Nova ${++seq}` }
          : method === "PUT" && path.startsWith("/whatsapp/")
            ? { name: "Renomeada" }
            : undefined;
      const res = await call(session, method, url, body);
      expect({ role, status: res.statusCode }).toEqual({ role, status: expected });
      if (expected === 403) expect(res.json()).toEqual({ error: "ERR_NO_PERMISSION" });
    }
  });

  it("attendants see names and statuses but never the QR or the token", async () => {
    const created = await create(a.adminSession);
    const asUser = (await call(a.userSession, "GET", `/whatsapp/${created.id}`)).json();
    expect(asUser).toMatchObject({ id: created.id, status: "qrcode", qrcode: "", token: null });
    const asAdmin = (await call(a.adminSession, "GET", `/whatsapp/${created.id}`)).json();
    expect(asAdmin.qrcode).not.toBe("");
    expect(asAdmin.token).toMatch(/^[\w-]{32}$/);
  });
});

describe("two-company isolation", () => {
  it("lists only the caller's company, even with companyId in the query", async () => {
    const mine = await create(a.adminSession);
    const theirs = await create(b.adminSession);
    const ids = (await call(a.adminSession, "GET", `/whatsapp/?companyId=${b.company.id}`)).json().map((c: ConnectionDTO) => c.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
  });

  it("another company's connection answers exactly like a missing one, for every verb, and is left untouched", async () => {
    const theirs = await create(b.adminSession);
    const missing = 2_000_000_000;
    for (const [method, prefix, body] of [
      ["GET", "/whatsapp", undefined],
      ["PUT", "/whatsapp", { name: "Hacked" }],
      ["DELETE", "/whatsapp", undefined],
      ["POST", "/whatsappsession", undefined],
      ["PUT", "/whatsappsession", undefined],
      ["DELETE", "/whatsappsession", undefined],
    ] as const) {
      const foreign = await call(a.adminSession, method, `${prefix}/${theirs.id}`, body);
      const absent = await call(a.adminSession, method, `${prefix}/${missing}`, body);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).toBe(absent.body);
      expect(foreign.json()).toEqual({ error: "ERR_NO_WAPP_FOUND" });
    }
    const after = (await call(b.adminSession, "GET", `/whatsapp/${theirs.id}`)).json();
    expect(after).toMatchObject({ name: theirs.name, status: "qrcode", qrcode: theirs.qrcode });
  });

  it("socket events reach only the owning company (and QR-bearing ones only its admins)", async () => {
    const aAdmin = await connectSocket(t.app, a.adminSession.token);
    const aUser = await connectSocket(t.app, a.userSession.token);
    const bAdmin = await connectSocket(t.app, b.adminSession.token);
    const seenB = [...collectEvents(bAdmin, "whatsapp"), ...collectEvents(bAdmin, "whatsappSession")];
    const userSessions = collectEvents(aUser, "whatsappSession");
    const userUpdates = collectEvents<{ action: string; whatsapp: ConnectionDTO }>(aUser, "whatsapp");
    const adminUpdate = nextEvent<{ action: string; whatsapp: ConnectionDTO }>(aAdmin, "whatsapp");
    const created = await create(a.adminSession);
    expect(await adminUpdate).toMatchObject({ action: "update", whatsapp: { id: created.id, token: created.token } });
    await poll(() => userUpdates.length).toBeGreaterThan(0);
    expect(userUpdates.every((e) => e.whatsapp.token === null && e.whatsapp.qrcode === "")).toBe(true);
    await call(a.adminSession, "DELETE", `/whatsapp/${created.id}`);
    await poll(() => userUpdates as unknown[]).toContainEqual({ action: "delete", whatsappId: created.id });
    await new Promise((r) => setTimeout(r, 150));
    expect(seenB).toEqual([]);
    expect(userSessions).toEqual([]);
    for (const s of [aAdmin, aUser, bAdmin]) s.disconnect();
  });
});

describe("rules", () => {
  const freshTenant = async (connectionsLimit = 10) => {
    const plan = await buildPlan(t.ctx, { connections: connectionsLimit });
    const company = await buildCompany(t.ctx, { planId: plan.id });
    const admin = await buildUser(t.ctx, company.id, { profile: "admin" });
    return { company, session: await login(t.app, admin.email) };
  };

  it("validates the name with the spec's texts and refuses unknown providers, duplicates and foreign queues", async () => {
    const { session, company } = await freshTenant();
    const short = await call(session, "POST", "/whatsapp", { name: "A" });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ error: "Too Short!", issues: [{ path: "name", message: "Too Short!" }] });
    expect((await call(session, "POST", "/whatsapp", { name: "x".repeat(51) })).json().error).toBe("Too Long!");
    expect((await call(session, "POST", "/whatsapp", {})).json().error).toBe("Required");
    expect((await call(session, "POST", "/whatsapp", { name: "Ok", channel: "telegram" })).statusCode).toBe(400);
    expect((await call(session, "POST", "/whatsapp", { name: "Ok", timeSendQueue: -1 })).statusCode).toBe(400);
    expect((await call(session, "PUT", "/whatsapp/abc", { name: "Ok" })).statusCode).toBe(400);
    await create(session, { name: "Vendas" });
    const dup = await call(session, "POST", "/whatsapp", { name: "Vendas" });
    expect(dup.json()).toEqual({ error: "ERR_DUPLICATED_CONNECTION" });
    const foreignQueue = await buildQueue(t.ctx, b.company.id);
    const bad = await call(session, "POST", "/whatsapp", { name: "Suporte", queueIds: [foreignQueue.id] });
    expect(bad.json()).toEqual({ error: "ERR_NO_QUEUE_FOUND" });
    const ownQueue = await buildQueue(t.ctx, company.id);
    const ok = await create(session, { name: "Suporte", queueIds: [ownQueue.id] });
    expect(ok).toMatchObject({
      queues: [{ id: ownQueue.id, name: ownQueue.name, color: ownQueue.color }],
      timeSendQueue: 0,
      sendIdQueue: 0,
      provider: "beta",
    });
  });

  it("requires a greeting when more than one queue is linked (create and edit)", async () => {
    const { session, company } = await freshTenant();
    const q1 = await buildQueue(t.ctx, company.id);
    const q2 = await buildQueue(t.ctx, company.id);
    const refused = await call(session, "POST", "/whatsapp", { name: "Duas filas", queueIds: [q1.id, q2.id] });
    expect(refused.json()).toEqual({ error: "ERR_WAPP_GREETING_REQUIRED" });
    const single = await create(session, { name: "Uma fila", queueIds: [q1.id] });
    const edit = await call(session, "PUT", `/whatsapp/${single.id}`, { queueIds: [q1.id, q2.id] });
    expect(edit.json()).toEqual({ error: "ERR_WAPP_GREETING_REQUIRED" });
    const withGreeting = await call(session, "PUT", `/whatsapp/${single.id}`, {
      queueIds: [q1.id, q2.id],
      greetingMessage: "Olá! Escolha uma fila:",
    });
    expect(withGreeting.statusCode).toBe(200);
    expect(withGreeting.json().queues).toHaveLength(2);
  });

  it("keeps exactly one default connection", async () => {
    const { session } = await freshTenant();
    const first = await create(session, { isDefault: false });
    expect(first.isDefault).toBe(true);
    const second = await create(session);
    expect(second.isDefault).toBe(false);
    const refused = await call(session, "PUT", `/whatsapp/${first.id}`, { isDefault: false });
    expect(refused.json()).toEqual({ error: "ERR_NO_OTHER_WHATSAPP" });
    const moved = await call(session, "PUT", `/whatsapp/${second.id}`, { isDefault: true });
    expect(moved.json().isDefault).toBe(true);
    const list = (await call(session, "GET", "/whatsapp/")).json() as ConnectionDTO[];
    expect(list.filter((c) => c.isDefault).map((c) => c.id)).toEqual([second.id]);
    const third = await create(session, { isDefault: true });
    const afterThird = (await call(session, "GET", "/whatsapp/")).json() as ConnectionDTO[];
    expect(afterThird.filter((c) => c.isDefault).map((c) => c.id)).toEqual([third.id]);
    // Deleting the default hands the role to the oldest remaining connection.
    expect((await call(session, "DELETE", `/whatsapp/${third.id}`)).statusCode).toBe(204);
    const afterDelete = (await call(session, "GET", "/whatsapp/")).json() as ConnectionDTO[];
    expect(afterDelete.filter((c) => c.isDefault).map((c) => c.id)).toEqual([first.id]);
  });

  it("enforces the plan's connection limit", async () => {
    const { session } = await freshTenant(2);
    await create(session);
    await create(session);
    const over = await call(session, "POST", "/whatsapp", { name: "Terceira" });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ error: "ERR_CONNECTION_LIMIT_REACHED", meta: { limit: 2 } });
  });

  it("ignores status, qrcode, token and companyId smuggled into a create, and deleting stops the session", async () => {
    const { session } = await freshTenant();
    const res = await call(session, "POST", "/whatsapp", {
      name: "Esperta",
      status: "CONNECTED",
      qrcode: "x",
      token: "mine",
      companyId: b.company.id,
    });
    expect(res.statusCode).toBe(201);
    const created = res.json() as ConnectionDTO;
    expect(created.status).toBe("qrcode");
    expect(created.token).not.toBe("mine");
    const [row] = await t.ctx.database.db.select().from(connections).where(eq(connections.id, created.id));
    expect(row?.companyId).not.toBe(b.company.id);
    expect(t.ctx.channels.isLocal(created.id)).toBe(true);
    await call(session, "DELETE", `/whatsapp/${created.id}`);
    expect(t.ctx.channels.isLocal(created.id)).toBe(false);
    expect((await call(session, "GET", `/whatsapp/${created.id}`)).statusCode).toBe(404);
  });
});
