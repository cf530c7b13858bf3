import { randomBytes } from "node:crypto";
import { contacts, messages, tags, tickets, ticketNotes } from "../../db/schema";
import { buildCompany, buildPlan, buildQueue, buildUser, login, type Session } from "../factories";
import type { TestApp } from "../testApp";

/**
 * A company with one of everything the API serves by id, every name carrying a marker that must never
 * appear in another company's responses; and its admin and attendant signed in.
 */
export interface Tenant {
  marker: string;
  companyId: number;
  admin: Session & { email: string };
  user: Session & { email: string };
  ids: {
    contact: number;
    ticket: number;
    ticketUuid: string;
    tag: number;
    queue: number;
    quickMessage: number;
    user: number;
    connection: number;
    message: number;
    note: number;
    media: string | null;
    /** An internal chat of the admin and the attendant, with a message carrying the marker. */
    chat: number;
  };
}

let ipSeq = 0;
/** Logins from distinct addresses: the suite logs in often and must not trip the per-IP limiter. */
export const nextIp = () => `10.${200 + ((ipSeq >> 16) % 50)}.${(ipSeq >> 8) & 255}.${ipSeq++ & 255}`;

export async function buildWorld(t: TestApp): Promise<Tenant> {
  const marker = `CANARY${randomBytes(5).toString("hex")}`;
  const db = t.ctx.database.db;
  const plan = await buildPlan(t.ctx, { users: 1000, connections: 1000, queues: 1000 });
  const company = await buildCompany(t.ctx, { planId: plan.id, name: `Empresa ${marker}` });
  const adminRow = await buildUser(t.ctx, company.id, { profile: "admin", name: `Admin ${marker}` });
  const userRow = await buildUser(t.ctx, company.id, { profile: "user", name: `Atendente ${marker}` });
  const admin = { ...(await login(t.app, adminRow.email, undefined, nextIp())), email: adminRow.email };
  const user = { ...(await login(t.app, userRow.email, undefined, nextIp())), email: userRow.email };
  const call = async (method: "POST" | "PUT", url: string, payload: object) => {
    const res = await t.app.inject({ method, url: `/api${url}`, headers: admin.headers, payload });
    if (res.statusCode >= 300) throw new Error(`world: ${method} ${url} → ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const queue = await buildQueue(t.ctx, company.id, { name: `Fila ${marker}` });
  const connection = await call("POST", "/whatsapp", { name: `Conexão ${marker}` });
  await call("POST", `/simulator/${connection.id}/scan`, { code: connection.qrcode });
  const [contact] = await db
    .insert(contacts)
    .values({ companyId: company.id, name: `Cliente ${marker}`, number: `5511${String(900_000_000 + Math.floor(Math.random() * 99_999_999))}` })
    .returning();
  const [ticket] = await db
    .insert(tickets)
    .values({
      companyId: company.id,
      contactId: contact!.id,
      connectionId: connection.id,
      queueId: queue.id,
      userId: adminRow.id,
      status: "open",
      lastMessage: `Olá ${marker}`,
    })
    .returning();
  const [message] = await db
    .insert(messages)
    .values({
      companyId: company.id,
      ticketId: ticket!.id,
      contactId: contact!.id,
      connectionId: connection.id,
      body: `Mensagem ${marker}`,
      fromMe: false,
      read: false,
      mediaType: "chat",
      ack: 0,
    })
    .returning();
  const [tag] = await db
    .insert(tags)
    .values({ companyId: company.id, name: `Tag ${marker}`, color: "#2E7D32" })
    .returning();
  const quickMessage = await call("POST", "/quick-messages", { shortcode: `qm${marker.slice(-6)}`, message: `Resposta ${marker}` });
  const [note] = await db
    .insert(ticketNotes)
    .values({ companyId: company.id, ticketId: ticket!.id, contactId: contact!.id, userId: adminRow.id, note: `Nota ${marker}` })
    .returning();
  const chat = await call("POST", "/chats", { title: `Chat ${marker}`, users: [{ id: userRow.id }] });
  await call("POST", `/chats/${chat.id}/messages`, { message: `Recado ${marker}` });
  return {
    marker,
    companyId: company.id,
    admin,
    user,
    ids: {
      contact: contact!.id,
      ticket: ticket!.id,
      ticketUuid: ticket!.uuid,
      tag: tag!.id,
      queue: queue.id,
      quickMessage: quickMessage.id,
      user: userRow.id,
      connection: connection.id,
      message: message!.id,
      note: note!.id,
      media: null,
      chat: chat.id,
    },
  };
}

/** A platform super user (its own company). */
export async function buildSuper(t: TestApp): Promise<Session & { email: string }> {
  const platform = await buildCompany(t.ctx);
  const row = await buildUser(t.ctx, platform.id, { profile: "admin", super: true });
  return { ...(await login(t.app, row.email, undefined, nextIp())), email: row.email };
}
