/**
 * Two app instances on one database, each with its own pool like two processes behind a load balancer: a
 * reply, a deletion or a read receipt posted to the process that does not run the connection is carried out
 * by the one that does. A reply whose owner does not answer waits in the send queue (setting
 * sendWhileDisconnected "queue", the default) or fails with retry ("fail"), and is never sent twice.
 */
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../app";
import { connectionLeases, connections, messages, tickets } from "../../db/schema";
import { phoneInbox } from "../../test/campaigns";
import { buildTenant, type Session } from "../../test/factories";
import { secondProcess, type SecondProcess } from "../../test/secondProcess";
import { createTestApp, type TestApp } from "../../test/testApp";
import { pipelines } from "./module";
import { sendQueueOf } from "./sendQueue";
import { relayOf } from "./sendRelay";

let t: TestApp;
let second: SecondProcess;
let tenant: Awaited<ReturnType<typeof buildTenant>>;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0", SEND_RELAY_TIMEOUT_MS: "1500" });
  second = await secondProcess(t);
  tenant = await buildTenant(t.app);
});

afterAll(async () => {
  await second.app.close();
  await second.database.close();
  await t.close();
});

const call = (app: App, session: Session, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  app.inject({ method, url: `/api${url}`, headers: session.headers, ...(payload ? { payload } : {}) });

/** A customer writes on the connection; returns the ticket. */
async function ticketOn(connectionId: number) {
  await pipelines.get(t.ctx)!.handle(
    { companyId: tenant.company.id, connectionId },
    {
      type: "message",
      message: {
        providerMessageId: `R-${++seq}`,
        chat: { id: `551198877${String(1000 + seq)}`, kind: "phone", pushName: "Rita" },
        fromMe: false,
        kind: "chat",
        body: "oi",
        timestamp: new Date(),
      },
    },
  );
  const [row] = await t.ctx.database.db
    .select()
    .from(tickets)
    .where(and(eq(tickets.companyId, tenant.company.id), eq(tickets.connectionId, connectionId)))
    .orderBy(desc(tickets.id))
    .limit(1);
  const accepted = await t.app.inject({
    method: "PUT",
    url: `/api/tickets/${row!.id}`,
    headers: tenant.adminSession.headers,
    payload: { status: "open", userId: tenant.admin.id },
  });
  expect(accepted.statusCode).toBe(200);
  return row!;
}

/** A connection whose owner (per its lease) is a process that no longer answers. */
async function ghostConnection(): Promise<{ id: number }> {
  const [conn] = await t.ctx.database.db
    .insert(connections)
    .values({ companyId: tenant.company.id, name: `Fantasma ${++seq}`, channel: "simulator", status: "CONNECTED", token: `ghost-${seq}` })
    .returning();
  await t.ctx.database.db
    .insert(connectionLeases)
    .values({ connectionId: conn!.id, companyId: tenant.company.id, ownerId: "ghost:1:dead", expiresAt: new Date(Date.now() + 60_000) });
  return { id: conn!.id };
}

let live: { id: number } | undefined;
/** One simulator connection run by the first process (the plan allows five per company). */
async function liveConnection(): Promise<{ id: number }> {
  if (!live) {
    const conn = (await call(t.app, tenant.adminSession, "POST", "/whatsapp", { name: `Relé ${++seq}` })).json();
    await call(t.app, tenant.adminSession, "POST", `/simulator/${conn.id}/scan`, { code: conn.qrcode });
    await expect.poll(() => t.ctx.channels.isLocal(conn.id), { timeout: 15_000 }).toBe(true);
    expect(second.ctx.channels.isLocal(conn.id)).toBe(false);
    live = { id: conn.id as number };
  }
  return live;
}

describe("sends through the connection's owner", () => {
  it("a reply posted to the other process is delivered by the owner, with the owner's result", async () => {
    const conn = await liveConnection();
    const ticket = await ticketOn(conn.id);
    const res = await call(second.app, tenant.adminSession, "POST", `/messages/${ticket.id}`, { body: "Resposta pelo outro nó" });
    expect(res.statusCode).toBe(201);
    const [row] = await t.ctx.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, true)));
    expect(row).toMatchObject({ body: expect.stringContaining("Resposta pelo outro nó"), status: "sent" });
    expect(row!.providerMessageId).toBeTruthy();
  });

  it("an owner that never answers, setting fail: the message is failed (with retry) and the caller gets the send error", async () => {
    const conn = await ghostConnection();
    const ticket = await ticketOn(conn.id);
    expect((await call(t.app, tenant.adminSession, "PUT", "/settings/sendWhileDisconnected", { value: "fail" })).statusCode).toBe(200);
    try {
      const res = await call(second.app, tenant.adminSession, "POST", `/messages/${ticket.id}`, { body: "Ninguém entrega" });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: "ERR_SENDING_WAPP_MSG" });
      const [row] = await t.ctx.database.db
        .select()
        .from(messages)
        .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, true)));
      expect(row!.status).toBe("failed");
    } finally {
      await call(t.app, tenant.adminSession, "PUT", "/settings/sendWhileDisconnected", { value: "queue" });
    }
  });

  it("an owner that never answers, setting queue (default): the reply stays pending, queued, and the next owner delivers it once", async () => {
    const conn = await ghostConnection();
    const ticket = await ticketOn(conn.id);
    const phone = `551198877${String(1000 + seq)}`;
    const res = await call(second.app, tenant.adminSession, "POST", `/messages/${ticket.id}`, { body: "Espero o dono" });
    expect(res.statusCode, res.body).toBe(201);
    const [m] = res.json() as { id: number; status: string }[];
    expect(m).toMatchObject({ status: "pending" });
    const rowOf = async () => (await t.ctx.database.db.select().from(messages).where(eq(messages.id, m!.id)))[0]!;
    expect((await rowOf()).dataJson).toMatchObject({ queued: "waiting" });
    // The dead owner's lease goes; this process starts the connection and it is CONNECTED again.
    await t.ctx.database.db.delete(connectionLeases).where(eq(connectionLeases.connectionId, conn.id));
    expect((await call(t.app, tenant.adminSession, "POST", `/whatsappsession/${conn.id}`)).statusCode).toBe(200);
    await expect.poll(() => t.ctx.channels.isLocal(conn.id), { timeout: 15_000 }).toBe(true);
    const shown = (await call(t.app, tenant.adminSession, "GET", `/whatsapp/${conn.id}`)).json() as { qrcode: string };
    expect((await call(t.app, tenant.adminSession, "POST", `/simulator/${conn.id}/scan`, { code: shown.qrcode })).statusCode).toBe(200);
    await expect.poll(async () => (await rowOf()).status, { timeout: 15_000 }).toBe("sent");
    // Once: another run of the queue and its sweep find nothing more to send.
    await sendQueueOf(t.ctx).flush(t.ctx.services.messages, { companyId: tenant.company.id, connectionId: conn.id });
    await sendQueueOf(t.ctx).sweep();
    expect(phoneInbox(t.ctx, conn.id, phone).filter((b) => b === "Espero o dono")).toHaveLength(1);
    expect((await rowOf()).dataJson ?? {}).not.toHaveProperty("queued");
  });

  it("a relayed send that reaches the owner after the requester queued the message is not sent then; the queue sends it once", async () => {
    const conn = await liveConnection();
    const ticket = await ticketOn(conn.id);
    const phone = `551198877${String(1000 + seq)}`;
    // What a requester that gave up leaves: the reply pending and queued.
    const [m] = await t.ctx.database.db
      .insert(messages)
      .values({
        companyId: tenant.company.id,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        connectionId: conn.id,
        body: "Chegou tarde",
        fromMe: true,
        read: true,
        status: "pending",
        dataJson: { queued: "waiting" },
      })
      .returning();
    // Its relay request, late, reaches the owner: answered, nothing sent — the message keeps its place in the queue.
    const late = await relayOf(second.ctx).ask({ kind: "send", companyId: tenant.company.id, connectionId: conn.id, messageId: m!.id, voice: false });
    expect(late).toEqual({ error: null });
    const [waiting] = await t.ctx.database.db.select().from(messages).where(eq(messages.id, m!.id));
    expect(waiting).toMatchObject({ status: "pending", dataJson: { queued: "waiting" } });
    expect(phoneInbox(t.ctx, conn.id, phone)).not.toContain("Chegou tarde");
    // The queue's run delivers it, once.
    await sendQueueOf(t.ctx).flush(t.ctx.services.messages, { companyId: tenant.company.id, connectionId: conn.id });
    const [after] = await t.ctx.database.db.select().from(messages).where(eq(messages.id, m!.id));
    expect(after!.status).toBe("sent");
    expect(phoneInbox(t.ctx, conn.id, phone).filter((b) => b === "Chegou tarde")).toHaveLength(1);
  });

  it("the owner never hands one message over twice at once (a late relayed request and a queue run together)", async () => {
    const conn = await liveConnection();
    const ticket = await ticketOn(conn.id);
    const phone = `551198877${String(1000 + seq)}`;
    const [m] = await t.ctx.database.db
      .insert(messages)
      .values({
        companyId: tenant.company.id,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        connectionId: conn.id,
        body: "Só uma vez",
        fromMe: true,
        read: true,
        status: "pending",
      })
      .returning();
    const service = t.ctx.services.messages;
    await Promise.all([service.deliverHere(tenant.company.id, m!.id), service.deliverHere(tenant.company.id, m!.id)]);
    const [after] = await t.ctx.database.db.select().from(messages).where(eq(messages.id, m!.id));
    expect(after!.status).toBe("sent");
    expect(phoneInbox(t.ctx, conn.id, phone).filter((b) => b === "Só uma vez")).toHaveLength(1);
  });

  it("a deletion posted to the other process deletes the message on WhatsApp through the owner", async () => {
    const conn = await liveConnection();
    const ticket = await ticketOn(conn.id);
    const sent = await call(second.app, tenant.adminSession, "POST", `/messages/${ticket.id}`, { body: "Apagar pelo outro nó" });
    expect(sent.statusCode).toBe(201);
    const [row] = await t.ctx.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, true)));
    expect(row!.providerMessageId).toBeTruthy();
    const phone = `551198877${String(1000 + seq)}`;
    const deleted = await call(second.app, tenant.adminSession, "DELETE", `/messages/${row!.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({ id: row!.id, isDeleted: true });
    const onPhone = (await call(t.app, tenant.adminSession, "GET", `/simulator/${conn.id}/phones/${phone}/messages`)).json() as {
      id: string;
      deleted: boolean;
    }[];
    expect(onPhone.find((m) => m.id === row!.providerMessageId)).toMatchObject({ deleted: true });
  });

  it("a deletion the owner refuses answers the owner's error and leaves the message as it was", async () => {
    const conn = await liveConnection();
    const ticket = await ticketOn(conn.id);
    // Stored as sent with an id WhatsApp does not know: the simulator refuses to delete it.
    const [m] = await t.ctx.database.db
      .insert(messages)
      .values({
        companyId: tenant.company.id,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        connectionId: conn.id,
        body: "desconhecida",
        fromMe: true,
        read: true,
        status: "sent",
        providerMessageId: `UNKNOWN-${seq}`,
      })
      .returning();
    const res = await call(second.app, tenant.adminSession, "DELETE", `/messages/${m!.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "ERR_DELETE_WAPP_MSG" });
    const [after] = await t.ctx.database.db.select().from(messages).where(eq(messages.id, m!.id));
    expect(after!.isDeleted).toBe(false);
  });

  it("a deletion whose owner never answers is refused (ERR_DELETE_WAPP_MSG), nothing marked deleted", async () => {
    const [conn] = await t.ctx.database.db
      .insert(connections)
      .values({ companyId: tenant.company.id, name: `Fantasma ${++seq}`, channel: "simulator", status: "CONNECTED", token: `ghost-${seq}` })
      .returning();
    await t.ctx.database.db
      .insert(connectionLeases)
      .values({ connectionId: conn!.id, companyId: tenant.company.id, ownerId: "ghost:1:dead", expiresAt: new Date(Date.now() + 60_000) });
    const ticket = await ticketOn(conn!.id);
    const [m] = await t.ctx.database.db
      .insert(messages)
      .values({
        companyId: tenant.company.id,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        connectionId: conn!.id,
        body: "ninguém apaga",
        fromMe: true,
        read: true,
        status: "sent",
        providerMessageId: `GHOST-${seq}`,
      })
      .returning();
    const res = await call(second.app, tenant.adminSession, "DELETE", `/messages/${m!.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "ERR_DELETE_WAPP_MSG" });
    const [after] = await t.ctx.database.db.select().from(messages).where(eq(messages.id, m!.id));
    expect(after!.isDeleted).toBe(false);
  });

  it("reading a ticket on the other process sends the read receipts through the owner", async () => {
    const conn = await liveConnection();
    const phone = `551197766${String(1000 + seq)}`;
    const typed = await call(t.app, tenant.adminSession, "POST", `/simulator/${conn.id}/phones/${phone}/messages`, { type: "text", body: "leu?" });
    expect(typed.statusCode).toBe(201);
    const providerMessageId = (typed.json() as { id: string }).id;
    const stored = async () =>
      (
        await t.ctx.database.db
          .select({ ticketId: messages.ticketId })
          .from(messages)
          .where(and(eq(messages.companyId, tenant.company.id), eq(messages.providerMessageId, providerMessageId)))
      )[0];
    await expect.poll(stored, { timeout: 15_000 }).toBeTruthy();
    const ticket = { id: (await stored())!.ticketId };
    const onPhone = async () =>
      (
        (await call(t.app, tenant.adminSession, "GET", `/simulator/${conn.id}/phones/${phone}/messages`)).json() as { id: string; ack: number }[]
      ).find((m) => m.id === providerMessageId);
    expect((await onPhone())!.ack).toBeLessThan(3);
    const read = await call(second.app, tenant.adminSession, "POST", `/tickets/${ticket.id}/read`);
    expect(read.statusCode).toBe(204);
    await expect.poll(async () => (await onPhone())?.ack, { timeout: 10_000 }).toBe(3);
  });
});
