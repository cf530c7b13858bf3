import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser, login, type Session } from "../factories";
import { createTestApp, type TestApp } from "../testApp";
import { ROUTE_ACCESS, type Access } from "../../http/access";
import { prng, routeTable, shaped, type RouteInfo } from "./routes";
import { buildSuper, buildWorld, nextIp, type Tenant } from "./world";

/**
 * The permission matrix (issue 11): every route of the table, called by anonymous, attendant, supervisor,
 * admin and platform super user, answers according to its access level (http/access.ts). A route
 * missing from the declaration fails the test, so a new route is classified the day it is added.
 *
 * Path ids name records that do not exist: the matrix is about who may call a route at all, and no call
 * can change or delete the fixtures. A caller the level admits must never get 401/403; a caller it refuses
 * gets 401 (anonymous) or 403 (signed in) whatever it sent, since the level is checked before validation.
 * A public route answers everyone alike.
 * PERMISSIONS_PRINT=1 prints the observed matrix.
 */

type Role = "anonymous" | "user" | "supervisor" | "admin" | "super";
const ROLES: Role[] = ["anonymous", "user", "supervisor", "admin", "super"];
const RANK: Record<Access, number> = { public: 0, member: 1, supervisor: 2, admin: 3, super: 4 };
const ROLE_RANK: Record<Role, number> = { anonymous: 0, user: 1, supervisor: 2, admin: 3, super: 4 };
const MISSING_ID = "2000000000";

let t: TestApp;
let world: Tenant;
const sessions = {} as Record<Exclude<Role, "anonymous">, Session & { email: string }>;
let routes: RouteInfo[];

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0", LOGIN_RATE_LIMIT: "100000", SIGNUP_RATE_LIMIT: "100000" });
  world = await buildWorld(t);
  const supervisorRow = await buildUser(t.ctx, world.companyId, { profile: "supervisor" });
  sessions.user = world.user;
  sessions.supervisor = { ...(await login(t.app, supervisorRow.email, undefined, nextIp())), email: supervisorRow.email };
  sessions.admin = world.admin;
  sessions.super = await buildSuper(t);
  routes = routeTable(t.app);
});
afterAll(() => t.close());

const keyOf = (route: RouteInfo) => `${route.method} ${route.path}`;

function pathValue(name: string): string {
  if (name === "uuid" || name === "mediaId" || name === "importId") return randomUUID();
  if (name === "key") return "userRating";
  if (name === "number") return "5511987650000";
  if (name === "messageId") return "MISSING";
  return MISSING_ID;
}

/** Calls as the role; a call that ended the role's own session (logout) is repeated after signing in again. */
async function callAs(role: Role, route: RouteInfo, url: string, body: unknown) {
  const withBody = route.method === "POST" || route.method === "PUT" || route.method === "PATCH";
  const send = () =>
    t.app.inject({
      method: route.method,
      url,
      headers: { ...(role === "anonymous" ? {} : sessions[role].headers), ...(withBody ? { "content-type": "application/json" } : {}) },
      remoteAddress: nextIp(),
      ...(withBody ? { payload: JSON.stringify(body ?? {}) } : {}),
    });
  const res = await send();
  if (role === "anonymous" || res.statusCode !== 401) return res;
  const session = sessions[role];
  sessions[role] = { ...(await login(t.app, session.email, undefined, nextIp())), email: session.email };
  return send();
}

describe("permission matrix of the route table", () => {
  it("every route has a declared access level, and every declared route exists", () => {
    const served = new Set(routes.map(keyOf));
    expect(routes.filter((route) => !(keyOf(route) in ROUTE_ACCESS)).map(keyOf)).toEqual([]);
    expect(Object.keys(ROUTE_ACCESS).filter((key) => !served.has(key))).toEqual([]);
  });

  it("each role is admitted or refused exactly as its route's level says", async () => {
    const findings: string[] = [];
    const observed: string[] = [];
    // Deletions last, logout very last: nothing they do may change what an earlier call sees.
    const ordered = [...routes].sort(
      (a, b) =>
        Number(a.path.includes("logout")) - Number(b.path.includes("logout")) || Number(a.method === "DELETE") - Number(b.method === "DELETE"),
    );
    for (const route of ordered) {
      const access = ROUTE_ACCESS[keyOf(route)] ?? (process.env.PERMISSIONS_PRINT ? "member" : undefined);
      if (!access) continue;
      const rng = prng(20_261_124);
      let url = `/api${route.path}`;
      for (const name of route.pathParams) url = url.replace(`{${name}}`, encodeURIComponent(pathValue(name)));
      const required = Object.entries(route.query).map(([name, schema]) => `${name}=${encodeURIComponent(String(shaped(schema, rng)))}`);
      if (required.length) url += `?${required.join("&")}`;
      const body = shaped(route.body, rng);
      const statuses: Partial<Record<Role, number>> = {};
      // The most privileged first: a public route's answer to it is what the others must match.
      for (const role of [...ROLES].reverse()) {
        const res = await callAs(role, route, url, body);
        statuses[role] = res.statusCode;
        const admitted = ROLE_RANK[role] >= RANK[access];
        const label = `${role}: ${route.method} ${url} (${access}) → ${res.statusCode} ${res.body.slice(0, 120)}`;
        if (res.statusCode >= 500) findings.push(`5xx ${label}`);
        // A public route checks its own credential (password, refresh cookie, connection token, link key): a
        // session changes nothing, so every caller gets the anonymous caller's answer.
        else if (access === "public") {
          if (role === "anonymous" && res.statusCode !== statuses.super) findings.push(`session-dependent ${label} (super got ${statuses.super})`);
        } else if (admitted && (res.statusCode === 401 || res.statusCode === 403)) findings.push(`refused ${label}`);
        else if (!admitted) {
          const expected = role === "anonymous" ? 401 : 403;
          if (res.statusCode !== expected) findings.push(`admitted ${label}`);
        }
      }
      observed.push(`${keyOf(route).padEnd(70)} ${access.padEnd(10)} ${ROLES.map((role) => statuses[role]).join(" ")}`);
    }
    if (process.env.PERMISSIONS_PRINT) console.log(observed.join("\n"));
    expect(findings).toEqual([]);
  }, 180_000);
});
