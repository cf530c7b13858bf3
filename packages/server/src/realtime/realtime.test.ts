import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { io } from "socket.io-client";
import { buildTenant, connectSocket, nextEvent } from "../test/factories";
import { createTestApp, type TestApp } from "../test/testApp";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function portOf(t: TestApp): number {
  const address = t.app.server.address();
  return typeof address === "object" && address ? address.port : 0;
}

describe("socket handshake", () => {
  it("refuses a missing or bad token and accepts a valid one", async () => {
    const tenant = await buildTenant(t.app);
    const ok = await connectSocket(t.app, tenant.userSession.token);
    expect(ok.connected).toBe(true);
    ok.close();
    for (const auth of [{}, { token: "garbage" }]) {
      const socket = io(`http://127.0.0.1:${portOf(t)}`, { path: "/socket.io", auth, transports: ["websocket"], reconnection: false });
      const err = await nextEvent<Error>(socket, "connect_error");
      expect(err.message).toBe("ERR_SESSION_EXPIRED");
      socket.close();
    }
  });

  it("a revoked session cannot open a socket", async () => {
    const tenant = await buildTenant(t.app);
    await t.app.inject({ method: "DELETE", url: "/api/auth/logout", headers: tenant.userSession.headers });
    await expect(connectSocket(t.app, tenant.userSession.token)).rejects.toThrow("ERR_SESSION_EXPIRED");
  });

  it("settings updates reach the company and mark changes; users cannot change settings", async () => {
    const tenant = await buildTenant(t.app);
    const socket = await connectSocket(t.app, tenant.userSession.token);
    const event = nextEvent(socket, "settings");
    const denied = await t.app.inject({
      method: "PUT",
      url: "/api/settings/userRating",
      headers: tenant.userSession.headers,
      payload: { value: "enabled" },
    });
    expect(denied.statusCode).toBe(403);
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/settings/userRating",
      headers: tenant.adminSession.headers,
      payload: { value: "enabled" },
    });
    expect(res.json()).toEqual({ key: "userRating", value: "enabled" });
    expect(await event).toEqual({ action: "update", setting: { key: "userRating", value: "enabled" } });
    const list = await t.app.inject({ method: "GET", url: "/api/settings", headers: tenant.userSession.headers });
    expect(list.json()).toContainEqual({ key: "userRating", value: "enabled" });
    const unknown = await t.app.inject({
      method: "PUT",
      url: "/api/settings/noSuchKey",
      headers: tenant.adminSession.headers,
      payload: { value: "x" },
    });
    expect(unknown.statusCode).toBe(404);
    socket.close();
  });

  it("marks the user online on connect and offline when the last socket leaves", async () => {
    const tenant = await buildTenant(t.app);
    const socket = await connectSocket(t.app, tenant.userSession.token);
    socket.emit("userStatus");
    await new Promise((r) => setTimeout(r, 150));
    const online = await t.app.inject({ method: "GET", url: `/api/users/${tenant.user.id}`, headers: tenant.adminSession.headers });
    expect(online.json().online).toBe(true);
    socket.close();
    await new Promise((r) => setTimeout(r, 300));
    const offline = await t.app.inject({ method: "GET", url: `/api/users/${tenant.user.id}`, headers: tenant.adminSession.headers });
    expect(offline.json().online).toBe(false);
  });
});
