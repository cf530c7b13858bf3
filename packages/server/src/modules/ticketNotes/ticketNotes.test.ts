import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contacts, tickets } from "../../db/schema";
import { buildTenant, buildUser, login, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const call = (s: Session, method: "GET" | "POST" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: s.headers, ...(payload ? { payload } : {}) });

async function ticketFor(companyId: number) {
  const [contact] = await t.ctx.database.db
    .insert(contacts)
    .values({ companyId, name: "Cliente", number: `55119${Date.now() % 100000000}` })
    .returning();
  const [ticket] = await t.ctx.database.db.insert(tickets).values({ companyId, contactId: contact!.id, status: "pending" }).returning();
  return ticket!;
}

describe("ticket notes", () => {
  it("adds (min 2 chars), lists with the author, deletes by author or admin; isolated per company", async () => {
    const a = await buildTenant(t.app);
    const b = await buildTenant(t.app);
    const ticket = await ticketFor(a.company.id);
    const short = await call(a.userSession, "POST", "/ticket-notes", { note: "x", ticketId: ticket.id, contactId: ticket.contactId });
    expect(short.statusCode).toBe(400);
    expect(short.json().issues).toContainEqual({ path: "note", message: "Mensagem muito curta" });
    const created = await call(a.userSession, "POST", "/ticket-notes", {
      note: "Cliente prefere ligação à tarde",
      ticketId: ticket.id,
      contactId: ticket.contactId,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ note: "Cliente prefere ligação à tarde", user: { id: a.user.id } });
    const list = await call(a.adminSession, "GET", `/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`);
    expect(list.json()).toHaveLength(1);
    // Company B can neither list, add to, nor delete A's notes.
    expect((await call(b.adminSession, "GET", `/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`)).statusCode).toBe(404);
    expect(
      (await call(b.adminSession, "POST", "/ticket-notes", { note: "intruso", ticketId: ticket.id, contactId: ticket.contactId })).statusCode,
    ).toBe(404);
    expect((await call(b.adminSession, "DELETE", `/ticket-notes/${created.json().id}`)).statusCode).toBe(404);
    const colleague = await buildUser(t.ctx, a.company.id);
    expect((await call(await login(t.app, colleague.email), "DELETE", `/ticket-notes/${created.json().id}`)).statusCode).toBe(403);
    const removed = await call(a.userSession, "DELETE", `/ticket-notes/${created.json().id}`);
    expect(removed.json()).toEqual({ message: "Observação excluída com sucesso!" });
    expect((await call(a.adminSession, "GET", `/ticket-notes/list?ticketId=${ticket.id}`)).json()).toEqual([]);
  });
});
