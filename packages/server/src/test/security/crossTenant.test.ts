import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectSocket } from "../factories";
import { createTestApp, type TestApp } from "../testApp";
import { routeTable, type RouteInfo } from "./routes";
import { buildWorld, type Tenant } from "./world";

/**
 * Cross-tenant probe over the whole route table (issue 11): company B's admin and attendant call every
 * route with company A's ids in the path and query and A's marker as the search. No answer may carry A's
 * marker, none may be a 5xx, and no change through A's ids may succeed. A socket canary: while A's customer
 * writes and A's admin edits records (all carrying A's marker), B's sockets hear none of it.
 */

let t: TestApp;
let a: Tenant;
let b: Tenant;
let routes: RouteInfo[];
const sockets: Socket[] = [];
beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0" });
  [a, b] = [await buildWorld(t), await buildWorld(t)];
  routes = routeTable(t.app);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t.close();
});

/** A's id for a path parameter, by the resource the path names; undefined when the path names none of A's. */
function idFor(route: RouteInfo, param: string, tenant: Tenant): string | number | undefined {
  const p = route.path;
  const ids = tenant.ids;
  if (param === "uuid") return ids.ticketUuid;
  if (param === "ticketId") return ids.ticket;
  if (param === "tagId") return ids.tag;
  if (param === "connectionId") return ids.connection;
  if (param === "key") return "userRating";
  if (param === "number") return "5511987650000";
  if (param !== "id") return undefined;
  const table: [RegExp, number | string | null][] = [
    [/^\/contacts\//, ids.contact],
    [/^\/tickets\//, ids.ticket],
    [/^\/tags\//, ids.tag],
    [/^\/queue\//, ids.queue],
    [/^\/quick-messages\//, ids.quickMessage],
    [/^\/users\//, ids.user],
    [/^\/whatsapp(session)?\//, ids.connection],
    [/^\/messages\/\{id\}/, ids.message],
    [/^\/ticket-notes\//, ids.note],
    [/^\/companies\//, tenant.companyId],
    [/^\/chats\//, ids.chat],
  ];
  return table.find(([pattern]) => pattern.test(p))?.[1] ?? undefined;
}

/** Query values pointing at A: its company, ticket, contact, queue and user, and its marker as the search. */
function queryFor(route: RouteInfo, tenant: Tenant): string {
  const values: Record<string, string | number> = {
    companyId: tenant.companyId,
    ticketId: tenant.ids.ticket,
    contactId: tenant.ids.contact,
    queueId: tenant.ids.queue,
    userId: tenant.ids.user,
    ticket: tenant.ids.ticket,
    searchParam: tenant.marker,
    showAll: "true",
  };
  return Object.keys(route.query)
    .filter((name) => name in values)
    .map((name) => `${name}=${encodeURIComponent(String(values[name]))}`)
    .join("&");
}

describe("cross-tenant probe, generated from the route table", () => {
  it("covers every route", () => {
    expect(routes.length).toBeGreaterThan(50);
  });

  it("company B never sees company A's data nor changes it through A's ids", async () => {
    const findings: string[] = [];
    let probed = 0;
    for (const route of routes) {
      // Logging out (or rotating the session) would sign B out for every route after it: not a probe of A's data.
      if (route.path.startsWith("/auth/")) continue;
      const params = route.pathParams.map((name) => [name, idFor(route, name, a)] as const);
      if (params.some(([, value]) => value === undefined)) continue;
      probed++;
      let url = `/api${route.path}`;
      for (const [name, value] of params) url = url.replace(`{${name}}`, encodeURIComponent(String(value)));
      const query = queryFor(route, a);
      if (query) url += `?${query}`;
      for (const [who, session] of [
        ["B admin", b.admin],
        ["B user", b.user],
      ] as const) {
        const res = await t.app.inject({
          method: route.method,
          url,
          headers: session.headers,
          ...(route.method !== "GET" && route.method !== "DELETE" ? { payload: {} } : {}),
        });
        const label = `${who}: ${route.method} ${url} → ${res.statusCode}`;
        // The send API takes a connection's token and the Cloud API webhook Meta's signature, not a user's
        // session: their 401 is the expected refusal.
        if (res.statusCode === 401 && route.path !== "/messages/send" && !route.path.startsWith("/cloudapi/"))
          findings.push(`${label} (B's session ended: the probe would be vacuous)`);
        if (res.statusCode >= 500) findings.push(`${label} (5xx)`);
        if (res.body.includes(a.marker)) findings.push(`${label} leaks A's marker`);
        // A change through A's ids (a path that names one of A's records) must not succeed.
        if (route.method !== "GET" && route.pathParams.length > 0 && res.statusCode < 300) findings.push(`${label} changed A's record`);
      }
    }
    expect(findings).toEqual([]);
    // Routes of platform records (plans, helps, announcements, invoices…) have no company A id to try.
    expect(probed).toBeGreaterThan(routes.length * 0.6);
  });

  it("A's own admin sees its marker where B did not (the probe is not vacuous)", async () => {
    const res = await t.app.inject({ method: "GET", url: `/api/contacts/${a.ids.contact}`, headers: a.admin.headers });
    expect(res.body).toContain(a.marker);
    const list = await t.app.inject({ method: "GET", url: `/api/tickets?searchParam=${a.marker}&showAll=true`, headers: a.admin.headers });
    expect(list.body).toContain(a.marker);
  });

  it("socket canary: B's sockets receive no event of A's, while A's own socket does", async () => {
    const heard = async (token: string) => {
      const socket = await connectSocket(t.app, token);
      sockets.push(socket);
      const events: string[] = [];
      socket.onAny((event: string, ...args: unknown[]) => events.push(`${event} ${JSON.stringify(args)}`));
      return events;
    };
    const [witness, bAdmin, bUser] = await Promise.all([heard(a.admin.token), heard(b.admin.token), heard(b.user.token)]);
    const call = async (session: Tenant["admin"], method: "POST" | "PUT", url: string, payload: object) => {
      const res = await t.app.inject({ method, url: `/api${url}`, headers: session.headers, payload });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    };
    // A's customer writes, A's admin edits a contact, creates a tag and writes in the internal chat.
    await call(a.admin, "POST", `/simulator/${a.ids.connection}/phones/5511987659876/messages`, { type: "text", body: `Canário ${a.marker}` });
    await call(a.admin, "PUT", `/contacts/${a.ids.contact}`, { name: `Cliente ${a.marker} editado` });
    await call(a.admin, "POST", "/tags", { name: `Nova ${a.marker}`.slice(0, 50), color: "#1565C0" });
    await call(a.admin, "POST", `/chats/${a.ids.chat}/messages`, { message: `Outro recado ${a.marker}` });
    await expect.poll(() => witness.filter((e) => e.includes(a.marker)).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
    // Then B's own change: once B's sockets hear it, anything of A's sent before it would have arrived too.
    await call(b.admin, "POST", "/tags", { name: `Nova ${b.marker}`.slice(0, 50), color: "#1565C0" });
    await expect.poll(() => bAdmin.some((e) => e.includes(b.marker)) && bUser.some((e) => e.includes(b.marker)), { timeout: 10_000 }).toBe(true);
    expect([...bAdmin, ...bUser].filter((e) => e.includes(a.marker))).toEqual([]);
  });
});
