import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { io } from "socket.io-client";
import { ConfigError, loadConfig } from "../config/env";
import { buildContact, buildTenant, connectSocket, login, nextEvent, TEST_PASSWORD } from "../test/factories";
import { backendUrl, connectQuerySocket, injectOn, MOUNTS } from "../test/backend";
import { createTestApp, type TestApp } from "../test/testApp";

const WEB_ORIGIN = "https://app.example.com";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ BACKEND_PORT: "0", BACKEND_CORS_ORIGINS: `${WEB_ORIGIN}, https://other.example.com`, LOGIN_RATE_LIMIT: "3" });
});
afterAll(() => t.close());

const cookieOf = (res: { cookies: { name: string; value: string; path?: string }[] }) => res.cookies.find((c) => c.name === "jrt");

describe("settings", () => {
  it("the backend listener is off by default and validated when on", async () => {
    expect(loadConfig({ NODE_ENV: "test", JWT_SECRET: "x".repeat(40), JWT_REFRESH_SECRET: "y".repeat(40) }).backend).toBeUndefined();
    const on = loadConfig({
      NODE_ENV: "test",
      JWT_SECRET: "x".repeat(40),
      JWT_REFRESH_SECRET: "y".repeat(40),
      BACKEND_PORT: "8081",
      PUBLIC_URL: "https://app.example.com/",
    });
    expect(on.backend).toEqual({ port: 8081, host: "0.0.0.0", corsOrigins: ["https://app.example.com"] });
    const base = { NODE_ENV: "test", JWT_SECRET: "x".repeat(40), JWT_REFRESH_SECRET: "y".repeat(40) };
    expect(() => loadConfig({ ...base, BACKEND_PORT: "8080", PORT: "8080" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, BACKEND_PORT: "8081", BACKEND_CORS_ORIGINS: "*" })).toThrow(/BACKEND_CORS_ORIGINS/);
    expect(loadConfig({ ...base, BACKEND_PORT: "" }).backend).toBeUndefined();

    const off = await createTestApp();
    try {
      expect(off.app.backendServer).toBeNull();
      expect(() => injectOn(off.app, "backend", { url: "/health" })).toThrow(/off/);
      // Without the listener, root paths are the web app's (here unbuilt), never the API.
      expect((await off.app.inject({ url: "/health" })).statusCode).toBe(503);
    } finally {
      await off.close();
    }
  });
});

describe("one route table on two mounts", () => {
  it("answers the spec's root paths on the backend listener and /api on the main one, with the same bodies", async () => {
    const tenant = await buildTenant(t.app);
    const contact = await buildContact(t.ctx, tenant.company.id);
    const bodies = [];
    for (const mount of MOUNTS) {
      const prefix = mount === "api" ? "/api" : "";
      const res = await injectOn(t.app, mount, { url: `${prefix}/contacts/${contact.id}`, headers: tenant.adminSession.headers });
      expect(res.statusCode).toBe(200);
      bodies.push(res.json());
    }
    expect(bodies[0]).toEqual(bodies[1]);
    // The backend listener does not serve the web app, and unknown paths answer the API's 404.
    const unknown = await injectOn(t.app, "backend", { url: "/login" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: "ERR_NOT_FOUND" });
    // Paths that already carry /api (the Send API, media URLs in messages) pass unchanged.
    expect((await injectOn(t.app, "backend", { url: "/api/health" })).statusCode).toBe(200);
    expect((await injectOn(t.app, "backend", { url: "/health" })).statusCode).toBe(200);
  });

  it("the same validation and permissions on both mounts", async () => {
    const tenant = await buildTenant(t.app);
    for (const mount of MOUNTS) {
      const prefix = mount === "api" ? "/api" : "";
      const invalid = await injectOn(t.app, mount, {
        method: "POST",
        url: `${prefix}/contacts`,
        headers: tenant.adminSession.headers,
        payload: { name: "A", number: "5511999990000" },
      });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().error).toBe("Too Short!");
      const forbidden = await injectOn(t.app, mount, {
        method: "POST",
        url: `${prefix}/queue`,
        headers: tenant.userSession.headers,
        payload: { name: "Vendas", color: "#aa00aa" },
      });
      expect(forbidden.statusCode).toBe(403);
      expect((await injectOn(t.app, mount, { url: `${prefix}/tickets` })).statusCode).toBe(401);
    }
  });

  it("one login rate limit for both mounts (a client cannot double its budget by switching)", async () => {
    const tenant = await buildTenant(t.app);
    const attempt = (mount: "api" | "backend") =>
      injectOn(t.app, mount, {
        method: "POST",
        url: mount === "api" ? "/api/auth/login" : "/auth/login",
        payload: { email: tenant.user.email, password: "wrong-password" },
        remoteAddress: "10.9.9.9",
      });
    expect((await attempt("api")).statusCode).toBe(401);
    expect((await attempt("backend")).statusCode).toBe(401);
    expect((await attempt("api")).statusCode).toBe(401);
    const blocked = await attempt("backend");
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers["retry-after"]).toBeDefined();
  });

  it("a trailing slash means the same route, on either mount", async () => {
    const tenant = await buildTenant(t.app);
    await buildContact(t.ctx, tenant.company.id, { name: "Barra Final" });
    for (const mount of MOUNTS) {
      const prefix = mount === "api" ? "/api" : "";
      for (const url of [
        "/contacts/?searchParam=&pageNumber=1",
        "/contacts?searchParam=barra",
        "/tags/",
        "/tags",
        "/users",
        "/users/",
        "/queue/",
        "/settings/",
        "/whatsapp",
      ]) {
        const res = await injectOn(t.app, mount, { url: prefix + url, headers: tenant.adminSession.headers });
        expect(res.statusCode, `${mount} ${url}`).toBe(200);
      }
      const contacts = await injectOn(t.app, mount, {
        url: `${prefix}/contacts/?searchParam=barra&pageNumber=1`,
        headers: tenant.adminSession.headers,
      });
      expect(contacts.json().contacts.map((c: { name: string }) => c.name)).toEqual(["Barra Final"]);
    }
  });
});

describe("refresh cookie", () => {
  it("is scoped to the auth routes of the mount that set it, and refreshes there", async () => {
    const tenant = await buildTenant(t.app);
    for (const [mount, path] of [
      ["api", "/api/auth"],
      ["backend", "/auth"],
    ] as const) {
      const login = await injectOn(t.app, mount, {
        method: "POST",
        url: `${path}/login`,
        payload: { email: tenant.user.email, password: TEST_PASSWORD },
      });
      expect(login.statusCode).toBe(200);
      const cookie = cookieOf(login);
      expect(cookie).toMatchObject({ path, httpOnly: true, sameSite: "Strict" });
      const refreshed = await injectOn(t.app, mount, { method: "POST", url: `${path}/refresh_token`, cookies: { jrt: cookie!.value } });
      expect(refreshed.statusCode).toBe(200);
      expect(Object.keys(refreshed.json())).toEqual(expect.arrayContaining(["token", "user"]));
      expect(cookieOf(refreshed)).toMatchObject({ path });
      const logout = await injectOn(t.app, mount, { method: "DELETE", url: `${path}/logout`, cookies: { jrt: cookieOf(refreshed)!.value } });
      expect(logout.statusCode).toBe(204);
      expect(cookieOf(logout)).toMatchObject({ path, value: "" });
    }
  });
});

describe("CORS on the backend listener", () => {
  it("answers preflights and marks every answer (errors included) for the configured origins only", async () => {
    const preflight = await injectOn(t.app, "backend", {
      method: "OPTIONS",
      url: "/tickets?pageNumber=1",
      headers: { origin: WEB_ORIGIN, "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({
      "access-control-allow-origin": WEB_ORIGIN,
      "access-control-allow-credentials": "true",
      "access-control-allow-headers": "authorization",
    });
    expect(String(preflight.headers["access-control-allow-methods"])).toContain("PUT");

    const unauthorized = await injectOn(t.app, "backend", { url: "/tickets", headers: { origin: WEB_ORIGIN } });
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.headers["access-control-allow-origin"]).toBe(WEB_ORIGIN);
    expect(unauthorized.headers.vary).toContain("Origin");

    const foreign = await injectOn(t.app, "backend", { url: "/tickets", headers: { origin: "https://evil.example.net" } });
    expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
    const foreignPreflight = await injectOn(t.app, "backend", {
      method: "OPTIONS",
      url: "/tickets",
      headers: { origin: "https://evil.example.net", "access-control-request-method": "GET" },
    });
    expect(foreignPreflight.headers["access-control-allow-origin"]).toBeUndefined();
    // The main listener is same-origin: no CORS there, whatever the origin.
    const main = await t.app.inject({ url: "/api/tickets", headers: { origin: WEB_ORIGIN } });
    expect(main.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("the real listener", () => {
  it("serves REST and Socket.IO; the query token works there, shares rooms with the main listener, and not on the main one", async () => {
    const tenant = await buildTenant(t.app);
    const url = await backendUrl(t.app);

    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    const tickets = await fetch(`${url}/tickets/?pageNumber=1&queueIds=[]&searchParam=`, { headers: tenant.adminSession.headers });
    expect(tickets.status).toBe(200);
    expect(Object.keys((await tickets.json()) as object)).toEqual(expect.arrayContaining(["tickets", "hasMore"]));

    // Websocket (the spec's client) and long-polling both carry the query token.
    const websocket = await connectQuerySocket(url, tenant.adminSession.token);
    const polling = await connectQuerySocket(url, tenant.userSession.token, ["polling"]);
    // A socket on the main listener is in the same rooms: one Socket.IO server behind both listeners.
    const mainSocket = await connectSocket(t.app, tenant.adminSession.token);
    const onBackend = nextEvent<{ action: string; tag: { name: string } }>(websocket, "tag");
    const onPolling = nextEvent<{ action: string; tag: { name: string } }>(polling, "tag");
    const onMain = nextEvent<{ action: string; tag: { name: string } }>(mainSocket, "tag");
    const created = await fetch(`${url}/tags`, {
      method: "POST",
      headers: { ...tenant.adminSession.headers, "content-type": "application/json" },
      body: JSON.stringify({ name: "Via backend", color: "", kanban: 0 }),
    });
    expect(created.status).toBe(201);
    for (const event of [await onBackend, await onPolling, await onMain])
      expect(event).toMatchObject({ action: "create", tag: { name: "Via backend" } });

    // The main listener keeps refusing tokens in the URL.
    const mainPort = (t.app.server.address() as { port: number }).port;
    await expect(connectQuerySocket(`http://127.0.0.1:${mainPort}`, tenant.adminSession.token)).rejects.toThrow("ERR_SESSION_EXPIRED");
    websocket.close();
    polling.close();
    mainSocket.close();
  });

  it("the query token gets the same checks: bad, missing and revoked tokens are refused; the auth payload still works", async () => {
    const tenant = await buildTenant(t.app);
    const url = await backendUrl(t.app);
    for (const token of ["garbage", ""]) await expect(connectQuerySocket(url, token)).rejects.toThrow("ERR_SESSION_EXPIRED");
    const session = await login(t.app, tenant.user.email);
    const viaAuth = io(url, { path: "/socket.io", auth: { token: session.token }, transports: ["websocket"], reconnection: false });
    await nextEvent(viaAuth, "ready");
    viaAuth.close();
    await t.app.inject({ method: "DELETE", url: "/api/auth/logout", headers: session.headers });
    await expect(connectQuerySocket(url, session.token)).rejects.toThrow("ERR_SESSION_EXPIRED");
  });

  it("a browser on a configured web origin may open the socket; a foreign origin may not", async () => {
    const tenant = await buildTenant(t.app);
    const url = await backendUrl(t.app);
    const ok = io(url, {
      path: "/socket.io",
      query: { token: tenant.adminSession.token },
      transports: ["websocket"],
      reconnection: false,
      extraHeaders: { origin: WEB_ORIGIN },
    });
    await nextEvent(ok, "ready");
    ok.close();
    const preflight = await fetch(`${url}/socket.io/?EIO=4&transport=polling`, { headers: { origin: WEB_ORIGIN } });
    expect(preflight.headers.get("access-control-allow-origin")).toBe(WEB_ORIGIN);
    const foreign = io(url, {
      path: "/socket.io",
      query: { token: tenant.adminSession.token },
      transports: ["polling"],
      reconnection: false,
      extraHeaders: { origin: "https://evil.example.net" },
    });
    const err = await nextEvent<Error>(foreign, "connect_error");
    expect(err).toBeInstanceOf(Error);
    foreign.close();
  });
});
