/**
 * The supervisor profile (spec §1, §6): everything an attendant does, plus the tag modal's Kanban switch and
 * show-all over its own queues. Checked through the HTTP API against an admin and an attendant.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TicketDTO, UserDTO } from "@balcao/shared";
import { connections, tickets, userQueues } from "../../db/schema";
import { buildContact, buildQueue, buildTenant, buildUser, login, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const call = (s: Session, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: s.headers, ...(payload ? { payload } : {}) });

async function desk() {
  const d = await buildTenant(t.app);
  const created = await call(d.adminSession, "POST", "/users", {
    name: "Sara Supervisora",
    email: `sara-${Date.now()}-${Math.random()}@test.dev`,
    password: "secret-123",
    profile: "supervisor",
  });
  expect(created.statusCode, created.body).toBe(201);
  const supervisor = created.json() as UserDTO;
  const supervisorSession = await login(t.app, supervisor.email);
  return { ...d, supervisor, supervisorSession };
}

describe("supervisor profile", () => {
  it("is offered by the users API, kept through login, and only admins may grant it", async () => {
    const d = await desk();
    expect(d.supervisor.profile).toBe("supervisor");
    expect((await call(d.supervisorSession, "GET", "/auth/me")).json()).toMatchObject({ profile: "supervisor" });
    const listed = (await call(d.adminSession, "GET", `/users?searchParam=sara`)).json().users as UserDTO[];
    expect(listed.map((u) => u.profile)).toEqual(["supervisor"]);
    // An attendant cannot promote itself, nor can a supervisor promote anyone or create users.
    expect(
      (await call(d.userSession, "PUT", `/users/${d.user.id}`, { name: d.user.name, email: d.user.email, profile: "supervisor" })).statusCode,
    ).toBe(403);
    expect((await call(d.supervisorSession, "PUT", `/users/${d.user.id}`, { profile: "supervisor" })).statusCode).toBe(403);
    expect(
      (
        await call(d.supervisorSession, "POST", "/users", {
          name: "Outro",
          email: `o-${Date.now()}@test.dev`,
          password: "secret-123",
          profile: "user",
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await call(d.adminSession, "POST", "/users", {
          name: "Inválido",
          email: `i-${Date.now()}@test.dev`,
          password: "secret-123",
          profile: "owner",
        })
      ).statusCode,
    ).toBe(400);
    // Admin-only pages stay closed.
    expect((await call(d.supervisorSession, "GET", "/dashboard?days=7")).statusCode).toBe(403);
  });

  it("sets the Kanban switch and edits tags like an admin, but deletes none; an attendant may do neither", async () => {
    const d = await desk();
    const lane = await call(d.supervisorSession, "POST", "/tags", { name: "Negociação", color: "#1565C0", kanban: 1 });
    expect(lane.statusCode, lane.body).toBe(201);
    expect(lane.json()).toMatchObject({ kanban: 1 });
    expect((await call(d.supervisorSession, "PUT", `/tags/${lane.json().id}`, { name: "Negociação", kanban: 0 })).json()).toMatchObject({
      kanban: 0,
    });
    expect((await call(d.supervisorSession, "DELETE", `/tags/${lane.json().id}`)).statusCode).toBe(403);
    expect((await call(d.userSession, "POST", "/tags", { name: "Proposta", kanban: 1 })).statusCode).toBe(403);
    expect((await call(d.userSession, "PUT", `/tags/${lane.json().id}`, { name: "Proposta" })).statusCode).toBe(403);
    expect((await call(d.adminSession, "DELETE", `/tags/${lane.json().id}`)).statusCode).toBe(204);
  });

  it("show-all lists others' open tickets of its own queues only; an attendant's show-all changes nothing", async () => {
    const d = await desk();
    const sales = await buildQueue(t.ctx, d.company.id, { name: "Vendas" });
    const billing = await buildQueue(t.ctx, d.company.id, { name: "Financeiro" });
    const colleague = await buildUser(t.ctx, d.company.id);
    await t.ctx.database.db.insert(userQueues).values([
      { companyId: d.company.id, userId: d.supervisor.id, queueId: sales.id },
      { companyId: d.company.id, userId: d.user.id, queueId: sales.id },
      { companyId: d.company.id, userId: colleague.id, queueId: sales.id },
      { companyId: d.company.id, userId: colleague.id, queueId: billing.id },
    ]);
    const supervisorSession = await login(t.app, d.supervisor.email);
    const [connection] = await t.ctx.database.db
      .insert(connections)
      .values({ companyId: d.company.id, name: "Conexão", isDefault: true, status: "CONNECTED" })
      .returning();
    const open = async (queueId: number, userId: number) => {
      const contact = await buildContact(t.ctx, d.company.id);
      const [row] = await t.ctx.database.db
        .insert(tickets)
        .values({ companyId: d.company.id, contactId: contact.id, connectionId: connection!.id, queueId, userId, status: "open" })
        .returning();
      return row!;
    };
    const inSales = await open(sales.id, colleague.id);
    const inBilling = await open(billing.id, colleague.id);
    const ids = async (s: Session, showAll: boolean) =>
      ((await call(s, "GET", `/tickets?status=open&showAll=${showAll}`)).json().tickets as TicketDTO[]).map((x) => x.id);
    expect(await ids(supervisorSession, false)).toEqual([]);
    expect(await ids(supervisorSession, true)).toEqual([inSales.id]);
    expect(await ids(d.userSession, true)).toEqual([]);
    expect((await ids(d.adminSession, true)).sort()).toEqual([inSales.id, inBilling.id].sort());
    // Seeing is not taking over: the supervisor cannot resolve a colleague's ticket.
    expect((await call(supervisorSession, "PUT", `/tickets/${inSales.id}`, { status: "closed" })).statusCode).toBe(403);
  });

  it("changes schedules like an attendant: its own, not another's", async () => {
    const d = await desk();
    const contact = await buildContact(t.ctx, d.company.id);
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const own = (await call(d.supervisorSession, "POST", "/schedules", { body: "Lembrete da supervisora", contactId: contact.id, sendAt })).json();
    const others = (await call(d.userSession, "POST", "/schedules", { body: "Lembrete do atendente", contactId: contact.id, sendAt })).json();
    expect((await call(d.supervisorSession, "PUT", `/schedules/${own.id}`, { body: "Lembrete alterado" })).statusCode).toBe(200);
    expect((await call(d.supervisorSession, "PUT", `/schedules/${others.id}`, { body: "Lembrete alterado" })).statusCode).toBe(403);
    expect((await call(d.supervisorSession, "DELETE", `/schedules/${others.id}`)).statusCode).toBe(403);
  });
});
