/**
 * Issue 20: a connection's events are handled in order per chat, chats concurrently (ChannelManager lanes).
 * Proved through the simulator provider and the real pipeline and bot: one chat held up does not hold up
 * another, each chat's messages are stored in the order the customer wrote them, and the bot answers each
 * customer in that order while many customers write at once.
 */
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectionDTO } from "@balcao/shared";
import { connectionQueues, connections, contacts, messages } from "../db/schema";
import { automations } from "../modules/chatbot/module";
import { buildQueue, buildTenant, type Session } from "../test/factories";
import { createTestApp, type TestApp } from "../test/testApp";
import { SimulatorSession } from "./simulator/provider";

let t: TestApp;
let tenant: Awaited<ReturnType<typeof buildTenant>>;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0" });
  tenant = await buildTenant(t.app);
});
afterAll(() => t.close());

const call = (session: Session, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session.headers, ...(payload ? { payload } : {}) });

async function simulator(name: string): Promise<{ conn: ConnectionDTO; session: SimulatorSession }> {
  const conn: ConnectionDTO = (await call(tenant.adminSession, "POST", "/whatsapp", { name })).json();
  await call(tenant.adminSession, "POST", `/simulator/${conn.id}/scan`, { code: conn.qrcode });
  const session = t.ctx.channels.session(tenant.company.id, conn.id);
  if (!(session instanceof SimulatorSession)) throw new Error("not a simulator session");
  return { conn, session };
}

/** What one customer (by number) wrote or was sent on a connection, oldest first. */
async function conversation(connectionId: number, number: string, fromMe: boolean): Promise<string[]> {
  const rows = await t.ctx.database.db
    .select({ body: messages.body })
    .from(messages)
    .innerJoin(contacts, eq(contacts.id, messages.contactId))
    .where(and(eq(messages.connectionId, connectionId), eq(contacts.number, number), eq(messages.fromMe, fromMe)))
    .orderBy(asc(messages.id));
  return rows.map((r) => r.body);
}

describe("per-chat order, chats concurrently", () => {
  it("a chat held up in the pipeline does not hold up another chat; its own later messages wait their turn", async () => {
    const { conn, session } = await simulator("Faixas");
    const slow = "5511988880001";
    const other = "5511988880002";
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    // Runs after the pipeline (registered later): the first message of `slow` is stored, then its chat waits here.
    const unsubscribe = t.ctx.channels.onEvent(async (_ctx, event) => {
      if (event.type === "message" && event.message.chat.id === slow && event.message.body === "primeira") {
        held = true;
        await gate;
      }
    });
    try {
      const first = session.customerSend(slow, { type: "text", body: "primeira" });
      const second = session.customerSend(slow, { type: "text", body: "segunda" });
      await expect.poll(() => held, { timeout: 10_000, interval: 20 }).toBe(true);
      // Another chat goes through while `slow` is held (with one queue per connection this would never resolve).
      await session.customerSend(other, { type: "text", body: "outra conversa" });
      expect(await conversation(conn.id, other, false)).toEqual(["outra conversa"]);
      // `slow`'s second message waits behind its first.
      expect(await conversation(conn.id, slow, false)).toEqual(["primeira"]);
      release();
      await Promise.all([first, second]);
      expect(await conversation(conn.id, slow, false)).toEqual(["primeira", "segunda"]);
    } finally {
      release();
      unsubscribe();
    }
  });

  it("the bot answers every customer in the order they wrote, with many customers writing at once", async () => {
    const { conn } = await simulator("Menu concorrente");
    const db = t.ctx.database.db;
    await db.update(connections).set({ greetingMessage: "Bem-vindo!" }).where(eq(connections.id, conn.id));
    for (const [i, name] of ["Vendas", "Suporte"].entries()) {
      const queue = await buildQueue(t.ctx, tenant.company.id, { name: `${name} ${conn.id}`, greetingMessage: `Fila ${name}`, orderQueue: i });
      await db.insert(connectionQueues).values({ companyId: tenant.company.id, connectionId: conn.id, queueId: queue.id });
    }
    const session = t.ctx.channels.session(tenant.company.id, conn.id) as SimulatorSession;
    const phones = Array.from({ length: 6 }, (_, i) => `5511986${510001 + i * 13}`);
    // Every customer writes "oi" then "2" at once, without waiting for any answer: "oi" opens the menu, "2"
    // picks Suporte. Handled out of order, "2" would open the menu and "oi" would be an invalid option.
    await Promise.all(
      phones.flatMap((phone) => [
        session.customerSend(phone, { type: "text", body: "oi" }),
        session.customerSend(phone, { type: "text", body: "2" }),
      ]),
    );
    await automations.get(t.ctx)!.idle();
    for (const phone of phones) {
      expect(await conversation(conn.id, phone, false)).toEqual(["oi", "2"]);
      const replies = await conversation(conn.id, phone, true);
      expect(replies).toHaveLength(2);
      expect(replies[0]).toMatch(/^Bem-vindo!/);
      expect(replies[0]).toContain("Suporte");
      expect(replies[1]).toBe("Fila Suporte");
    }
  }, 90_000);
});
