/**
 * Issue 20: the text messages that reach a connection while one of its transactions stores others are stored
 * together in the next one (InboundPipeline.enqueue): one outbox write and one commit for all of them, every
 * customer's messages in their order, and a batch that one message spoils stores the others, each alone.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InboundMessage } from "../../channels/types";
import { messages, outboxEvents } from "../../db/schema";
import { buildConnectedTenant } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { pipelines } from "./module";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let seq = 0;
const inbound = (phone: string, body: string, providerMessageId = `WA-BATCH-${++seq}-${Date.now()}`): InboundMessage => ({
  providerMessageId,
  chat: { id: phone, kind: "phone", pushName: `Cliente ${phone.slice(-2)}` },
  fromMe: false,
  kind: "chat",
  body,
  timestamp: new Date(),
});

const connectedSource = async (name: string) => (await buildConnectedTenant(t.app, name)).source;

/** The transactions (txids) that wrote the company's `messages.created` events. */
async function writingTransactions(companyId: number): Promise<Set<string>> {
  const rows = await t.ctx.database.db
    .select({ txid: sql<string>`${outboxEvents.txid}::text` })
    .from(outboxEvents)
    .where(and(eq(outboxEvents.companyId, companyId), eq(outboxEvents.type, "messages.created")));
  return new Set(rows.map((r) => r.txid));
}

describe("inbound batches", () => {
  it("stores the messages that arrive during a transaction together, each customer's in their order", async () => {
    const source = await connectedSource("Lotes");
    const pipeline = pipelines.get(t.ctx)!;
    const phones = Array.from({ length: 10 }, (_, i) => `55119876500${String(i).padStart(2, "0")}`);
    // Each customer writes three messages, each after the previous one was stored (the channel manager's lanes);
    // the customers write at once.
    await Promise.all(
      phones.map(async (phone) => {
        for (const n of [1, 2, 3]) expect(await pipeline.receive(source, inbound(phone, `${phone} #${n}`))).toEqual(expect.any(Number));
      }),
    );
    const stored = await t.ctx.database.db
      .select({ body: messages.body, contactId: messages.contactId })
      .from(messages)
      .where(eq(messages.companyId, source.companyId))
      .orderBy(asc(messages.id));
    expect(stored).toHaveLength(30);
    for (const phone of phones)
      expect(stored.filter((m) => m.body.startsWith(phone)).map((m) => m.body)).toEqual([1, 2, 3].map((n) => `${phone} #${n}`));
    // 30 messages, at most half as many transactions: the first two alone, then those that waited together.
    const transactions = await writingTransactions(source.companyId);
    expect(transactions.size).toBeGreaterThan(1);
    expect(transactions.size).toBeLessThanOrEqual(15);
  });

  it("a batch that one message spoils (a redelivery) stores the others, each alone, and the redelivery once", async () => {
    const source = await connectedSource("Lote com repetida");
    const pipeline = pipelines.get(t.ctx)!;
    const earlier = inbound("5511987651000", "já recebida");
    const earlierId = await pipeline.receive(source, earlier);
    // One message in flight, and while it is stored a redelivery of the earlier one and three new ones wait:
    // they form the next batch, which the redelivery's unique index rolls back.
    const results = await Promise.all([
      pipeline.receive(source, inbound("5511987651001", "em voo")),
      pipeline.receive(source, inbound("5511987651000", "já recebida", earlier.providerMessageId)),
      ...["5511987651002", "5511987651003", "5511987651004"].map((phone) => pipeline.receive(source, inbound(phone, `nova de ${phone}`))),
    ]);
    expect(results[1]).toBeNull();
    for (const i of [0, 2, 3, 4]) expect(results[i]).toEqual(expect.any(Number));
    const stored = await t.ctx.database.db
      .select({ id: messages.id, body: messages.body })
      .from(messages)
      .where(eq(messages.companyId, source.companyId));
    expect(stored.map((m) => m.body).sort()).toEqual(
      ["já recebida", "em voo", "nova de 5511987651002", "nova de 5511987651003", "nova de 5511987651004"].sort(),
    );
    expect(stored.find((m) => m.body === "já recebida")!.id).toBe(earlierId);
    // Every stored message has its event, written once.
    const events = await t.ctx.database.db
      .select({ messageId: sql<number>`(${outboxEvents.payload}->'message'->>'id')::int` })
      .from(outboxEvents)
      .where(
        and(
          eq(outboxEvents.companyId, source.companyId),
          eq(outboxEvents.type, "messages.created"),
          inArray(
            sql<number>`(${outboxEvents.payload}->'message'->>'id')::int`,
            stored.map((m) => m.id),
          ),
        ),
      );
    expect(events.map((e) => e.messageId).sort((a, b) => a - b)).toEqual(stored.map((m) => m.id).sort((a, b) => a - b));
  });
});
