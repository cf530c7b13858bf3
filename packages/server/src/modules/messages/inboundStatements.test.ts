/**
 * Issue 20: what one inbound message costs the database, counted (not timed). The pipeline writes its events
 * in the storing transaction and builds the outgoing DTOs from the rows in hand; a known customer writing
 * to their open ticket needs no identity write. The DTO built from the rows equals the one read back.
 */
import { and, desc, eq, gt, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessageDTO, TicketDTO } from "@balcao/shared";
import type { InboundMessage } from "../../channels/types";
import { attendanceCycles, contacts, outboxEvents, tickets } from "../../db/schema";
import type { DomainEvents } from "../../events/bus";
import { automations } from "../chatbot/module";
import { dispatcherFor } from "../campaigns/dispatcher";
import { buildConnectedTenant } from "../../test/factories";
import { statementsOf } from "../../test/statementCount";
import { createTestApp, type TestApp } from "../../test/testApp";
import { pipelines } from "./module";
import { presentTicketById } from "../tickets/presenter";
import { presentMessagesById } from "./presenter";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let seq = 0;
const inbound = (body: string, overrides: Partial<InboundMessage> = {}): InboundMessage => ({
  providerMessageId: `WA-STMT-${++seq}-${Date.now()}`,
  chat: { id: "5511987650001", kind: "phone", pushName: "Ana Souza" },
  fromMe: false,
  kind: "chat",
  body,
  timestamp: new Date(),
  ...overrides,
});

/** A new company with a connected connection (no greeting): where the counted messages arrive. */
const connectedTenant = (name: string) => buildConnectedTenant(t.app, name);

describe("inbound pipeline statements", () => {
  it("a known customer's message to their open ticket: at most 6 statements, events included", async () => {
    const { tenant, source } = await connectedTenant("Contagem");
    const pipeline = pipelines.get(t.ctx)!;
    const first = inbound("primeira");
    await pipeline.receive(source, first);
    // BEGIN, identities with their contact, the live ticket with its DTO's joins and tags (for update), message
    // with its ticket's update, outbox insert with its NOTIFY, COMMIT. 12 before issue 20's cuts: the duplicate
    // check (now the unique index's), the contact, the DTO's re-read and its tags, the NOTIFY on its own, the
    // ticket's update on its own.
    // The fewer of two messages, each once the previous one's delivery and bot turn are over: a pool client
    // opened for one of them adds its own setup statements, and work waiting for a pool client resumes in the
    // context of the code that released it, so a round still running would be counted here.
    const counts: number[] = [];
    for (const body of ["segunda", "terceira"]) {
      await t.ctx.events.drain();
      await automations.get(t.ctx)!.idle();
      counts.push(await statementsOf(t, () => pipeline.receive(source, inbound(body))));
    }
    expect(Math.min(...counts)).toBeLessThanOrEqual(6);

    // The DTO sent to sockets (built from the rows in hand, quoted message included) is the one read back.
    const id = await pipeline.receive(source, inbound("respondendo", { quotedProviderMessageId: first.providerMessageId }));
    const [event] = await t.ctx.database.db
      .select({ payload: outboxEvents.payload })
      .from(outboxEvents)
      .where(and(eq(outboxEvents.companyId, tenant.company.id), eq(outboxEvents.type, "messages.created")))
      .orderBy(desc(outboxEvents.id))
      .limit(1);
    const sent = (event!.payload as { message: MessageDTO }).message;
    const [readBack] = await presentMessagesById(t.ctx.database.db, [id!]);
    expect(sent).toEqual(JSON.parse(JSON.stringify(readBack)));
    expect(sent.quotedMsg).toMatchObject({ body: "primeira", fromMe: false });
  });

  it("a new customer's first message: at most 7 statements, their first ticket and its attendance cycle included", async () => {
    const { tenant, source } = await connectedTenant("Novos");
    const pipeline = pipelines.get(t.ctx)!;
    // Warm the pool's clients on another new customer, then count one.
    await pipeline.receive(source, inbound("aquecendo", { chat: { id: "5511966660001", kind: "phone", pushName: "Ana" } }));
    await t.ctx.events.drain();
    await automations.get(t.ctx)!.idle();
    const [{ last }] = await t.ctx.database.db.select({ last: sql<number>`coalesce(max(${outboxEvents.id}), 0)::int` }).from(outboxEvents);
    const before = last;
    // BEGIN, the candidates by identity, 9th-digit variant and number column (none), the contact with its identities,
    // the ticket with its first cycle and connection's name, message with its ticket update, outbox insert with its
    // NOTIFY, COMMIT. 15 before issue 20's cuts: three lookups, a savepoint and its release around two inserts, the
    // cycle's own insert, the ticket's DTO re-read. A contact this transaction created has no ticket yet: no
    // live-ticket lookups, no lock, no interceptor.
    const count = await statementsOf(t, () =>
      pipeline.receive(source, inbound("primeira vez", { chat: { id: "5511966660002", kind: "phone", pushName: "Bia" } })),
    );
    expect(count).toBeLessThanOrEqual(7);
    const [contact] = await t.ctx.database.db
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.companyId, tenant.company.id), eq(contacts.number, "5511966660002")));
    const cycles = await t.ctx.database.db
      .select({ queuedAt: attendanceCycles.queuedAt, firstOfContact: attendanceCycles.firstOfContact, userId: attendanceCycles.userId })
      .from(attendanceCycles)
      .innerJoin(tickets, eq(tickets.id, attendanceCycles.ticketId))
      .where(eq(tickets.contactId, contact!.id));
    expect(cycles).toEqual([{ queuedAt: expect.any(Date), firstOfContact: true, userId: null }]);
    // Its events, in one outbox write: the new contact first.
    const rows = await t.ctx.database.db
      .select({ type: outboxEvents.type, payload: outboxEvents.payload })
      .from(outboxEvents)
      .where(and(eq(outboxEvents.companyId, tenant.company.id), gt(outboxEvents.id, before)))
      .orderBy(outboxEvents.id);
    expect(rows.map((e) => e.type).slice(0, 4)).toEqual(["contacts.created", "tickets.updated", "messages.created", "messages.received"]);
    // The new ticket's DTO, built from the rows in hand, is the one read back (its connection's name included).
    const sent = (rows[1]!.payload as { ticket: TicketDTO }).ticket;
    const readBack = await presentTicketById(t.ctx.database.db, tenant.company.id, sent.id);
    expect(sent).toEqual(JSON.parse(JSON.stringify(readBack)));
    expect(sent).toMatchObject({ status: "pending", unreadMessages: 1, lastMessage: "primeira vez", whatsapp: { name: "Novos" }, tags: [] });

    // Once that ticket is closed, the customer's next message opens another one, whose cycle is not a lead (the
    // lead test reads the contact from the row the same statement inserts).
    await t.ctx.database.db.update(tickets).set({ status: "closed" }).where(eq(tickets.id, sent.id));
    await pipeline.receive(source, inbound("voltei", { chat: { id: "5511966660002", kind: "phone", pushName: "Bia" } }));
    const leads = await t.ctx.database.db
      .select({ firstOfContact: attendanceCycles.firstOfContact })
      .from(attendanceCycles)
      .innerJoin(tickets, eq(tickets.id, attendanceCycles.ticketId))
      .where(eq(tickets.contactId, contact!.id))
      .orderBy(attendanceCycles.id);
    expect(leads).toEqual([{ firstOfContact: true }, { firstOfContact: false }]);
  });

  it("the bot's turn on a known customer's message: no statement when the event's ticket says it has nothing to do, else 1 (the ticket)", async () => {
    const { tenant, source } = await connectedTenant("Contagem do robô");
    const pipeline = pipelines.get(t.ctx)!;
    const automation = automations.get(t.ctx)!;
    await pipeline.receive(source, inbound("primeira"));
    await automation.idle();
    const turn = async (body: string, asWrittenBefore = false) => {
      const messageId = (await pipeline.receive(source, inbound(body)))!;
      // The event as the pipeline wrote it (with the message's body and media type, and the ticket as the message
      // found it, since issue 20).
      const [row] = await t.ctx.database.db
        .select({ payload: outboxEvents.payload })
        .from(outboxEvents)
        .where(and(eq(outboxEvents.companyId, tenant.company.id), eq(outboxEvents.type, "messages.received")))
        .orderBy(desc(outboxEvents.id))
        .limit(1);
      const { ticket, ...written } = row!.payload as DomainEvents["messages.received"];
      expect(written).toMatchObject({ messageId, body, mediaType: "chat" });
      await automation.idle();
      const event = asWrittenBefore ? written : { ...written, ticket };
      return { ticket, statements: await statementsOf(t, () => automation.bot.onMessage({ ...event, companyId: source.companyId })) };
    };
    // Unrouted and pending, on a connection that offers no queue (the menu; the read cache's), in a company that
    // keeps no opening hours (scheduleType, the read cache's): nothing to do, decided without a statement. The
    // larger of three turns: a statement queued behind the outbox's rounds for a pool connection runs in the
    // context of the round that freed it and escapes the count (a pool opens no setup statements, so nothing is
    // ever counted twice).
    const pending = [await turn("segunda"), await turn("terceira"), await turn("quarta")];
    expect(pending[0]!.ticket).toEqual({ status: "pending", userId: null, queueId: null, isGroup: false });
    expect(Math.max(...pending.map((x) => x.statements))).toBe(0);
    // An event written before it carried its ticket: the ticket with its contact, company clock and connection (the
    // body comes with the event; 2 statements before it did, 4 before the read cache).
    const legacy = [await turn("quinta", true), await turn("sexta", true), await turn("sábado", true)];
    expect(Math.max(...legacy.map((x) => x.statements))).toBe(1);
    // Attended by someone: no bot, and no statement either.
    await t.ctx.database.db.update(tickets).set({ status: "open", userId: tenant.admin.id }).where(eq(tickets.companyId, tenant.company.id));
    const attended = [await turn("domingo"), await turn("segunda de novo"), await turn("terça")];
    expect(attended[0]!.ticket).toEqual({ status: "open", userId: tenant.admin.id, queueId: null, isGroup: false });
    expect(Math.max(...attended.map((x) => x.statements))).toBe(0);
  });

  it("the campaigns' share of a customer's message while no shipping of the company awaits a reply: no statement (3 with a transaction, then 1 with a probe)", async () => {
    const { source } = await connectedTenant("Contagem das campanhas");
    const pipeline = pipelines.get(t.ctx)!;
    const dispatcher = dispatcherFor(t.ctx);
    const reply = async (body: string) => {
      const messageId = (await pipeline.receive(source, inbound(body)))!;
      const [message] = await presentMessagesById(t.ctx.database.db, [messageId]);
      await t.ctx.events.drain();
      await automations.get(t.ctx)!.idle();
      return statementsOf(t, () => dispatcher.onReply(source.companyId, messageId, source.connectionId, message!.contactId!));
    };
    // The larger of three, as above: the read cache knows none awaits (campaigns.test.ts: a request drops it).
    const counts = [await reply("oi"), await reply("tudo bem?"), await reply("obrigada")];
    expect(Math.max(...counts)).toBe(0);
  });
});
