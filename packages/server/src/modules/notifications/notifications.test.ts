/**
 * Issue 21, item 3: the admins' bell (GET /notifications, PUT /notifications/read) over the connection alerts,
 * and the optional alert e-mail through the company's SMTP setting, against a real SMTP receiver
 * (smtp-server on an ephemeral port): subject and body name the connection and the reason (pt by default),
 * an SMTP failure is retried and logged, never a 500; the password is write-only; admins only; tenant-scoped.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { NotificationListResponse, SmtpSettingsBody, SmtpSettingsDTO } from "@balcao/shared";
import { connectionEvents, connections, users } from "../../db/schema";
import { buildTenant, buildUser, connectSocket, login, nextEventWhere, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { CONNECTION_ALERT_JOB, connectionAlertKey } from "../connections/health";
import { reasonWords } from "./mail";
import { ALERT_MAIL_JOB } from "./smtp";

interface Received {
  from: string;
  to: string[];
  subject: string;
  text: string;
  user?: string;
}

let t: TestApp;
let smtp: SMTPServer;
let smtpPort = 0;
const received: Received[] = [];
/** How many messages the receiver refuses (451) before it accepts again. */
let refuseNext = 0;

/** RFC 2047 encoded words (=?UTF-8?B|Q?…?=) of a header. */
function decodeWords(value: string): string {
  return value.replace(/\?=\s+=\?/g, "?==?").replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, enc: string, data: string) =>
    enc.toLowerCase() === "b"
      ? Buffer.from(data, "base64").toString("utf8")
      : Buffer.from(
          data.replace(/_/g, " ").replace(/=([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
          "latin1",
        ).toString("utf8"),
  );
}

/** Subject and text of a single-part text/plain message as nodemailer writes it. */
function parse(raw: string): { subject: string; text: string } {
  const [head = "", ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = head.replace(/\r?\n[ \t]+/g, " ");
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(headers)?.[1] ?? "";
  const body = rest.join("\n\n");
  const encoding = header("Content-Transfer-Encoding").toLowerCase();
  const text =
    encoding === "base64"
      ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
      : encoding === "quoted-printable"
        ? Buffer.from(
            body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            "latin1",
          ).toString("utf8")
        : body;
  return { subject: decodeWords(header("Subject")), text: text.replace(/\r\n/g, "\n") };
}

beforeAll(async () => {
  t = await createTestApp({ JOBS_POLL_SECONDS: "0.5" });
  smtp = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth: (auth, _session, callback) =>
      auth.username === "alertas" && auth.password === "s3nha" ? callback(null, { user: auth.username }) : callback(new Error("bad credentials")),
    onData: (stream, session, callback) => {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", () => {
        if (refuseNext > 0) {
          refuseNext--;
          return callback(Object.assign(new Error("mailbox busy, try later"), { responseCode: 451 }));
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          ...parse(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});
beforeEach(() => {
  // The receiver is on loopback: allowed only with the webhooks' private-target switch (smtp.ts, SSRF).
  t.ctx.config.webhookAllowPrivateTargets = true;
  refuseNext = 0;
});

const api = (s: Session, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: s.headers, ...(payload ? { payload } : {}) });
const poll = <T>(fn: () => T | Promise<T>, timeout = 30_000) => expect.poll(fn, { timeout, interval: 100 });
const mailsTo = (address: string) => received.filter((m) => m.to.includes(address));

const smtpBody = (over: Partial<SmtpSettingsBody> = {}): SmtpSettingsBody => ({
  enabled: true,
  host: "127.0.0.1",
  port: smtpPort,
  secure: false,
  user: "alertas",
  password: "s3nha",
  from: "alertas@balcao.test",
  recipients: [],
  ...over,
});

/** A DISCONNECTED connection whose alert job runs now (what health.ts queues when it leaves CONNECTED). */
async function alertOf(companyId: number, name: string, reason = "loggedOut") {
  const db = t.ctx.database.db;
  const [connection] = await db.insert(connections).values({ companyId, name, status: "DISCONNECTED" }).returning();
  const since = new Date(Date.now() - 120_000);
  await db.insert(connectionEvents).values({ companyId, connectionId: connection!.id, kind: "status", status: "DISCONNECTED", reason });
  await t.ctx.jobs.enqueue(
    CONNECTION_ALERT_JOB,
    { companyId, connectionId: connection!.id, since: since.toISOString(), minutes: 2 },
    { key: connectionAlertKey(connection!.id) },
  );
  return connection!;
}

async function notificationsOf(s: Session, page = 1) {
  const res = await api(s, "GET", `/notifications?pageNumber=${page}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as NotificationListResponse;
}

describe("the admins' bell", () => {
  it("lists the company's connection alerts, live on the socket, unread per admin until marked read; admins only, tenant-scoped", async () => {
    const tenant = await buildTenant(t.app);
    const other = await buildTenant(t.app);
    const secondAdmin = await buildUser(t.ctx, tenant.company.id, { profile: "admin" });
    const second = await login(t.app, secondAdmin.email);

    for (const [method, url] of [
      ["GET", "/notifications"],
      ["PUT", "/notifications/read"],
    ] as const)
      expect((await api(tenant.userSession, method, url)).statusCode).toBe(403);
    expect(await notificationsOf(tenant.adminSession)).toEqual({ notifications: [], unreadCount: 0, hasMore: false });

    const socket = await connectSocket(t.app, tenant.adminSession.token);
    try {
      const live = nextEventWhere<{ name: string }>(socket, "whatsappHealthAlert", (p) => p.name === "Vendas", 20_000);
      const c = await alertOf(tenant.company.id, "Vendas");
      await live;
      const list = await notificationsOf(tenant.adminSession);
      expect(list.unreadCount).toBe(1);
      expect(list.notifications).toEqual([
        {
          id: expect.any(Number),
          connectionId: c.id,
          name: "Vendas",
          status: "DISCONNECTED",
          reason: "loggedOut",
          at: expect.any(String),
          read: false,
        },
      ]);
      expect(Number.isNaN(Date.parse(list.notifications[0]!.at))).toBe(false);
    } finally {
      socket.disconnect();
    }
    // Another company sees none of it.
    expect(await notificationsOf(other.adminSession)).toEqual({ notifications: [], unreadCount: 0, hasMore: false });

    const read = await api(tenant.adminSession, "PUT", "/notifications/read");
    expect(read.statusCode, read.body).toBe(200);
    expect(await notificationsOf(tenant.adminSession)).toMatchObject({ unreadCount: 0, notifications: [{ name: "Vendas", read: true }] });
    // The marker is per user: the other admin still has it unread.
    expect(await notificationsOf(second)).toMatchObject({ unreadCount: 1, notifications: [{ read: false }] });
    // Marking read in the other company touches nothing here.
    expect((await api(other.adminSession, "PUT", "/notifications/read")).json()).toEqual({ lastReadId: 0 });
    expect((await notificationsOf(second)).unreadCount).toBe(1);

    // A newer alert is unread again, newest first; the markers stay out of GET /settings.
    await alertOf(tenant.company.id, "Suporte", "replaced");
    await poll(async () => (await notificationsOf(tenant.adminSession)).unreadCount).toBe(1);
    expect((await notificationsOf(tenant.adminSession)).notifications.map((n) => [n.name, n.read])).toEqual([
      ["Suporte", false],
      ["Vendas", true],
    ]);
    const keys = ((await api(tenant.adminSession, "GET", "/settings")).json() as { key: string }[]).map((s) => s.key);
    expect(keys.filter((k) => k.startsWith("notificationsRead") || k === "smtp")).toEqual([]);
  });

  it("pages by 20, newest first", async () => {
    const tenant = await buildTenant(t.app);
    const db = t.ctx.database.db;
    const [c] = await db.insert(connections).values({ companyId: tenant.company.id, name: "Muitas", status: "DISCONNECTED" }).returning();
    await db.insert(connectionEvents).values(
      Array.from({ length: 21 }, () => ({
        companyId: tenant.company.id,
        connectionId: c!.id,
        kind: "alert",
        status: "DISCONNECTED",
        reason: "unknown",
      })),
    );
    const first = await notificationsOf(tenant.adminSession);
    expect(first).toMatchObject({ unreadCount: 21, hasMore: true });
    expect(first.notifications).toHaveLength(20);
    const second = await notificationsOf(tenant.adminSession, 2);
    expect(second).toMatchObject({ unreadCount: 21, hasMore: false });
    expect(second.notifications).toHaveLength(1);
    expect(second.notifications[0]!.id).toBeLessThan(first.notifications[19]!.id);
  });
});

describe("alert e-mails through the company's SMTP setting", () => {
  it("the setting: admins only, password write-only, enabling needs host and sender, per company", async () => {
    const tenant = await buildTenant(t.app);
    const other = await buildTenant(t.app);
    expect((await api(tenant.userSession, "GET", "/settings/smtp")).statusCode).toBe(403);
    expect((await api(tenant.userSession, "PUT", "/settings/smtp", smtpBody())).statusCode).toBe(403);
    expect((await api(tenant.userSession, "POST", "/settings/smtp/test")).statusCode).toBe(403);

    const defaults = (await api(tenant.adminSession, "GET", "/settings/smtp")).json() as SmtpSettingsDTO;
    expect(defaults).toMatchObject({ enabled: false, host: "", hasPassword: false, recipients: [], language: "pt" });
    const incomplete = await api(tenant.adminSession, "PUT", "/settings/smtp", smtpBody({ host: "" }));
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.json().error).toBe("ERR_SMTP_NOT_CONFIGURED");
    expect((await api(tenant.adminSession, "PUT", "/settings/smtp", smtpBody({ recipients: ["not an email"] }))).statusCode).toBe(400);

    const saved = await api(tenant.adminSession, "PUT", "/settings/smtp", smtpBody({ recipients: ["Ops@Empresa.test"] }));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).not.toContain("s3nha");
    expect(saved.json()).toMatchObject({ enabled: true, hasPassword: true, recipients: ["ops@empresa.test"] });
    const read = await api(tenant.adminSession, "GET", "/settings/smtp");
    expect(read.body).not.toContain("s3nha");
    expect(read.json()).not.toHaveProperty("password");
    // Saving without a password keeps it; "" clears it.
    const { password: _omit, ...withoutPassword } = smtpBody();
    expect((await api(tenant.adminSession, "PUT", "/settings/smtp", withoutPassword)).json()).toMatchObject({ hasPassword: true });
    expect((await api(tenant.adminSession, "PUT", "/settings/smtp", smtpBody({ password: "" }))).json()).toMatchObject({ hasPassword: false });
    // Neither the SMTP row nor its password shows in the generic settings list.
    expect((await api(tenant.adminSession, "GET", "/settings")).body).not.toContain("alertas@balcao.test");
    // The other company has its own (empty) setting.
    expect((await api(other.adminSession, "GET", "/settings/smtp")).json()).toMatchObject({ enabled: false, host: "" });
  });

  it("the test button sends to the company's admins by default; SMTP errors answer 400 with their code, never 5xx", async () => {
    const tenant = await buildTenant(t.app);
    const extraAdmin = await buildUser(t.ctx, tenant.company.id, { profile: "admin" });
    expect((await api(tenant.adminSession, "POST", "/settings/smtp/test")).json().error).toBe("ERR_SMTP_NOT_CONFIGURED");
    expect((await api(tenant.adminSession, "PUT", "/settings/smtp", smtpBody({ enabled: false }))).statusCode).toBe(200);
    const res = await api(tenant.adminSession, "POST", "/settings/smtp/test");
    expect(res.statusCode, res.body).toBe(200);
    expect([...(res.json() as { recipients: string[] }).recipients].sort()).toEqual([tenant.admin.email, extraAdmin.email].sort());
    const [mail] = mailsTo(tenant.admin.email);
    expect(mail).toMatchObject({ from: "alertas@balcao.test", user: "alertas", subject: "[Balcão] E-mail de teste" });
    expect(mail!.to.sort()).toEqual([tenant.admin.email, extraAdmin.email].sort());
    expect(mail!.text).toContain(tenant.company.name);
    // The attendant is not a recipient.
    expect(mailsTo(tenant.user.email)).toEqual([]);

    refuseNext = 1;
    const refused = await api(tenant.adminSession, "POST", "/settings/smtp/test");
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe("ERR_SMTP_SEND_FAILED");
    expect(refused.json().meta.detail).toContain("mailbox busy");

    // Nothing listening: connection refused.
    await api(tenant.adminSession, "PUT", "/settings/smtp", smtpBody({ enabled: false, port: 1 }));
    expect((await api(tenant.adminSession, "POST", "/settings/smtp/test")).json().error).toBe("ERR_SMTP_SEND_FAILED");

    // The SSRF switch off: a loopback host is refused before any connection.
    t.ctx.config.webhookAllowPrivateTargets = false;
    await api(tenant.adminSession, "PUT", "/settings/smtp", smtpBody({ enabled: false }));
    const before = received.length;
    const blocked = await api(tenant.adminSession, "POST", "/settings/smtp/test");
    expect(blocked.statusCode).toBe(400);
    expect(blocked.json().error).toBe("ERR_SMTP_PRIVATE_HOST");
    expect(received.length).toBe(before);
  });

  it("an alert is e-mailed once, in pt by default, naming the connection and the reason; a refused send is retried and logged", async () => {
    const tenant = await buildTenant(t.app);
    const other = await buildTenant(t.app);
    const warn = vi.spyOn(t.ctx.log, "warn");
    expect((await api(tenant.adminSession, "PUT", "/settings/smtp", smtpBody())).statusCode).toBe(200);
    // The other company has e-mail off: its alert sends nothing.
    await alertOf(other.company.id, "Loja Outra");
    refuseNext = 1;
    const c = await alertOf(tenant.company.id, "Recepção");
    await poll(() => mailsTo(tenant.admin.email).length).toBe(1);
    const [mail] = mailsTo(tenant.admin.email);
    const reason = reasonWords("pt").reasons.loggedOut;
    expect(mail!.subject).toBe(`[Balcão] Conexão Recepção fora do ar: ${reason}`);
    expect(mail!.text).toContain("A conexão Recepção está fora do ar há mais de 2 min.");
    expect(mail!.text).toContain(`Motivo: ${reason}`);
    expect(mail!.text).toContain("leia o QR Code");
    // The first try was refused (451): logged, then retried by the job runner.
    expect(
      warn.mock.calls.some(
        ([obj, msg]) => msg === "connection alert e-mail failed; will retry" && (obj as { connectionId?: number }).connectionId === c.id,
      ),
    ).toBe(true);
    const retries = async () =>
      (
        await t.ctx.database.pool.query<{ retry_count: number }>(
          "select retry_count from pgboss.job where name = $1 and data->'alert'->>'connectionId' = $2",
          [ALERT_MAIL_JOB, String(c.id)],
        )
      ).rows.map((r) => r.retry_count);
    await poll(retries).toEqual([1]);
    warn.mockRestore();

    // Other languages on request.
    await api(tenant.adminSession, "PUT", "/settings/smtp", smtpBody({ language: "en", recipients: ["noc@empresa.test"] }));
    await alertOf(tenant.company.id, "Sales", "replaced");
    await poll(() => mailsTo("noc@empresa.test").length).toBe(1);
    expect(mailsTo("noc@empresa.test")[0]!.subject).toBe(`[Balcão] Connection Sales is down: ${reasonWords("en").reasons.replaced}`);
    await t.ctx.events.drain();
    expect(received.some((m) => m.subject.includes("Loja Outra"))).toBe(false);
    // Once: the retried alert was not sent twice.
    expect(mailsTo(tenant.admin.email)).toHaveLength(1);
  });

  it("the e-mail's reason words match the web app's (features/connections/locales)", () => {
    for (const language of ["pt", "en", "es"] as const) {
      const file = fileURLToPath(new URL(`../../../../web/src/features/connections/locales/${language}.json`, import.meta.url));
      const web = JSON.parse(readFileSync(file, "utf8")) as { connections: { reasons: object; status: object } };
      expect(reasonWords(language)).toEqual({ reasons: web.connections.reasons, status: web.connections.status });
    }
  });

  it("admins' e-mails are the default recipients (not attendants, not other companies)", async () => {
    const tenant = await buildTenant(t.app);
    await t.ctx.database.db
      .insert(users)
      .values({ companyId: tenant.company.id, name: "Outro", email: `x${Date.now()}@t.test`, passwordHash: "x", profile: "user" });
    expect((await api(tenant.adminSession, "PUT", "/settings/smtp", smtpBody({ enabled: false }))).statusCode).toBe(200);
    const res = await api(tenant.adminSession, "POST", "/settings/smtp/test");
    expect(res.json()).toEqual({ recipients: [tenant.admin.email] });
  });
});
