import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COLOR_PALETTE } from "@balcao/shared";
import type { DomainEvent } from "../../events/bus";
import { tags, tickets, ticketTags, userQueues } from "../../db/schema";
import {
  buildCompany,
  buildContact,
  buildQueue,
  buildTag,
  buildTenant,
  buildUser,
  collectEvents,
  connectSocket,
  login,
  nextEvent,
  type Session,
} from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

let t: TestApp;
let a: Awaited<ReturnType<typeof buildTenant>>;
let b: Awaited<ReturnType<typeof buildTenant>>;
const published: DomainEvent[] = [];

beforeAll(async () => {
  t = await createTestApp();
  a = await buildTenant(t.app);
  b = await buildTenant(t.app);
  t.ctx.events.subscribe("test.published", (e) => {
    published.push(e);
  });
});
afterAll(() => t.close());

const call = (session: Session | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session ? session.headers : {}, ...(payload ? { payload } : {}) });

/** A ticket row for tag tests (the tickets module owns the real creation flow). */
async function ticketRow(companyId: number, overrides: Partial<typeof tickets.$inferInsert> = {}) {
  const contact = await buildContact(t.ctx, companyId);
  const [row] = await t.ctx.database.db
    .insert(tickets)
    .values({ companyId, contactId: contact.id, status: "open", ...overrides })
    .returning();
  return row!;
}

const tagIdsOf = async (ticketId: number) =>
  (await t.ctx.database.db.select({ tagId: ticketTags.tagId }).from(ticketTags).where(eq(ticketTags.ticketId, ticketId)))
    .map((r) => r.tagId)
    .sort((x, y) => x - y);

describe("permission matrix of the tags endpoints", () => {
  it.each([
    ["GET", "/tags/", 200, 200],
    ["GET", "/tags/list", 200, 200],
    ["GET", "/tags/kanban", 200, 200],
    ["GET", "/tags/:tag", 200, 200],
    ["POST", "/tags", 201, 201],
    ["PUT", "/tags/:tag", 200, 403],
    ["DELETE", "/tags/:tag", 204, 403],
    ["POST", "/tags/sync", 200, 200],
    ["PUT", "/ticket-tags/:ticket/:tag", 200, 200],
    ["DELETE", "/ticket-tags/:ticket", 200, 200],
  ] as const)("%s %s → admin %i, user %i, anonymous 401", async (method, path, adminStatus, userStatus) => {
    for (const [role, session, expected] of [
      ["admin", a.adminSession, adminStatus],
      ["user", a.userSession, userStatus],
      ["anonymous", null, 401],
    ] as const) {
      const tag = await buildTag(t.ctx, a.company.id);
      const ticket = await ticketRow(a.company.id);
      const url = path.replace(":tag", String(tag.id)).replace(":ticket", String(ticket.id));
      const body =
        path === "/tags/sync"
          ? { ticketId: ticket.id, tags: [{ id: tag.id }] }
          : method === "POST"
            ? { name: "Nova Tag" }
            : method === "PUT" && path.startsWith("/tags")
              ? { name: "Renomeada" }
              : undefined;
      const res = await call(session, method, url, body);
      expect({ role, status: res.statusCode }).toEqual({ role, status: expected });
      if (expected === 403) expect(res.json()).toEqual({ error: "ERR_NO_PERMISSION" });
    }
  });

  it("only admins may make a tag a Kanban lane; others may still send kanban 0", async () => {
    const refused = await call(a.userSession, "POST", "/tags", { name: "Lane", color: "#123456", kanban: 1 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: "ERR_NO_PERMISSION" });
    expect((await call(a.userSession, "POST", "/tags", { name: "Sem Lane", color: "#123456", kanban: 0 })).json()).toMatchObject({ kanban: 0 });
    expect((await call(a.adminSession, "POST", "/tags", { name: "Lane Admin", color: "#123456", kanban: true })).json()).toMatchObject({ kanban: 1 });
  });

  it("a user cannot tag a ticket of a queue it is not in (403); one of its queues is fine", async () => {
    const queue = await buildQueue(t.ctx, a.company.id);
    const mine = await buildQueue(t.ctx, a.company.id);
    const member = await buildUser(t.ctx, a.company.id);
    await t.ctx.database.db.insert(userQueues).values({ companyId: a.company.id, userId: member.id, queueId: mine.id });
    const session = await login(t.app, member.email);
    const tag = await buildTag(t.ctx, a.company.id);
    const hidden = await ticketRow(a.company.id, { queueId: queue.id });
    const visible = await ticketRow(a.company.id, { queueId: mine.id });
    expect((await call(session, "PUT", `/ticket-tags/${hidden.id}/${tag.id}`)).statusCode).toBe(403);
    expect(await tagIdsOf(hidden.id)).toEqual([]);
    expect((await call(session, "PUT", `/ticket-tags/${visible.id}/${tag.id}`)).statusCode).toBe(200);
  });
});

describe("validation (spec §5)", () => {
  it("answers 'Obrigatório' and 'Mensagem muito curta' for the name", async () => {
    const missing = await call(a.adminSession, "POST", "/tags", { color: "#000000" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().issues).toEqual([{ path: "name", message: "Obrigatório" }]);
    const blank = await call(a.adminSession, "POST", "/tags", { name: "   " });
    expect(blank.json().issues).toEqual([{ path: "name", message: "Obrigatório" }]);
    const short = await call(a.adminSession, "POST", "/tags", { name: "ab" });
    expect(short.json()).toEqual({ error: "Mensagem muito curta", issues: [{ path: "name", message: "Mensagem muito curta" }] });
    const badColor = await call(a.adminSession, "POST", "/tags", { name: "Cor Ruim", color: "red;drop" });
    expect(badColor.statusCode).toBe(400);
    const badKanban = await call(a.adminSession, "POST", "/tags", { name: "Kanban Ruim", kanban: 2 });
    expect(badKanban.statusCode).toBe(400);
    expect((await call(a.adminSession, "PUT", "/tags/1", { name: "x" })).statusCode).toBe(400);
  });

  it("a tag created by name only gets a palette colour", async () => {
    const res = await call(a.userSession, "POST", "/tags", { name: "  Só Nome  " });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: "Só Nome", kanban: 0, userId: a.user.id, companyId: a.company.id, ticketsCount: 0 });
    expect(COLOR_PALETTE as readonly string[]).toContain(res.json().color);
  });
});

describe("listing", () => {
  it("pages of 20 by name with ticketsCount, searchable ignoring case and accents", async () => {
    const company = await buildCompany(t.ctx);
    const admin = await buildUser(t.ctx, company.id, { profile: "admin" });
    const session = await login(t.app, admin.email);
    const urgent = await buildTag(t.ctx, company.id, { name: "Atenção Urgente" });
    const lane = await buildTag(t.ctx, company.id, { name: "Lane", kanban: 1 });
    for (let i = 0; i < 20; i++) await buildTag(t.ctx, company.id, { name: `Tag ${String(i).padStart(2, "0")}` });
    const t1 = await ticketRow(company.id);
    const t2 = await ticketRow(company.id);
    await t.ctx.database.db.insert(ticketTags).values([
      { companyId: company.id, ticketId: t1.id, tagId: urgent.id },
      { companyId: company.id, ticketId: t2.id, tagId: urgent.id },
      { companyId: company.id, ticketId: t2.id, tagId: lane.id },
    ]);
    const found = (await call(session, "GET", "/tags/?searchParam=ATENCAO")).json();
    expect(found).toEqual({ tags: [expect.objectContaining({ id: urgent.id, ticketsCount: 2, kanban: 0 })], hasMore: false });
    const page1 = (await call(session, "GET", "/tags/?pageNumber=1")).json();
    expect(page1.tags).toHaveLength(20);
    expect(page1.hasMore).toBe(true);
    expect(page1.tags[0]).toMatchObject({ name: "Atenção Urgente", ticketsCount: 2 });
    expect(page1.tags[1]).toMatchObject({ name: "Lane", ticketsCount: 1 });
    expect(page1.tags[2]).toMatchObject({ ticketsCount: 0 });
    const page2 = (await call(session, "GET", "/tags?pageNumber=2")).json();
    expect(page2).toMatchObject({ hasMore: false });
    expect(page2.tags).toHaveLength(2);
    expect((await call(session, "GET", `/tags/${urgent.id}`)).json()).toMatchObject({ ticketsCount: 2 });
    const simple = (await call(session, "GET", "/tags/list")).json();
    expect(simple).toHaveLength(22);
    expect((await call(session, "GET", "/tags/kanban")).json()).toEqual({ lista: [expect.objectContaining({ id: lane.id, kanban: 1 })] });
  });
});

describe("tagging tickets", () => {
  it("sync replaces the ticket's tags; add is idempotent; clear removes all; each publishes tickets.tagsChanged", async () => {
    const ticket = await ticketRow(a.company.id);
    const [x, y, z] = [
      await buildTag(t.ctx, a.company.id, { name: "Xis" }),
      await buildTag(t.ctx, a.company.id, { name: "Ypsilon" }),
      await buildTag(t.ctx, a.company.id, { name: "Zeta" }),
    ];
    published.length = 0;
    const synced = await call(a.userSession, "POST", "/tags/sync", {
      ticketId: ticket.id,
      tags: [{ id: x.id, name: "ignored" }, { id: y.id }, { id: y.id }],
    });
    expect(synced.statusCode).toBe(200);
    expect(synced.json()).toEqual({ ticketId: ticket.id, tags: [expect.objectContaining({ id: x.id }), expect.objectContaining({ id: y.id })] });
    expect(await tagIdsOf(ticket.id)).toEqual([x.id, y.id].sort((p, q) => p - q));
    await call(a.userSession, "POST", "/tags/sync", { ticketId: ticket.id, tags: [{ id: z.id }] });
    expect(await tagIdsOf(ticket.id)).toEqual([z.id]);
    await call(a.userSession, "PUT", `/ticket-tags/${ticket.id}/${x.id}`);
    const again = await call(a.userSession, "PUT", `/ticket-tags/${ticket.id}/${x.id}`);
    expect(
      again
        .json()
        .tags.map((tag: { id: number }) => tag.id)
        .sort(),
    ).toEqual([x.id, z.id].sort());
    const cleared = await call(a.userSession, "DELETE", `/ticket-tags/${ticket.id}`);
    expect(cleared.json()).toEqual({ ticketId: ticket.id, tags: [] });
    expect(await tagIdsOf(ticket.id)).toEqual([]);
    await t.ctx.events.drain();
    const changes = published.filter((e) => e.type === "tickets.tagsChanged");
    expect(changes).toHaveLength(5);
    expect(changes[0]).toEqual({ type: "tickets.tagsChanged", companyId: a.company.id, ticketId: ticket.id, eventId: expect.any(String) });
  });

  it("sync with an empty list removes every tag; unknown tag ids are refused and change nothing", async () => {
    const ticket = await ticketRow(a.company.id);
    const tag = await buildTag(t.ctx, a.company.id);
    await call(a.userSession, "POST", "/tags/sync", { ticketId: ticket.id, tags: [{ id: tag.id }] });
    const bad = await call(a.userSession, "POST", "/tags/sync", { ticketId: ticket.id, tags: [{ id: 2_000_000_000 }] });
    expect(bad.statusCode).toBe(404);
    expect(bad.json()).toEqual({ error: "ERR_NO_TAG_FOUND" });
    expect(await tagIdsOf(ticket.id)).toEqual([tag.id]);
    await call(a.userSession, "POST", "/tags/sync", { ticketId: ticket.id, tags: [] });
    expect(await tagIdsOf(ticket.id)).toEqual([]);
    expect((await call(a.userSession, "POST", "/tags/sync", { tags: [] })).statusCode).toBe(400);
  });

  it("deleting a tag removes it from tickets and tells them", async () => {
    const ticket = await ticketRow(a.company.id);
    const tag = await buildTag(t.ctx, a.company.id);
    await call(a.userSession, "PUT", `/ticket-tags/${ticket.id}/${tag.id}`);
    published.length = 0;
    expect((await call(a.adminSession, "DELETE", `/tags/${tag.id}`)).statusCode).toBe(204);
    expect(await tagIdsOf(ticket.id)).toEqual([]);
    await t.ctx.events.drain();
    expect(published).toEqual(
      expect.arrayContaining([
        { type: "tags.deleted", companyId: a.company.id, tagId: tag.id, eventId: expect.any(String) },
        { type: "tickets.tagsChanged", companyId: a.company.id, ticketId: ticket.id, eventId: expect.any(String) },
      ]),
    );
  });

  it("admins edit name, colour and kanban", async () => {
    const tag = await buildTag(t.ctx, a.company.id);
    const res = await call(a.adminSession, "PUT", `/tags/${tag.id}`, { name: "Editada", color: "#AB47BC", kanban: 1 });
    expect(res.json()).toMatchObject({ id: tag.id, name: "Editada", color: "#AB47BC", kanban: 1 });
  });
});

describe("two-company isolation", () => {
  it("lists only the caller's company", async () => {
    const theirs = await buildTag(t.ctx, b.company.id, { name: "Deles Isolada", kanban: 1 });
    for (const url of ["/tags/?searchParam=isolada", "/tags/list", "/tags/kanban"]) {
      const body = JSON.stringify((await call(a.adminSession, "GET", url)).json());
      expect(body).not.toContain(`"id":${theirs.id},`);
    }
  });

  it("another company's tag answers exactly like a missing one, for every verb, and is left untouched", async () => {
    const theirs = await buildTag(t.ctx, b.company.id, { name: "Intocável" });
    const missing = 2_000_000_000;
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", { name: "Hackeada" }],
      ["DELETE", undefined],
    ] as const) {
      const foreign = await call(a.adminSession, method, `/tags/${theirs.id}`, body);
      const absent = await call(a.adminSession, method, `/tags/${missing}`, body);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).toBe(absent.body);
      expect(foreign.json()).toEqual({ error: "ERR_NO_TAG_FOUND" });
    }
    const [row] = await t.ctx.database.db.select().from(tags).where(eq(tags.id, theirs.id));
    expect(row).toMatchObject({ name: "Intocável" });
  });

  it("a foreign ticket or tag in sync / ticket-tags answers like a missing one and changes nothing", async () => {
    const theirTicket = await ticketRow(b.company.id);
    const theirTag = await buildTag(t.ctx, b.company.id);
    await t.ctx.database.db.insert(ticketTags).values({ companyId: b.company.id, ticketId: theirTicket.id, tagId: theirTag.id });
    const myTicket = await ticketRow(a.company.id);
    const myTag = await buildTag(t.ctx, a.company.id);
    const missing = 2_000_000_000;
    const pairs: [string, string, object | undefined, string, object | undefined][] = [
      ["POST", "/tags/sync", { ticketId: theirTicket.id, tags: [{ id: myTag.id }] }, "/tags/sync", { ticketId: missing, tags: [{ id: myTag.id }] }],
      [
        "POST",
        "/tags/sync",
        { ticketId: myTicket.id, tags: [{ id: theirTag.id }] },
        "/tags/sync",
        { ticketId: myTicket.id, tags: [{ id: missing }] },
      ],
      ["PUT", `/ticket-tags/${theirTicket.id}/${myTag.id}`, undefined, `/ticket-tags/${missing}/${myTag.id}`, undefined],
      ["PUT", `/ticket-tags/${myTicket.id}/${theirTag.id}`, undefined, `/ticket-tags/${myTicket.id}/${missing}`, undefined],
      ["DELETE", `/ticket-tags/${theirTicket.id}`, undefined, `/ticket-tags/${missing}`, undefined],
    ];
    for (const [method, foreignUrl, foreignBody, missingUrl, missingBody] of pairs) {
      const foreign = await call(a.adminSession, method as "POST", foreignUrl, foreignBody);
      const absent = await call(a.adminSession, method as "POST", missingUrl, missingBody);
      expect({ foreignUrl, status: foreign.statusCode }).toEqual({ foreignUrl, status: 404 });
      expect(foreign.body).toBe(absent.body);
    }
    expect(await tagIdsOf(theirTicket.id)).toEqual([theirTag.id]);
    expect(await tagIdsOf(myTicket.id)).toEqual([]);
    const [count] = await t.ctx.database.db
      .select({ n: ticketTags.tagId })
      .from(ticketTags)
      .where(and(eq(ticketTags.companyId, a.company.id), eq(ticketTags.tagId, theirTag.id)));
    expect(count).toBeUndefined();
  });
});

describe("tag events", () => {
  it("create, update and delete reach sockets of the same company only", async () => {
    const socketA = await connectSocket(t.app, a.userSession.token);
    const socketB = await connectSocket(t.app, b.adminSession.token);
    const leaked = collectEvents(socketB, "tag");
    const created = nextEvent<{ action: string; tag: { id: number } }>(socketA, "tag");
    const res = await call(a.adminSession, "POST", "/tags", { name: "Evento", color: "#1E88E5" });
    expect(await created).toMatchObject({ action: "create", tag: { name: "Evento", companyId: a.company.id } });
    const id = res.json().id;
    const updated = nextEvent(socketA, "tag");
    await call(a.adminSession, "PUT", `/tags/${id}`, { name: "Evento Dois" });
    expect(await updated).toMatchObject({ action: "update", tag: { id, name: "Evento Dois" } });
    const deleted = nextEvent(socketA, "tag");
    await call(a.adminSession, "DELETE", `/tags/${id}`);
    expect(await deleted).toEqual({ action: "delete", tagId: id });
    await new Promise((r) => setTimeout(r, 100));
    expect(leaked).toEqual([]);
    socketA.close();
    socketB.close();
  });
});
