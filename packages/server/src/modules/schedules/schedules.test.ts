/**
 * Scheduled messages through the HTTP API, the job runner and a live simulator connection, with a second app
 * instance on the same database (its own pool and job workers, like a second process) and a restart.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScheduleDTO, ScheduleEvent } from "@balcao/shared";
import { buildApp, type App } from "../../app";
import type { SimulatorProvider } from "../../channels/simulator/provider";
import { createContext, type AppContext } from "../../context";
import { openDatabase, type Database } from "../../db/client";
import { connections, messages, scheduledMessages, tickets } from "../../db/schema";
import { buildContact, buildTenant, buildUser, collectEvents, connectSocket, login, nextEventWhere, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { SCHEDULE_SEND_JOB, scheduleJobKey, scheduleMessageKey, senderFor } from "./sender";

const poll = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 100 });

let t: TestApp;
let second: { app: App; ctx: AppContext; database: Database };
const ENV = { JOBS_POLL_SECONDS: "0.5", SIMULATOR_ACK_DELAY_MS: "0" };

async function sibling(url: string) {
  const database = await openDatabase({ databaseUrl: url });
  const ctx = createContext({ ...t.config, jobs: { pollSeconds: 0.5 } }, database);
  const app = await buildApp(ctx);
  await app.ready();
  return { app, ctx, database };
}
const urlOf = (ctx: AppContext) => (ctx.database.pool as unknown as { options: { connectionString: string } }).options.connectionString;

beforeAll(async () => {
  t = await createTestApp(ENV);
  second = await sibling(urlOf(t.ctx));
});

afterAll(async () => {
  await second.app.close();
  await second.database.close();
  await t.close();
});

const db = () => t.ctx.database.db;
const pool = () => t.ctx.database.pool!;

const call = (app: App, s: Session, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  app.inject({ method, url: `/api${url}`, headers: s.headers, ...(payload ? { payload } : {}) });
const api = (s: Session, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) => call(t.app, s, method, url, payload);

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

/** A company with a simulator connection paired in `app` (its session runs in that instance). */
async function desk(app: App = t.app) {
  const tenant = await buildTenant(app);
  const created = (
    await call(app, tenant.adminSession, "POST", "/whatsapp", { name: `Simulador ${Math.random().toString(36).slice(2, 8)}`, isDefault: true })
  ).json();
  const scanned = await call(app, tenant.adminSession, "POST", `/simulator/${created.id}/scan`, { code: created.qrcode });
  expect(scanned.statusCode, scanned.body).toBe(200);
  const contact = await buildContact(app.ctx, tenant.company.id, { name: "Maria Souza" });
  return { ...tenant, connectionId: created.id as number, contact };
}

/** What the simulated phone received from the company (direction "in"), in the instance running the session. */
function phoneInbox(ctx: AppContext, connectionId: number, number: string) {
  const provider = ctx.channels.provider<SimulatorProvider>("simulator")!;
  return (provider.phoneBook(connectionId).phones.get(number)?.messages ?? []).filter((m) => m.direction === "in").map((m) => m.body);
}

async function jobsOf(id: number) {
  const { rows } = await pool().query<{ state: string; start_after: Date }>(
    "select state, start_after from pgboss.job where name = $1 and singleton_key = $2 order by created_on",
    [SCHEDULE_SEND_JOB, scheduleJobKey(id)],
  );
  return rows;
}

const statusOf = async (id: number) => (await db().select().from(scheduledMessages).where(eq(scheduledMessages.id, id)))[0]!;

describe("validation (spec §5)", () => {
  it("answers the spec's texts for a short or missing body, a missing contact or time, and refuses a past time", async () => {
    const d = await buildTenant(t.app);
    const contact = await buildContact(t.ctx, d.company.id);
    const cases: [object, string, string][] = [
      [{ body: "", contactId: contact.id, sendAt: inSeconds(3600) }, "body", "Obrigatório"],
      [{ body: "Oi", contactId: contact.id, sendAt: inSeconds(3600) }, "body", "Mensagem muito curta"],
      [{ body: "    Oi    ", contactId: contact.id, sendAt: inSeconds(3600) }, "body", "Mensagem muito curta"],
      [{ body: "Lembrete", sendAt: inSeconds(3600) }, "contactId", "Obrigatório"],
      [{ body: "Lembrete", contactId: "", sendAt: inSeconds(3600) }, "contactId", "Obrigatório"],
      [{ body: "Lembrete", contactId: contact.id }, "sendAt", "Obrigatório"],
      [{ body: "Lembrete", contactId: contact.id, sendAt: "" }, "sendAt", "Obrigatório"],
      [{ body: "Lembrete", contactId: contact.id, sendAt: "amanhã" }, "sendAt", "Invalid date"],
    ];
    for (const [payload, field, text] of cases) {
      const res = await api(d.userSession, "POST", "/schedules", payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().issues).toContainEqual(expect.objectContaining({ path: field, message: text }));
    }
    const past = await api(d.userSession, "POST", "/schedules", { body: "Lembrete", contactId: contact.id, sendAt: inSeconds(-3600) });
    expect(past.statusCode).toBe(400);
    expect(past.json().error).toBe("ERR_SCHEDULE_IN_PAST");
    expect(await db().select().from(scheduledMessages).where(eq(scheduledMessages.companyId, d.company.id))).toEqual([]);
  });
});

describe("CRUD, permissions and isolation", () => {
  it("creates a PENDENTE schedule with one job due at sendAt; edits move the job; delete cancels it", async () => {
    const d = await buildTenant(t.app);
    const contact = await buildContact(t.ctx, d.company.id, { name: "Carlos Lima" });
    const sendAt = inSeconds(3600);
    const res = await api(d.userSession, "POST", "/schedules", { body: "Sua consulta é amanhã", contactId: contact.id, sendAt });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as ScheduleDTO;
    expect(created).toMatchObject({
      status: "PENDENTE",
      sentAt: null,
      userId: d.user.id,
      contact: { id: contact.id, name: "Carlos Lima" },
      user: { id: d.user.id },
    });
    expect(created.sendAt).toBe(new Date(sendAt).toISOString());
    let jobs = await jobsOf(created.id);
    expect(jobs.map((j) => j.state)).toEqual(["created"]);
    expect(jobs[0]!.start_after.toISOString()).toBe(created.sendAt);

    const later = inSeconds(7200);
    const edited = await api(d.userSession, "PUT", `/schedules/${created.id}`, {
      body: "Sua consulta foi remarcada",
      contactId: contact.id,
      sendAt: later,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ body: "Sua consulta foi remarcada", status: "PENDENTE", sendAt: new Date(later).toISOString() });
    jobs = await jobsOf(created.id);
    expect(jobs.map((j) => j.state)).toEqual(["cancelled", "created"]);
    expect(jobs[1]!.start_after.toISOString()).toBe(new Date(later).toISOString());

    // Only the body changed: the waiting job stays.
    await api(d.userSession, "PUT", `/schedules/${created.id}`, { body: "Consulta remarcada para as 15h", contactId: contact.id, sendAt: later });
    expect((await jobsOf(created.id)).map((j) => j.state)).toEqual(["cancelled", "created"]);
    // Moving an unchanged-in-time schedule into the past is refused.
    const toPast = await api(d.userSession, "PUT", `/schedules/${created.id}`, { sendAt: inSeconds(-600) });
    expect(toPast.json().error).toBe("ERR_SCHEDULE_IN_PAST");

    const shown = await api(d.userSession, "GET", `/schedules/${created.id}`);
    expect(shown.json()).toMatchObject({ id: created.id, body: "Consulta remarcada para as 15h" });

    expect((await api(d.userSession, "DELETE", `/schedules/${created.id}`)).statusCode).toBe(204);
    expect((await api(d.userSession, "GET", `/schedules/${created.id}`)).statusCode).toBe(404);
    expect((await jobsOf(created.id)).map((j) => j.state)).toEqual(["cancelled", "cancelled"]);
  });

  it("lists newest first, 20 a page, searching contact name or body, and filtering by contact", async () => {
    const d = await buildTenant(t.app);
    const ana = await buildContact(t.ctx, d.company.id, { name: "Ána Paula" });
    const bruno = await buildContact(t.ctx, d.company.id, { name: "Bruno" });
    for (let i = 0; i < 21; i++)
      await api(d.userSession, "POST", "/schedules", {
        body: `Lembrete número ${i}`,
        contactId: i % 2 ? ana.id : bruno.id,
        sendAt: inSeconds(3600 + i),
      });
    await api(d.userSession, "POST", "/schedules", { body: "Promoção de boleto", contactId: bruno.id, sendAt: inSeconds(3600) });
    const first = (await api(d.userSession, "GET", "/schedules/?searchParam=&pageNumber=1")).json();
    expect(first.schedules).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    expect(first.schedules[0].body).toBe("Promoção de boleto");
    const second = (await api(d.userSession, "GET", "/schedules?pageNumber=2")).json();
    expect(second.schedules).toHaveLength(2);
    expect(second.hasMore).toBe(false);
    const byName = (await api(d.userSession, "GET", `/schedules?searchParam=${encodeURIComponent("ana")}`)).json();
    expect(byName.schedules).toHaveLength(10);
    expect(byName.schedules.every((s: ScheduleDTO) => s.contact?.name === "Ána Paula")).toBe(true);
    const byBody = (await api(d.userSession, "GET", `/schedules?searchParam=${encodeURIComponent("PROMOCAO")}`)).json();
    expect(byBody.schedules.map((s: ScheduleDTO) => s.body)).toEqual(["Promoção de boleto"]);
    const byContact = (await api(d.userSession, "GET", `/schedules?contactId=${bruno.id}`)).json();
    expect(byContact.schedules).toHaveLength(12);
  });

  it("the author and admins edit and delete; another attendant may read but not change (403)", async () => {
    const d = await buildTenant(t.app);
    const colleague = await buildUser(t.ctx, d.company.id, { profile: "user" });
    const colleagueSession = await login(t.app, colleague.email);
    const contact = await buildContact(t.ctx, d.company.id);
    const mine = (
      await api(d.userSession, "POST", "/schedules", { body: "Lembrete do atendente", contactId: contact.id, sendAt: inSeconds(3600) })
    ).json();
    expect((await api(colleagueSession, "GET", `/schedules/${mine.id}`)).statusCode).toBe(200);
    expect((await api(colleagueSession, "PUT", `/schedules/${mine.id}`, { body: "Mudado por outro" })).statusCode).toBe(403);
    expect((await api(colleagueSession, "DELETE", `/schedules/${mine.id}`)).statusCode).toBe(403);
    expect((await api(d.userSession, "PUT", `/schedules/${mine.id}`, { body: "Mudado pelo autor" })).statusCode).toBe(200);
    expect((await api(d.adminSession, "PUT", `/schedules/${mine.id}`, { body: "Mudado pelo admin" })).statusCode).toBe(200);
    expect((await api(d.adminSession, "DELETE", `/schedules/${mine.id}`)).statusCode).toBe(204);
    expect((await api(d.userSession, "GET", "/schedules")).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/schedules" })).statusCode).toBe(401);
  });

  it("another company's schedule or contact answers 404 like a missing one, and its list and sockets stay apart", async () => {
    const a = await buildTenant(t.app);
    const b = await buildTenant(t.app);
    const contactA = await buildContact(t.ctx, a.company.id);
    const socketA = await connectSocket(t.app, a.userSession.token);
    const socketB = await connectSocket(t.app, b.adminSession.token);
    try {
      const seenByB = collectEvents<ScheduleEvent>(socketB, "schedule");
      const arrived = nextEventWhere<ScheduleEvent>(socketA, "schedule", (e) => e.action === "create", 5000);
      const created = (
        await api(a.userSession, "POST", "/schedules", { body: "Só da empresa A", contactId: contactA.id, sendAt: inSeconds(3600) })
      ).json();
      expect(await arrived).toMatchObject({ action: "create", schedule: { id: created.id, body: "Só da empresa A" } });
      for (const [method, payload] of [["GET"], ["PUT", { body: "Invasão de B" }], ["DELETE"], ["POST", undefined]] as const) {
        const url = method === "POST" ? `/schedules/${created.id}/retry` : `/schedules/${created.id}`;
        const res = await api(b.adminSession, method, url, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json().error).toBe("ERR_NO_SCHEDULE_FOUND");
      }
      expect((await api(b.adminSession, "GET", `/schedules/${999_999_999}`)).json().error).toBe("ERR_NO_SCHEDULE_FOUND");
      const foreignContact = await api(b.adminSession, "POST", "/schedules", {
        body: "Para contato de A",
        contactId: contactA.id,
        sendAt: inSeconds(3600),
      });
      expect(foreignContact.statusCode).toBe(404);
      expect(foreignContact.json().error).toBe("ERR_NO_CONTACT_FOUND");
      expect((await api(b.adminSession, "GET", "/schedules")).json().schedules).toEqual([]);
      await t.ctx.events.drain();
      await new Promise((r) => setTimeout(r, 200));
      expect(seenByB).toEqual([]);
    } finally {
      socketA.disconnect();
      socketB.disconnect();
    }
  });
});

describe("sending (spec §4 Schedule; exactly once, through the connection's process)", () => {
  it("sends a due schedule within seconds, with template variables, on a ticket opened by its author", async () => {
    const d = await desk();
    const socket = await connectSocket(t.app, d.adminSession.token);
    try {
      const sent = nextEventWhere<ScheduleEvent>(socket, "schedule", (e) => e.action === "update" && e.schedule.status === "ENVIADA", 15_000);
      const res = await api(d.userSession, "POST", "/schedules", {
        body: "Olá {{firstName}}, sua entrega chega hoje.",
        contactId: d.contact.id,
        sendAt: inSeconds(1),
      });
      expect(res.statusCode, res.body).toBe(201);
      const created = res.json() as ScheduleDTO;
      const event = (await sent) as Extract<ScheduleEvent, { schedule: ScheduleDTO }>;
      expect(event.schedule).toMatchObject({ id: created.id, status: "ENVIADA", lastError: null });
      expect(new Date(event.schedule.sentAt!).getTime()).toBeGreaterThanOrEqual(new Date(created.sendAt).getTime());
      expect(new Date(event.schedule.sentAt!).getTime() - new Date(created.sendAt).getTime()).toBeLessThan(10_000);
      expect(phoneInbox(t.ctx, d.connectionId, d.contact.number!)).toEqual(["Olá Maria, sua entrega chega hoje."]);
      const row = await statusOf(created.id);
      const [ticket] = await db().select().from(tickets).where(eq(tickets.id, row.ticketId!));
      expect(ticket).toMatchObject({
        status: "open",
        userId: d.user.id,
        contactId: d.contact.id,
        connectionId: d.connectionId,
        lastMessage: "Olá Maria, sua entrega chega hoje.",
      });
      const history = (await api(d.userSession, "GET", `/messages/${ticket!.id}`)).json();
      expect(history.messages).toMatchObject([{ body: "Olá Maria, sua entrega chega hoje.", fromMe: true, status: "sent" }]);
      // Once sent: no edits, no retry.
      expect((await api(d.userSession, "PUT", `/schedules/${created.id}`, { body: "Tarde demais para mudar" })).json().error).toBe(
        "ERR_SCHEDULE_ALREADY_SENT",
      );
      expect((await jobsOf(created.id)).map((j) => j.state)).toEqual(["completed"]);
    } finally {
      socket.disconnect();
    }
  });

  it("made from a ticket, it goes out on that ticket's connection and conversation", async () => {
    const d = await desk();
    const opened = (await api(d.adminSession, "POST", "/tickets", { contactId: d.contact.id, status: "open", whatsappId: d.connectionId })).json();
    const created = (
      await api(d.adminSession, "POST", "/schedules", {
        body: "Retorno combinado",
        contactId: d.contact.id,
        ticketId: opened.id,
        sendAt: inSeconds(1),
      })
    ).json();
    expect(created).toMatchObject({ ticketId: opened.id, connectionId: d.connectionId });
    await poll(async () => (await statusOf(created.id)).status).toBe("ENVIADA");
    expect((await statusOf(created.id)).ticketId).toBe(opened.id);
    const history = (await api(d.adminSession, "GET", `/messages/${opened.id}`)).json();
    expect(history.messages.map((m: { body: string }) => m.body)).toEqual(["Retorno combinado"]);
    // A ticket of another contact is refused.
    const other = await buildContact(t.ctx, d.company.id);
    const mismatch = await api(d.adminSession, "POST", "/schedules", {
      body: "Contato errado",
      contactId: other.id,
      ticketId: opened.id,
      sendAt: inSeconds(60),
    });
    expect(mismatch.statusCode).toBe(400);
  });

  it("a connection nobody runs leaves it in ERRO with the reason; retry from the dialog sends it once it is back", async () => {
    const d = await buildTenant(t.app);
    const [connection] = await db()
      .insert(connections)
      .values({ companyId: d.company.id, name: "Desconectada", isDefault: true, status: "DISCONNECTED", channel: "simulator" })
      .returning();
    const contact = await buildContact(t.ctx, d.company.id, { name: "João" });
    const created = (
      await api(d.userSession, "POST", "/schedules", { body: "Mensagem que vai falhar", contactId: contact.id, sendAt: inSeconds(1) })
    ).json();
    await poll(async () => (await statusOf(created.id)).status).toBe("ERRO");
    const failed = (await api(d.userSession, "GET", `/schedules/${created.id}`)).json();
    expect(failed).toMatchObject({ status: "ERRO", sentAt: null, lastError: "ERR_WAPP_NOT_INITIALIZED" });

    // The admin brings the connection up (a QR, then the scan) and the author retries.
    expect((await api(d.adminSession, "PUT", `/whatsappsession/${connection!.id}`)).statusCode).toBeLessThan(300);
    const shown = await poll(async () => (await api(d.adminSession, "GET", `/whatsapp/${connection!.id}`)).json().status).toBe("qrcode");
    void shown;
    const { qrcode } = (await api(d.adminSession, "GET", `/whatsapp/${connection!.id}`)).json();
    expect((await api(d.adminSession, "POST", `/simulator/${connection!.id}/scan`, { code: qrcode })).statusCode).toBe(200);
    const retried = await api(d.userSession, "POST", `/schedules/${created.id}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({ status: "PENDENTE", lastError: null });
    await poll(async () => (await statusOf(created.id)).status).toBe("ENVIADA");
    expect(phoneInbox(t.ctx, connection!.id, contact.number!)).toEqual(["Mensagem que vai falhar"]);
  });

  it("two processes: every schedule is sent once, and one claimed by the process without the session is handed to its owner", async () => {
    const d = await desk();
    const contacts = await Promise.all(Array.from({ length: 6 }, (_, i) => buildContact(t.ctx, d.company.id, { name: `Cliente ${i}` })));
    const ids: number[] = [];
    for (const [i, c] of contacts.entries()) {
      // Half of the calls go to each instance, like a load balancer.
      const app = i % 2 ? second.app : t.app;
      const res = await call(app, d.userSession, "POST", "/schedules", { body: `Aviso ${i} para você`, contactId: c.id, sendAt: inSeconds(1) });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    // One more, whose job the second instance (no session there) is made to run while both runners race for it.
    const [raced] = await db()
      .insert(scheduledMessages)
      .values({ companyId: d.company.id, body: "Aviso disputado", contactId: d.contact.id, userId: d.user.id, sendAt: new Date(Date.now() - 1000) })
      .returning();
    await Promise.all([
      senderFor(second.ctx).due({ companyId: d.company.id, scheduleId: raced!.id }),
      senderFor(second.ctx).due({ companyId: d.company.id, scheduleId: raced!.id }),
      senderFor(t.ctx).due({ companyId: d.company.id, scheduleId: raced!.id }),
    ]);
    for (const id of [...ids, raced!.id]) await poll(async () => (await statusOf(id)).status).toBe("ENVIADA");
    for (const [i, c] of contacts.entries()) expect(phoneInbox(t.ctx, d.connectionId, c.number!)).toEqual([`Aviso ${i} para você`]);
    expect(phoneInbox(t.ctx, d.connectionId, d.contact.number!)).toEqual(["Aviso disputado"]);
    // Both instances' workers polled every job; the database holds one message per schedule.
    for (const id of [...ids, raced!.id]) {
      const rows = await db()
        .select()
        .from(messages)
        .where(and(eq(messages.companyId, d.company.id), like(messages.idempotencyKey, `schedule:${id}:%`)));
      expect(rows, `schedule ${id}`).toHaveLength(1);
    }
    // A job run again later (at-least-once delivery) finds nothing to send.
    await senderFor(second.ctx).due({ companyId: d.company.id, scheduleId: ids[0]! });
    await senderFor(t.ctx).due({ companyId: d.company.id, scheduleId: ids[0]! });
    await senderFor(t.ctx).poll();
    expect(phoneInbox(t.ctx, d.connectionId, contacts[0]!.number!)).toHaveLength(1);
  });

  it("a send interrupted by a dead process is never repeated: a stored-but-unconfirmed attempt is ERRO, a confirmed one ENVIADA, none at all is sent", async () => {
    const d = await desk();
    const ticket = (await api(d.adminSession, "POST", "/tickets", { contactId: d.contact.id, status: "open", whatsappId: d.connectionId })).json();
    const expired = new Date(Date.now() - 1000);
    const base = {
      companyId: d.company.id,
      contactId: d.contact.id,
      userId: d.admin.id,
      connectionId: d.connectionId,
      sendAt: new Date(Date.now() - 5000),
      status: "AGENDADA",
      lockedUntil: expired,
      attempts: 1,
    };
    const [unconfirmed, confirmed, neverStored] = await db()
      .insert(scheduledMessages)
      .values([
        { ...base, body: "Interrompida antes da confirmação" },
        { ...base, body: "Interrompida depois do envio" },
        { ...base, body: "Interrompida antes de gravar" },
      ])
      .returning();
    const message = (id: number, status: string) => ({
      companyId: d.company.id,
      ticketId: ticket.id,
      contactId: d.contact.id,
      connectionId: d.connectionId,
      body: "x",
      fromMe: true,
      status,
      idempotencyKey: scheduleMessageKey(id, 1),
    });
    await db()
      .insert(messages)
      .values([message(unconfirmed!.id, "pending"), message(confirmed!.id, "sent")]);
    await senderFor(t.ctx).poll();
    await poll(async () => (await statusOf(neverStored!.id)).status).toBe("ENVIADA");
    expect(await statusOf(unconfirmed!.id)).toMatchObject({ status: "ERRO", lastError: "ERR_SCHEDULE_INTERRUPTED", sentAt: null });
    expect((await statusOf(confirmed!.id)).status).toBe("ENVIADA");
    expect(phoneInbox(t.ctx, d.connectionId, d.contact.number!)).toEqual(["Interrompida antes de gravar"]);
  });

  it("the minute sweep re-enqueues a late schedule whose job was lost and fails one that no process is sending", async () => {
    const d = await desk();
    const minuteAgo = new Date(Date.now() - 60_000);
    const [lost, orphan] = await db()
      .insert(scheduledMessages)
      .values([
        { companyId: d.company.id, body: "Job perdido", contactId: d.contact.id, userId: d.user.id, sendAt: minuteAgo },
        // Handed to a connection whose owner is gone (no lease), a minute ago.
        {
          companyId: d.company.id,
          body: "Sem dono",
          contactId: d.contact.id,
          userId: d.user.id,
          sendAt: minuteAgo,
          status: "AGENDADA",
          connectionId: null,
          updatedAt: minuteAgo,
        },
      ])
      .returning();
    expect(await jobsOf(lost!.id)).toEqual([]);
    await senderFor(t.ctx).sweep();
    expect(await statusOf(orphan!.id)).toMatchObject({ status: "ERRO", lastError: "ERR_WAPP_NOT_INITIALIZED" });
    await poll(async () => (await statusOf(lost!.id)).status).toBe("ENVIADA");
    expect(phoneInbox(t.ctx, d.connectionId, d.contact.number!)).toEqual(["Job perdido"]);
  });

  it("survives kill -9 of the process running the connection: another process takes the connection over and sends it once", async () => {
    const own = await createTestApp({ ...ENV, CHANNELS_AUTOSTART: "true", CHANNEL_LEASE_TTL_MS: "2000" });
    let child: ChildProcess | undefined;
    try {
      const d = await desk(own.app);
      // Hand the connection to a separate server process: this one lets go of it, the child claims it at boot.
      await own.ctx.channels.stop();
      const src = path.resolve(import.meta.dirname, "../..");
      const script = `
        import { loadConfig } from ${JSON.stringify(path.join(src, "config/env.ts"))};
        import { openDatabase } from ${JSON.stringify(path.join(src, "db/client.ts"))};
        import { createContext } from ${JSON.stringify(path.join(src, "context.ts"))};
        import { buildApp } from ${JSON.stringify(path.join(src, "app.ts"))};
        const url = ${JSON.stringify(urlOf(own.ctx))};
        const config = loadConfig({ ...process.env, NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: ${JSON.stringify(own.config.dataDir)}, DATABASE_URL: url,
          JWT_SECRET: ${JSON.stringify(own.config.jwtSecret)}, JWT_REFRESH_SECRET: ${JSON.stringify(own.config.jwtRefreshSecret)}, WEB_DIST: "/nonexistent",
          CHANNELS_AUTOSTART: "true", CHANNEL_LEASE_TTL_MS: "2000", JOBS_POLL_SECONDS: "0.5", SIMULATOR_ACK_DELAY_MS: "0" });
        const database = await openDatabase({ databaseUrl: url });
        const ctx = createContext(config, database);
        const app = await buildApp(ctx);
        await app.ready();
        await ctx.channels.start();
        console.log("owner " + ctx.channels.ownerId);
        setInterval(() => {}, 1 << 30);`;
      child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
      const childOwner = await new Promise<string>((resolve, reject) => {
        child!.stdout!.on("data", (chunk: Buffer) => {
          const m = /owner (\S+)/.exec(chunk.toString());
          if (m) resolve(m[1]!);
        });
        child!.once("exit", (code) => reject(new Error(`child server exited (${code})`)));
      });
      const leaseOwner = async () =>
        (
          await own.ctx.database.pool!.query<{ owner_id: string }>(
            "select owner_id from connection_leases where connection_id = $1 and company_id = $2",
            [d.connectionId, d.company.id],
          )
        ).rows[0]?.owner_id;
      await expect.poll(leaseOwner, { timeout: 20_000, interval: 100 }).toBe(childOwner);
      const created = (
        await call(own.app, d.userSession, "POST", "/schedules", { body: "Enviada apesar do kill -9", contactId: d.contact.id, sendAt: inSeconds(3) })
      ).json();
      // The owner dies without any chance to clean up: its lease stays until it expires.
      child.kill("SIGKILL");
      await new Promise((resolve) => child!.once("exit", resolve));
      await own.ctx.channels.start();
      const statusNow = async () => (await own.ctx.database.db.select().from(scheduledMessages).where(eq(scheduledMessages.id, created.id)))[0]!;
      await expect.poll(async () => (await statusNow()).status, { timeout: 30_000, interval: 200 }).toBe("ENVIADA");
      expect(await leaseOwner()).toBe(own.ctx.channels.ownerId);
      expect(phoneInbox(own.ctx, d.connectionId, d.contact.number!)).toEqual(["Enviada apesar do kill -9"]);
      const copies = await own.ctx.database.db
        .select()
        .from(messages)
        .where(and(eq(messages.companyId, d.company.id), like(messages.idempotencyKey, `schedule:${created.id}:%`)));
      expect(copies).toHaveLength(1);
    } finally {
      if (child && child.exitCode === null) child.kill("SIGKILL");
      await own.close();
    }
  });

  it("survives a restart: a schedule due while the server was down is sent once by the next one", async () => {
    const own = await createTestApp(ENV);
    let next: Awaited<ReturnType<typeof sibling>> | undefined;
    try {
      const d = await desk(own.app);
      const created = (
        await call(own.app, d.userSession, "POST", "/schedules", {
          body: "Enviada depois do reinício",
          contactId: d.contact.id,
          sendAt: inSeconds(2),
        })
      ).json();
      // Stopped before the time, as `npm start` stops on SIGTERM: sessions and leases first, then the app.
      await own.ctx.channels.stop();
      await own.app.close();
      await new Promise((r) => setTimeout(r, 2500));
      expect((await own.ctx.database.db.select().from(scheduledMessages).where(eq(scheduledMessages.id, created.id)))[0]!.status).toBe("PENDENTE");
      next = await sibling(urlOf(own.ctx));
      // The pairing is stored: the new process starts the connection's session and it comes up connected.
      await next.ctx.channels.command(d.company.id, d.connectionId, "start");
      await expect
        .poll(async () => (await next!.ctx.database.db.select().from(scheduledMessages).where(eq(scheduledMessages.id, created.id)))[0]!.status, {
          timeout: 15_000,
          interval: 100,
        })
        .toBe("ENVIADA");
      expect(phoneInbox(next.ctx, d.connectionId, d.contact.number!)).toEqual(["Enviada depois do reinício"]);
    } finally {
      await next?.app.close();
      await next?.database.close();
      await own.close();
    }
  });
});
