import { randomBytes } from "node:crypto";
import { io, type Socket } from "socket.io-client";
import { addDays, todayIn } from "@balcao/shared";
import type { App } from "../app";
import type { AppContext } from "../context";
import { companies, connections, contactIdentities, contacts, plans, queues, tags, users } from "../db/schema";
import { insertDefaultSettings } from "../modules/companies/service";

const unique = () => randomBytes(4).toString("hex");
export const TEST_PASSWORD = "secret-123";

export async function buildPlan(ctx: AppContext, overrides: Partial<typeof plans.$inferInsert> = {}) {
  const [row] = await ctx.database.db
    .insert(plans)
    .values({ name: `Plano ${unique()}`, users: 1000, connections: 5, queues: 10, value: 99.9, ...overrides })
    .returning();
  return row!;
}

export async function buildCompany(ctx: AppContext, overrides: Partial<typeof companies.$inferInsert> = {}) {
  const plan = overrides.planId ? undefined : await buildPlan(ctx);
  const [row] = await ctx.database.db
    .insert(companies)
    .values({
      name: `Empresa ${unique()}`,
      email: `empresa-${unique()}@test.dev`,
      planId: plan?.id,
      dueDate: addDays(todayIn(ctx.config.defaultTimeZone), 30),
      ...overrides,
    })
    .returning();
  await ctx.database.db.transaction((tx) => insertDefaultSettings(tx, row!.id));
  return row!;
}

export async function buildUser(ctx: AppContext, companyId: number, overrides: Partial<typeof users.$inferInsert> & { password?: string } = {}) {
  const { password = TEST_PASSWORD, ...rest } = overrides;
  const [row] = await ctx.database.db
    .insert(users)
    .values({
      companyId,
      name: `Usuário ${unique()}`,
      email: `user-${unique()}@test.dev`,
      passwordHash: await ctx.passwords.hash(password),
      profile: "user",
      ...rest,
    })
    .returning();
  return { ...row!, password };
}

export async function buildQueue(ctx: AppContext, companyId: number, overrides: Partial<typeof queues.$inferInsert> = {}) {
  const [row] = await ctx.database.db
    .insert(queues)
    .values({ companyId, name: `Fila ${unique()}`, color: `#${unique().slice(0, 6)}`, ...overrides })
    .returning();
  return row!;
}

let contactSeq = 0;
/** A contact with a Brazilian mobile number (unique per call) and its phone identity unless `withIdentity: false`. */
export async function buildContact(
  ctx: AppContext,
  companyId: number,
  overrides: Partial<typeof contacts.$inferInsert> & { withIdentity?: boolean } = {},
) {
  const { withIdentity = true, ...rest } = overrides;
  const suffix = String((Date.now() % 10_000_000) + ++contactSeq * 7919)
    .slice(-7)
    .padStart(7, "0");
  const [row] = await ctx.database.db
    .insert(contacts)
    .values({ companyId, name: `Contato ${unique()}`, number: `55119${8}${suffix}`, ...rest })
    .returning();
  if (withIdentity && row!.number && !row!.isGroup)
    await ctx.database.db.insert(contactIdentities).values({ companyId, contactId: row!.id, kind: "phone", value: row!.number, source: "test" });
  return row!;
}

export async function buildTag(ctx: AppContext, companyId: number, overrides: Partial<typeof tags.$inferInsert> = {}) {
  const [row] = await ctx.database.db
    .insert(tags)
    .values({ companyId, name: `Tag ${unique()}`, color: "#2E7D32", ...overrides })
    .returning();
  return row!;
}

export interface Session {
  token: string;
  cookie: string;
  userId: number;
  companyId: number;
  headers: { authorization: string };
}

/** Logs in through the real endpoint; returns the bearer token and the refresh cookie. */
export async function login(app: App, email: string, password = TEST_PASSWORD, ip = "10.0.0.1"): Promise<Session> {
  const res = await app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password }, remoteAddress: ip });
  if (res.statusCode !== 200) throw new Error(`login failed ${res.statusCode}: ${res.body}`);
  const body = res.json() as { token: string; user: { id: number; companyId: number } };
  const cookie = res.cookies.find((c) => c.name === "jrt");
  return {
    token: body.token,
    cookie: cookie ? `jrt=${cookie.value}` : "",
    userId: body.user.id,
    companyId: body.user.companyId,
    headers: { authorization: `Bearer ${body.token}` },
  };
}

/** A company with an admin and an attendant, both logged in. */
export async function buildTenant(app: App) {
  const company = await buildCompany(app.ctx);
  const admin = await buildUser(app.ctx, company.id, { profile: "admin" });
  const user = await buildUser(app.ctx, company.id, { profile: "user" });
  return { company, admin, user, adminSession: await login(app, admin.email), userSession: await login(app, user.email) };
}

/** A tenant with a connection marked connected (no greeting), and that connection as the inbound pipeline's source. */
export async function buildConnectedTenant(app: App, name: string) {
  const tenant = await buildTenant(app);
  const [connection] = await app.ctx.database.db
    .insert(connections)
    .values({ companyId: tenant.company.id, name, status: "CONNECTED", greetingMessage: "" })
    .returning();
  return { tenant, source: { companyId: tenant.company.id, connectionId: connection!.id } };
}

/** A real Socket.IO client against a listening app. */
export async function connectSocket(app: App, token: string): Promise<Socket> {
  if (!app.server.listening) await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const socket = io(`http://127.0.0.1:${port}`, { path: "/socket.io", auth: { token }, transports: ["websocket"], reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once("ready", () => resolve());
    socket.once("connect_error", (err) => reject(err));
  });
  return socket;
}

/** Resolves with the next `event` payload, or rejects after `ms`. */
export function nextEvent<T = unknown>(socket: Socket, event: string, ms = 3000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} event within ${ms} ms`)), ms);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

/** Resolves with the first `event` payload that satisfies `match` (events may interleave). */
export function nextEventWhere<T = unknown>(socket: Socket, event: string, match: (payload: T) => boolean, ms = 3000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener);
      reject(new Error(`no matching ${event} event within ${ms} ms`));
    }, ms);
    const listener = (payload: T) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(payload);
    };
    socket.on(event, listener);
  });
}

/** Collects every `event` payload a socket receives, to assert that nothing arrived. */
export function collectEvents<T = unknown>(socket: Socket, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (payload: T) => seen.push(payload));
  return seen;
}
