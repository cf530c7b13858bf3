import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login, type Session } from "../factories";
import { createTestApp, type TestApp } from "../testApp";
import { HOSTILE, mutated, oneHostileField, prng, queryText, routeTable, shaped, type Rng, type RouteInfo } from "./routes";
import { buildSuper, buildWorld, nextIp, type Tenant } from "./world";

/**
 * Every route of the table, as anonymous, attendant, admin and super user, with fuzzed path ids, queries
 * and bodies from a fixed seed (FUZZ_SEED, FUZZ_CASES to explore more): never a 5xx, never a polluted
 * prototype, and no 2xx for an anonymous caller outside the public routes (issue 11).
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const CASES = Number(process.env.FUZZ_CASES ?? 3);

/** Routes an anonymous caller may legitimately get a 2xx from. */
const PUBLIC = new Set([
  "GET /health",
  "POST /auth/login",
  "DELETE /auth/logout",
  "POST /companies/cadastro",
  "GET /plans/list",
  "POST /pix-sandbox/pay",
]);

type Profile = "anonymous" | "user" | "admin" | "super";
const PROFILES: Profile[] = ["anonymous", "user", "admin", "super"];

let t: TestApp;
let world: Tenant;
let other: Tenant;
let superSession: Session & { email: string };
const routes: RouteInfo[] = [];

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0", LOGIN_RATE_LIMIT: "100000", SIGNUP_RATE_LIMIT: "100000" });
  world = await buildWorld(t);
  other = await buildWorld(t);
  superSession = await buildSuper(t);
  routes.push(...routeTable(t.app));
});
afterAll(() => t.close());

const stillValid = async (session: Session) =>
  (await t.app.inject({ method: "GET", url: "/api/auth/me", headers: session.headers })).statusCode === 200;

/**
 * A working session for the profile. A fuzzed call may have logged it out, changed its password, deleted
 * its user or its whole company: then it signs in again, or the world is rebuilt.
 */
async function sessionOf(profile: Profile): Promise<Session | null> {
  if (profile === "anonymous") return null;
  if (profile === "super") {
    if (!(await stillValid(superSession))) superSession = await buildSuper(t);
    return superSession;
  }
  const current = world[profile];
  if (await stillValid(current)) return current;
  const again = await t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email: current.email, password: "secret-123" },
    remoteAddress: nextIp(),
  });
  if (again.statusCode === 200) {
    world[profile] = { ...(await login(t.app, current.email, undefined, nextIp())), email: current.email };
    return world[profile];
  }
  world = await buildWorld(t);
  return world[profile];
}

/** Path values: real ids of the caller's company and of another, edge numbers, junk. */
function pathValue(name: string, rng: Rng): string {
  const real = [
    world.ids.ticket,
    world.ids.contact,
    world.ids.tag,
    world.ids.queue,
    world.ids.quickMessage,
    world.ids.user,
    world.ids.connection,
    world.ids.message,
    world.ids.note,
    world.companyId,
  ];
  const foreign = [other.ids.ticket, other.ids.contact, other.companyId];
  const junk = ["0", "-1", "0x5", "1e3", "abc", "2147483648", "99999999999999999999", "%00", "%2e%2e%2f", " 1", "1.5"];
  const pools: Record<string, readonly (string | number)[]> = {
    uuid: [world.ids.ticketUuid, randomUUID(), "not-a-uuid", "00000000-0000-0000-0000-000000000000"],
    mediaId: [randomUUID(), "x", "../../secrets.json"],
    key: ["userRating", "userCreation", "scheduleType", "nope", "__proto__", "constructor", "%00"],
    number: ["5511987650000", "5511987650000@g.us", "abc", "0", "+55 11 98765-0000"],
    messageId: [randomUUID(), "SIM-1", "%00"],
  };
  const value = rng.pick(pools[name] ?? (rng.chance(0.6) ? [...real, ...foreign] : junk));
  return typeof value === "number" ? String(value) : value.startsWith("%") ? value : encodeURIComponent(value);
}

/** URL-encodes, and sends a lone surrogate as the invalid UTF-8 bytes it becomes (a hostile input itself). */
function enc(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return "%ED%A0%80";
  }
}

function queryString(route: RouteInfo, rng: Rng, hostile: boolean): string {
  const parts: string[] = [];
  for (const [name, schema] of Object.entries(route.query)) {
    if (!rng.chance(0.6)) continue;
    const value = hostile && rng.chance(0.5) ? rng.pick(HOSTILE) : shaped(schema, rng);
    parts.push(`${enc(name)}=${enc(queryText(value))}`);
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

function seedOf(route: RouteInfo): number {
  let h = SEED;
  for (const ch of `${route.method} ${route.path}`) h = Math.imul(h ^ ch.charCodeAt(0), 16_777_619) >>> 0;
  return h;
}

describe("generated fuzz of the route table", () => {
  it("reads the route table", () => {
    expect(routes.length).toBeGreaterThan(50);
  });

  it(
    "no route answers 5xx, pollutes a prototype, or serves an anonymous caller outside the public ones",
    async () => {
      const findings: string[] = [];
      let requests = 0;
      for (const route of routes) {
        const rng = prng(seedOf(route));
        for (const profile of PROFILES) {
          for (let i = 0; i < CASES; i++) {
            const session = await sessionOf(profile);
            let url = `/api${route.path}`;
            for (const name of route.pathParams) url = url.replace(`{${name}}`, pathValue(name, rng));
            url += queryString(route, rng, i > 0);
            const withBody = route.method === "POST" || route.method === "PUT" || route.method === "PATCH";
            // Case 0 well shaped; then one hostile field in an otherwise valid body; then anything goes.
            const body = withBody
              ? i === 0
                ? shaped(route.body, rng)
                : i % 2 === 1
                  ? oneHostileField(route.body, rng)
                  : mutated(route.body, rng)
              : undefined;
            const res = await t.app.inject({
              method: route.method,
              url,
              headers: { ...(session?.headers ?? {}), ...(withBody ? { "content-type": "application/json" } : {}) },
              remoteAddress: nextIp(),
              ...(withBody ? { payload: JSON.stringify(body) ?? "null" } : {}),
            });
            requests++;
            const label = `${profile}: ${route.method} ${url} ${withBody ? JSON.stringify(body)?.slice(0, 200) : ""} → ${res.statusCode} ${res.body.slice(0, 200)}`;
            if (res.statusCode >= 500) findings.push(label);
            if (profile === "anonymous" && res.statusCode < 300 && !PUBLIC.has(`${route.method} ${route.path}`))
              findings.push(`anonymous 2xx: ${label}`);
            if (({} as Record<string, unknown>).polluted !== undefined) findings.push(`prototype polluted: ${label}`);
          }
        }
      }
      expect(findings).toEqual([]);
      expect(requests).toBe(routes.length * PROFILES.length * CASES);
      // About 10 ms a request here; room for a loaded CI machine.
    },
    120_000 + CASES * 60_000,
  );
});
