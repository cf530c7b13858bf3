import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connections, messages, tickets } from "../../db/schema";
import { buildTenant, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { pipelines } from "./module";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const call = (s: Session, method: "GET" | "DELETE", url: string) => t.app.inject({ method, url: `/api${url}`, headers: s.headers });

describe("deleting a message updates its ticket's preview (issue 16)", () => {
  it("the latest message deleted → the latest one still shown becomes the preview; older deletions change nothing", async () => {
    const tenant = await buildTenant(t.app);
    const db = t.ctx.database.db;
    const [connection] = await db
      .insert(connections)
      .values({ companyId: tenant.company.id, name: "Conexão prévia", isDefault: true, status: "CONNECTED" })
      .returning();
    await pipelines.get(t.ctx)!.handle(
      { companyId: tenant.company.id, connectionId: connection!.id },
      {
        type: "message",
        message: {
          providerMessageId: `WA-prev-${Date.now()}`,
          chat: { id: "5511990007777", kind: "phone", pushName: "Ana" },
          fromMe: false,
          kind: "chat",
          body: "Oi",
          timestamp: new Date(),
        },
      },
    );
    const [ticket] = await db.select().from(tickets).where(eq(tickets.companyId, tenant.company.id));
    const base = {
      companyId: tenant.company.id,
      ticketId: ticket!.id,
      contactId: ticket!.contactId,
      connectionId: connection!.id,
      fromMe: true,
      read: true,
      status: "sent",
    };
    const at = (seconds: number) => new Date(Date.now() + seconds * 1000);
    const [first, second, third] = await db
      .insert(messages)
      .values([
        { ...base, body: "*Demo Admin:* primeira", createdAt: at(1) },
        { ...base, body: "segunda", createdAt: at(2) },
        { ...base, body: "terceira", createdAt: at(3) },
      ])
      .returning();
    await db
      .update(tickets)
      .set({ lastMessage: "terceira" })
      .where(and(eq(tickets.companyId, tenant.company.id), eq(tickets.id, ticket!.id)));
    const preview = async () => (await call(tenant.adminSession, "GET", `/tickets/${ticket!.id}`)).json().lastMessage;

    expect((await call(tenant.adminSession, "DELETE", `/messages/${second!.id}`)).statusCode).toBe(200);
    expect(await preview()).toBe("terceira");

    expect((await call(tenant.adminSession, "DELETE", `/messages/${third!.id}`)).statusCode).toBe(200);
    expect(await preview()).toBe("*Demo Admin:* primeira");

    expect((await call(tenant.adminSession, "DELETE", `/messages/${first!.id}`)).statusCode).toBe(200);
    // The customer's "Oi" is the latest message still shown.
    expect(await preview()).toBe("Oi");
  });
});
