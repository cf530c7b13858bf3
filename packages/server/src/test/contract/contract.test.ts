import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LightMyRequestResponse } from "fastify";
import { buildCompany, buildContact, buildPlan, buildQueue, buildTag, buildUser, login, TEST_PASSWORD, type Session } from "../factories";
import { injectOn, MOUNTS, mountPath, type Mount } from "../backend";
import { createTestApp, type TestApp } from "../testApp";
import { and, eq } from "drizzle-orm";
import { campaigns, invoices } from "../../db/schema";
import { SPEC7, type SpecCall } from "./spec7";
import { sampleXlsx } from "../../modules/contactLists/sample";

/**
 * Spec §7 contract: every call of the table, on both mounts, as the spec's client writes it (spec7.ts).
 * Each call gets fresh fixtures, so deletes and state changes never depend on the order of the rows.
 */

let t: TestApp;
let companyId: number;
let adminId: number;
let admin: Session;
let superSession: Session;
let liveConnection: { id: number; token: string };

beforeAll(async () => {
  // PIX_*: the sandbox Pix provider, so the checkout call can answer with Pix data.
  t = await createTestApp({ BACKEND_PORT: "0", SIMULATOR_ACK_DELAY_MS: "0", PIX_PROVIDER: "sandbox", PIX_KEY: "pix@balcao.test" });
  // The sandbox Pix provider is served by the app itself: it needs a listening address.
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const plan = await buildPlan(t.ctx, { users: 1000, connections: 1000, queues: 1000 });
  const company = await buildCompany(t.ctx, { planId: plan.id });
  companyId = company.id;
  const adminUser = await buildUser(t.ctx, company.id, { profile: "admin" });
  adminId = adminUser.id;
  admin = await login(t.app, adminUser.email);
  const platform = await buildCompany(t.ctx);
  superSession = await login(t.app, (await buildUser(t.ctx, platform.id, { profile: "admin", super: true })).email);
  // Sign-up (POST /companies/cadastro) is open when the platform company's userCreation setting says so.
  await api("PUT", "/settings/userCreation", { value: "enabled" }, superSession);
  // A live simulator connection: tickets, messages and media need WhatsApp to answer.
  const created = await api("POST", "/whatsapp", { name: "Conexão principal", isDefault: true });
  await api("POST", `/simulator/${created.id}/scan`, { code: created.qrcode });
  const shown = await api("GET", `/whatsapp/${created.id}`);
  expect(shown.status).toBe("CONNECTED");
  liveConnection = { id: created.id, token: shown.token };
});
afterAll(async () => {
  await t?.close();
  const pending = SPEC7.filter((row) => row.pending);
  const byOwner = new Map<string, number>();
  for (const row of pending) byOwner.set(row.pending!, (byOwner.get(row.pending!) ?? 0) + 1);
  console.log(
    `${SPEC7.length - pending.length} of ${SPEC7.length} spec §7 calls implemented` +
      (pending.length ? ` (pending: ${[...byOwner].map(([owner, n]) => `${owner} ${n}`).join(", ")})` : ""),
  );
});

/** Fixture set-up through the web app's mount, as the company admin unless told otherwise. */
async function api(
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  payload?: object,
  session: Session = admin,
  extra: { payload?: Buffer; headers?: Record<string, string> } = {},
) {
  const res = await t.app.inject({
    method,
    url: `/api${path}`,
    headers: { ...session.headers, ...extra.headers },
    ...(extra.payload ? { payload: extra.payload } : payload ? { payload } : {}),
  });
  if (res.statusCode >= 300) throw new Error(`fixture ${method} ${path} failed ${res.statusCode}: ${res.body}`);
  return res.body ? res.json() : undefined;
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex");
let phoneSeq = 0;
let invoiceSeq = 0;

/** One call's fixtures, made on first use and shared by every placeholder of that call. */
class Fixtures {
  private readonly made = new Map<string, Promise<string | number>>();
  get(name: string): Promise<string | number> {
    let value = this.made.get(name);
    if (!value) {
      const make = FIXTURES[name];
      if (!make) throw new Error(`no fixture for {${name}}: add one to FIXTURES in test/contract/contract.test.ts`);
      value = make(this);
      this.made.set(name, value);
    }
    return value;
  }
  set(name: string, value: string | number): void {
    this.made.set(name, Promise.resolve(value));
  }
}

/** `{name}` placeholders of spec7.ts. Each makes a fresh record so a call may change or delete it. */
const FIXTURES: Record<string, (f: Fixtures) => Promise<string | number>> = {
  companyId: async () => companyId,
  adminId: async () => adminId,
  uniq: async () => hex(4),
  // Mobile numbers that never end in "0000": the simulator answers that suffix as "no WhatsApp"
  // (SIMULATOR_INVALID_SUFFIX), which failed a PUT /contacts once in CI (ERR_WAPP_INVALID_CONTACT).
  phone: async () => `5511${String(90_000_000 + ((Date.now() + ++phoneSeq * 7919) % 9_999_999))}${1 + (phoneSeq % 9)}`,
  color: async () => `#${hex(3)}`,
  inOneHour: async () => new Date(Date.now() + 3_600_000).toISOString(),
  settingKey: async () => "userRating",
  loginEmail: async () => (await buildUser(t.ctx, companyId, { password: TEST_PASSWORD })).email,
  loginPassword: async () => TEST_PASSWORD,
  contactId: async () => (await buildContact(t.ctx, companyId)).id,
  ticketId: async (f) => {
    const ticket = await api("POST", "/tickets", { contactId: await f.get("contactId"), status: "open", whatsappId: liveConnection.id });
    f.set("ticketUuid", ticket.uuid);
    return ticket.id;
  },
  ticketUuid: async (f) => {
    await f.get("ticketId");
    return f.get("ticketUuid");
  },
  messageId: async (f) => (await api("POST", `/messages/${await f.get("ticketId")}`, { body: "Mensagem a apagar" }))[0].id,
  mediaId: async (f) => {
    const form = multipart({ medias: "@png", body: "foto" });
    const [message] = await api("POST", `/messages/${await f.get("ticketId")}`, undefined, admin, form);
    return String(message.mediaUrl).split("/").pop()!;
  },
  noteId: async (f) =>
    (await api("POST", "/ticket-notes", { note: "Nota a apagar", ticketId: await f.get("ticketId"), contactId: await f.get("contactId") })).id,
  tagId: async () => (await buildTag(t.ctx, companyId)).id,
  userId: async () => (await buildUser(t.ctx, companyId)).id,
  queueId: async () => (await buildQueue(t.ctx, companyId)).id,
  queueOptionId: async (f) => (await api("POST", "/queue-options", { queueId: await f.get("queueId"), title: "Opção" })).id,
  quickMessageId: async () => (await api("POST", "/quick-messages", { shortcode: `atalho${hex(3)}`, message: "Resposta pronta" })).id,
  whatsappId: async () => (await api("POST", "/whatsapp", { name: `Conexão ${hex(3)}` })).id,
  planId: async () => (await buildPlan(t.ctx)).id,
  otherCompanyId: async () => (await buildCompany(t.ctx)).id,
  helpId: async () => (await api("POST", "/helps", { title: "Ajuda", description: "", video: "dQw4w9WgXcQ" }, superSession)).id,
  invoiceId: async (f) => {
    const [invoice] = await t.ctx.database.db
      .insert(invoices)
      .values({
        companyId,
        detail: "Plano mensal",
        value: 99.9,
        dueDate: `2099-${String(1 + (++invoiceSeq % 12)).padStart(2, "0")}-${String(1 + (invoiceSeq % 28)).padStart(2, "0")}`,
        recurrence: "MENSAL",
      })
      .returning();
    f.set("invoicePrice", "99.90");
    return invoice!.id;
  },
  invoicePrice: async (f) => (await f.get("invoiceId"), "99.90"),
  invoicePlan: async () => JSON.stringify({ price: 99.9, users: 5, connections: 2 }),
  scheduleId: async (f) =>
    (
      await api("POST", "/schedules", {
        body: "Lembrete da consulta",
        contactId: await f.get("contactId"),
        sendAt: new Date(Date.now() + 3_600_000).toISOString(),
      })
    ).id,
  contactListId: async () => (await api("POST", "/contact-lists", { name: `Lista ${hex(3)}` })).id,
  contactListItemId: async (f) =>
    (
      await api("POST", "/contact-list-items", {
        name: "Cliente",
        number: await f.get("phone"),
        email: "",
        contactListId: await f.get("contactListId"),
      })
    ).id,
  campaignId: async () => (await api("POST", "/campaigns", { name: `Campanha ${hex(3)}` })).id,
  // Cancel needs a running campaign and restart a cancelled one (spec §4); the state is set directly.
  runningCampaignId: async (f) => campaignIn(await f.get("campaignId"), "EM_ANDAMENTO"),
  cancelledCampaignId: async (f) => {
    const id = await f.get("campaignId");
    await api("PUT", `/campaigns/${id}`, { name: `Campanha ${hex(3)}`, whatsappId: liveConnection.id, contactListId: await f.get("contactListId") });
    return campaignIn(id, "CANCELADA");
  },
  announcementId: async () => (await api("POST", "/announcements", { title: "Aviso", text: "Texto do aviso", priority: 3 }, superSession)).id,
  chatId: async () => (await api("POST", "/chats", { title: "Plantão", users: [{ id: (await buildUser(t.ctx, companyId)).id }] })).id,
};

async function campaignIn(id: string | number, status: "EM_ANDAMENTO" | "CANCELADA"): Promise<number> {
  await t.ctx.database.db
    .update(campaigns)
    .set({ status })
    .where(and(eq(campaigns.companyId, companyId), eq(campaigns.id, Number(id))));
  return Number(id);
}

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const FILES: Record<string, { name: string; type: string; data: Buffer }> = {
  png: { name: "foto.png", type: "image/png", data: PNG },
  xlsx: { name: "contatos.xlsx", type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", data: await sampleXlsx() },
};

function multipart(fields: Record<string, string>): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----balcao${hex(8)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value.startsWith("@")) {
      const file = FILES[value.slice(1)];
      if (!file) throw new Error(`no file ${value}: add it to FILES in test/contract/contract.test.ts`);
      parts.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
        file.data,
        Buffer.from("\r\n"),
      );
    } else parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** Replaces placeholders: a string that is exactly "{x}" takes the fixture's value and type. */
async function resolve(value: unknown, f: Fixtures): Promise<unknown> {
  if (typeof value === "string") {
    const whole = /^\{(\w+)\}$/.exec(value);
    if (whole) return f.get(whole[1]!);
    let out = value;
    for (const [token, name] of value.matchAll(PLACEHOLDER)) out = out.replace(token, String(await f.get(name!)));
    return out;
  }
  if (Array.isArray(value)) return Promise.all(value.map((v) => resolve(v, f)));
  if (value && typeof value === "object") {
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await resolve(v, f)] as const));
    return Object.fromEntries(entries);
  }
  return value;
}

const split = (row: SpecCall) => {
  const [method, path] = row.call.split(" ") as ["GET" | "POST" | "PUT" | "DELETE", string];
  return { method, path };
};

/**
 * Whether the route table has this call: the route that matches must take every placeholder as a param
 * and no literal segment (POST /api/messages/send is not POST /api/messages/:ticketId with "send").
 */
function routeExists(row: SpecCall): boolean {
  const { method, path } = split(row);
  const url = mountPath("api", path.replace(PLACEHOLDER, "1"));
  const found = t.app.findRoute({ method, url });
  return !!found && Object.values(found.params as Record<string, string>).every((v) => v === "1");
}

/** A fresh login on `mount`, with the refresh cookie as its Set-Cookie scoped it. */
async function sessionOn(mount: Mount) {
  const user = await buildUser(t.ctx, companyId);
  const res = await injectOn(t.app, mount, {
    method: "POST",
    url: mountPath(mount, "/auth/login"),
    payload: { email: user.email, password: user.password },
  });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === "jrt")!;
  return { token: (res.json() as { token: string }).token, cookie: { value: cookie.value, path: cookie.path ?? "/" } };
}

async function callOn(row: SpecCall, mount: Mount): Promise<LightMyRequestResponse> {
  const { method, path } = split(row);
  const f = new Fixtures();
  const resolvedPath = (await resolve(path, f)) as string;
  const query = row.query ? ((await resolve(row.query, f)) as Record<string, string>) : undefined;
  const url = mountPath(mount, resolvedPath) + (query ? `?${new URLSearchParams(query)}` : "");
  const headers: Record<string, string> = {};
  const caller = row.as ?? "admin";
  if (caller === "admin") headers.authorization = admin.headers.authorization;
  if (caller === "super") headers.authorization = superSession.headers.authorization;
  if (caller === "connection") headers.authorization = `Bearer ${liveConnection.token}`;
  if (caller === "session") {
    const session = await sessionOn(mount);
    headers.authorization = `Bearer ${session.token}`;
    // A browser sends the cookie only to paths under its Path.
    if (url.startsWith(session.cookie.path)) headers.cookie = `jrt=${session.cookie.value}`;
  }
  if (row.multipart) {
    const form = multipart((await resolve(row.multipart, f)) as Record<string, string>);
    return injectOn(t.app, mount, { method, url, headers: { ...headers, ...form.headers }, payload: form.payload });
  }
  const body = row.body === undefined ? undefined : ((await resolve(row.body, f)) as object);
  return injectOn(t.app, mount, { method, url, headers, ...(body !== undefined ? { payload: body } : {}) });
}

function missingKeys(body: unknown, keys: readonly string[]): string[] {
  const has = (value: unknown, dotted: string) =>
    dotted
      .split(".")
      .reduce<{ ok: boolean; at: unknown }>(
        (acc, part) =>
          acc.ok && acc.at !== null && typeof acc.at === "object" && part in acc.at
            ? { ok: true, at: (acc.at as Record<string, unknown>)[part] }
            : { ok: false, at: undefined },
        { ok: true, at: value },
      ).ok;
  return keys.filter((key) => {
    if (key.startsWith("[].")) return !Array.isArray(body) || body.length === 0 || body.some((item) => !has(item, key.slice(3)));
    return !has(body, key);
  });
}

const label = (row: SpecCall) => `${row.call}${row.note ? ` (${row.note})` : ""}${row.pending ? ` — pending: ${row.pending}` : ""}`;

describe("spec §7 calls on both mounts (/api and the backend listener)", () => {
  for (const row of SPEC7) {
    if (row.pending) {
      it(label(row), () => {
        expect(routeExists(row), `${row.call} now has a route: remove its pending mark ("${row.pending}") in test/contract/spec7.ts`).toBe(false);
      });
      continue;
    }
    it(label(row), async () => {
      expect(routeExists(row), `${row.call} has no route`).toBe(true);
      for (const mount of MOUNTS) {
        const res = await callOn(row, mount);
        const where = `${mount} mount: ${row.call} → ${res.statusCode} ${res.body.slice(0, 300)}`;
        if (row.status) expect(res.statusCode, where).toBe(row.status);
        else expect(res.statusCode >= 200 && res.statusCode < 300, where).toBe(true);
        if (row.keys) expect(missingKeys(res.json(), row.keys), where).toEqual([]);
      }
    });
  }
});
