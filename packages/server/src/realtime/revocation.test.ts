import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ChannelAddress, InboundMessage } from "../channels/types";
import { companies, connections, refreshSessions, userQueues } from "../db/schema";
import { pipelines } from "../modules/messages/module";
import { buildQueue, buildTenant, buildUser, collectEvents, connectSocket, login, nextEvent } from "../test/factories";
import { createTestApp, type TestApp } from "../test/testApp";
import { SocketRevocation } from "./revocation";
import { rooms } from "./rooms";

/**
 * Issue 11: a socket must not outlive its session. Every kind of revocation closes the socket within a
 * second, and the canary (a customer message on a ticket every company socket may see) no longer reaches it.
 */

let t: TestApp;
/** Same app code, with a fast periodic sweep: for revocations no event announces. */
let swept: TestApp;
beforeAll(async () => {
  [t, swept] = await Promise.all([createTestApp(), createTestApp({ SOCKET_SESSION_CHECK_MS: "200" })]);
});
afterAll(async () => {
  await Promise.all([t.close(), swept.close()]);
});

let seq = 0;
async function desk(app: TestApp) {
  const tenant = await buildTenant(app.app);
  const [connection] = await app.ctx.database.db
    .insert(connections)
    .values({ companyId: tenant.company.id, name: `Conexão ${++seq}`, isDefault: true, status: "CONNECTED" })
    .returning();
  return { ...tenant, source: { companyId: tenant.company.id, connectionId: connection!.id } };
}
type Desk = Awaited<ReturnType<typeof desk>>;

/** A customer message on a ticket with no queue yet: it goes to every socket of the company. */
async function canary(app: TestApp, d: Desk, body: string): Promise<void> {
  const chat: ChannelAddress = { id: `55119${String(900_000_00 + ++seq).padStart(8, "0")}`, kind: "phone", pushName: "Canário" };
  const message: InboundMessage = {
    providerMessageId: `CANARY-${seq}-${Date.now()}`,
    chat,
    fromMe: false,
    kind: "chat",
    body,
    timestamp: new Date(),
  };
  await pipelines.get(app.ctx)!.handle(d.source, { type: "message", message });
}

/** Resolves with the milliseconds until the server closed the socket, or rejects after `ms`. */
function serverDisconnect(socket: Socket, ms = 1000): Promise<number> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`socket still connected after ${ms} ms`)), ms);
    socket.once("disconnect", (reason) => {
      clearTimeout(timer);
      if (reason !== "io server disconnect") reject(new Error(`disconnected by ${reason}`));
      else resolve(Date.now() - started);
    });
  });
}

/**
 * After a revocation: the victim's socket is closed, the server keeps no socket for that session, and
 * the next canary reaches a witness (so it was emitted) but not the victim.
 */
async function expectCutOff(app: TestApp, d: Desk, victim: Socket, sid: string, revoke: () => Promise<unknown>): Promise<void> {
  const witness = await connectSocket(app.app, d.adminSession.token);
  const leaked = collectEvents(victim, "appMessage");
  const before = nextEvent<{ message: { body: string } }>(victim, "appMessage");
  await canary(app, d, "antes");
  expect((await before).message.body).toBe("antes");
  const closed = serverDisconnect(victim);
  await revoke();
  expect(await closed).toBeLessThan(1000);
  expect(await app.app.io.in(rooms.session(sid)).fetchSockets()).toHaveLength(0);
  const seen = nextEvent<{ message: { body: string } }>(witness, "appMessage", 3000);
  await canary(app, d, "depois");
  expect((await seen).message.body).toBe("depois");
  await new Promise((r) => setTimeout(r, 100));
  expect(leaked.map((e) => (e as { message: { body: string } }).message.body)).toEqual(["antes"]);
  witness.close();
}

const sidOf = (token: string): string => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).sid;

/** A second live session for a user, as another device would hold, without the one-login rule ending the first. */
async function extraSession(app: TestApp, user: { id: number; companyId: number; profile: string }, expiresAt = new Date(Date.now() + 3_600_000)) {
  const sid = randomUUID();
  await app.ctx.database.db
    .insert(refreshSessions)
    .values({ id: sid, companyId: user.companyId, userId: user.id, tokenHash: `test-${sid}`, expiresAt });
  const token = await app.ctx.tokens.signAccess({ id: user.id, companyId: user.companyId, profile: user.profile, super: false, sid });
  return { sid, token };
}

describe("sockets closed by events", () => {
  it("logout closes the session's socket", async () => {
    const d = await desk(t);
    const socket = await connectSocket(t.app, d.userSession.token);
    await expectCutOff(t, d, socket, sidOf(d.userSession.token), () =>
      t.app.inject({ method: "DELETE", url: "/api/auth/logout", headers: d.userSession.headers }),
    );
  });

  it("deleting the user closes every socket of that user", async () => {
    const d = await desk(t);
    const socket = await connectSocket(t.app, d.userSession.token);
    await expectCutOff(t, d, socket, sidOf(d.userSession.token), async () => {
      const res = await t.app.inject({ method: "DELETE", url: `/api/users/${d.user.id}`, headers: d.adminSession.headers });
      expect(res.statusCode).toBeLessThan(300);
    });
  });

  it("a super user deactivating the company closes its sockets at once", async () => {
    const d = await desk(t);
    const platform = await buildTenant(t.app);
    const superUser = await buildUser(t.ctx, platform.company.id, { profile: "admin", super: true });
    const superSession = await login(t.app, superUser.email);
    const socket = await connectSocket(t.app, d.userSession.token);
    const closed = serverDisconnect(socket);
    const res = await t.app.inject({
      method: "PUT",
      url: `/api/companies/${d.company.id}`,
      headers: superSession.headers,
      payload: { status: false },
    });
    expect(res.statusCode).toBe(200);
    expect(await closed).toBeLessThan(1000);
  });

  it("an admin's password reset closes the user's sockets", async () => {
    const d = await desk(t);
    const socket = await connectSocket(t.app, d.userSession.token);
    await expectCutOff(t, d, socket, sidOf(d.userSession.token), async () => {
      const res = await t.app.inject({
        method: "PUT",
        url: `/api/users/${d.user.id}`,
        headers: d.adminSession.headers,
        payload: { password: "outra-senha-1" },
      });
      expect(res.statusCode).toBe(200);
    });
  });

  it("changing one's own password closes the other sessions' sockets and keeps the current one", async () => {
    const d = await desk(t);
    const current = await connectSocket(t.app, d.userSession.token);
    const other = await extraSession(t, { id: d.user.id, companyId: d.company.id, profile: "user" });
    const otherSocket = await connectSocket(t.app, other.token);
    await expectCutOff(t, d, otherSocket, other.sid, async () => {
      const res = await t.app.inject({
        method: "PUT",
        url: `/api/users/${d.user.id}`,
        headers: d.userSession.headers,
        payload: { password: "minha-nova-1" },
      });
      expect(res.statusCode).toBe(200);
    });
    expect(current.connected).toBe(true);
    current.close();
  });

  it("a profile change closes the user's sockets", async () => {
    const d = await desk(t);
    const socket = await connectSocket(t.app, d.userSession.token);
    await expectCutOff(t, d, socket, sidOf(d.userSession.token), async () => {
      const res = await t.app.inject({
        method: "PUT",
        url: `/api/users/${d.user.id}`,
        headers: d.adminSession.headers,
        payload: { profile: "admin" },
      });
      expect(res.statusCode).toBe(200);
    });
  });

  it("a queue change moves the open socket between queue rooms at once", async () => {
    const d = await desk(t);
    const [q1, q2] = [await buildQueue(t.ctx, d.company.id), await buildQueue(t.ctx, d.company.id)];
    await t.ctx.database.db.insert(userQueues).values({ companyId: d.company.id, userId: d.user.id, queueId: q1.id });
    const session = await login(t.app, d.user.email);
    const socket = await connectSocket(t.app, session.token);
    const roomsOf = async () =>
      [...(await t.app.io.in(rooms.session(sidOf(session.token))).fetchSockets())[0]!.rooms].filter((r) => r.includes(":queue:"));
    expect(await roomsOf()).toEqual([rooms.queue(d.company.id, q1.id)]);
    const res = await t.app.inject({
      method: "PUT",
      url: `/api/users/${d.user.id}`,
      headers: d.adminSession.headers,
      payload: { queueIds: [q2.id] },
    });
    expect(res.statusCode).toBe(200);
    await vi.waitFor(async () => expect(await roomsOf()).toEqual([rooms.queue(d.company.id, q2.id)]), { timeout: 1000, interval: 20 });
    expect(socket.connected).toBe(true);
    socket.close();
  });

  it("another login sends `auth` to the old session and then closes it", async () => {
    const d = await desk(t);
    const socket = await connectSocket(t.app, d.userSession.token);
    const notice = nextEvent<{ action: string }>(socket, "auth");
    await expectCutOff(t, d, socket, sidOf(d.userSession.token), () => login(t.app, d.user.email, undefined, "10.0.0.2"));
    expect(await notice).toMatchObject({ action: "update" });
  });
});

describe("sockets closed on expiry", () => {
  it("closes the socket when its access token expires", async () => {
    const d = await desk(t);
    const sid = sidOf(d.userSession.token);
    // The same claims the server signs, expiring in two to three seconds (whole seconds: never already past).
    const token = await new SignJWT({ id: d.user.id, companyId: d.company.id, profile: "user", super: false, sid })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuer("balcao")
      .setAudience("balcao-api")
      .setSubject(String(d.user.id))
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 3)
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    const socket = await connectSocket(t.app, token);
    expect(await serverDisconnect(socket, 4500)).toBeGreaterThan(0);
    // And it cannot come back with the same token.
    await expect(connectSocket(t.app, token)).rejects.toThrow("ERR_TOKEN_EXPIRED");
  });

  it("closes the socket when its session expires, even with a token still valid", async () => {
    const d = await desk(t);
    const session = await extraSession(t, { id: d.user.id, companyId: d.company.id, profile: "user" }, new Date(Date.now() + 1500));
    const socket = await connectSocket(t.app, session.token);
    const elapsed = await serverDisconnect(socket, 3000);
    expect(elapsed).toBeGreaterThan(500);
    await expect(connectSocket(t.app, session.token)).rejects.toThrow("ERR_SESSION_EXPIRED");
  });

  it("refuses a token without exp, over HTTP and at the handshake", async () => {
    const d = await desk(t);
    const token = await new SignJWT({ id: d.user.id, companyId: d.company.id, profile: "user", super: false, sid: sidOf(d.userSession.token) })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuer("balcao")
      .setAudience("balcao-api")
      .setSubject(String(d.user.id))
      .setIssuedAt()
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    const res = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(401);
    await expect(connectSocket(t.app, token)).rejects.toThrow("ERR_SESSION_EXPIRED");
  });
});

describe("periodic re-check", () => {
  it("closes sockets whose session was revoked with no event (another tool, another node that died)", async () => {
    const d = await desk(swept);
    const socket = await connectSocket(swept.app, d.userSession.token);
    const sid = sidOf(d.userSession.token);
    const closed = serverDisconnect(socket, 1000);
    await swept.ctx.database.db.update(refreshSessions).set({ revokedAt: new Date() }).where(eq(refreshSessions.id, sid));
    await closed;
  });

  it("closes the company's sockets once it is blocked or its subscription lapses", async () => {
    const d = await desk(swept);
    const user = await connectSocket(swept.app, d.userSession.token);
    const admin = await connectSocket(swept.app, d.adminSession.token);
    const closed = Promise.all([serverDisconnect(user, 1000), serverDisconnect(admin, 1000)]);
    await swept.ctx.database.db.update(companies).set({ status: false }).where(eq(companies.id, d.company.id));
    await closed;

    const e = await desk(swept);
    const late = await connectSocket(swept.app, e.userSession.token);
    const lapsed = serverDisconnect(late, 1000);
    await swept.ctx.database.db.update(companies).set({ dueDate: "2000-01-01" }).where(eq(companies.id, e.company.id));
    await lapsed;
  });

  it("re-checks every socket of the process with one query per sweep", async () => {
    const desks = await Promise.all([desk(swept), desk(swept), desk(swept)]);
    const sockets = await Promise.all(
      desks.flatMap((d) => [connectSocket(swept.app, d.userSession.token), connectSocket(swept.app, d.adminSession.token)]),
    );
    const load = vi.spyOn(SocketRevocation.prototype as unknown as { loadSessions: (sids: string[]) => unknown }, "loadSessions");
    const sweepOnce = vi.spyOn(SocketRevocation.prototype, "sweep");
    await vi.waitFor(() => expect(sweepOnce.mock.calls.length).toBeGreaterThanOrEqual(2), { timeout: 2000, interval: 20 });
    const sweeps = sweepOnce.mock.calls.length;
    expect(load.mock.calls.length).toBeLessThanOrEqual(sweeps);
    const biggest = Math.max(...load.mock.calls.map(([sids]) => sids.length));
    expect(biggest).toBeGreaterThanOrEqual(sockets.length);
    load.mockRestore();
    sweepOnce.mockRestore();
    expect(sockets.every((s) => s.connected)).toBe(true);
    for (const s of sockets) s.close();
  });

  it("keeps a healthy socket connected across sweeps", async () => {
    const d = await desk(swept);
    const socket = await connectSocket(swept.app, d.userSession.token);
    await new Promise((r) => setTimeout(r, 700));
    expect(socket.connected).toBe(true);
    socket.close();
  });
});
