import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connections, tickets, userQueues } from "../../db/schema";
import { buildQueue, buildTenant, buildUser, login, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { pipelines } from "../messages/module";

/**
 * Issue 11: a message's file was served to any user of the company, even one who may not open its ticket.
 * The mediaUrl a message carries names its ticket; the file is served only to whoever may open that ticket.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
const get = (s: Session, url: string) => t.app.inject({ method: "GET", url, headers: s.headers });

describe("GET /api/media/:id", () => {
  it("serves a ticket's file to admins and to attendants of its queue only", async () => {
    const tenant = await buildTenant(t.app);
    const c = tenant.company.id;
    const db = t.ctx.database.db;
    const [connection] = await db.insert(connections).values({ companyId: c, name: "Conexão", isDefault: true, status: "CONNECTED" }).returning();
    const sales = await buildQueue(t.ctx, c);
    const support = await buildQueue(t.ctx, c);
    const insider = await buildUser(t.ctx, c);
    const outsider = await buildUser(t.ctx, c);
    await db.insert(userQueues).values([
      { companyId: c, userId: insider.id, queueId: sales.id },
      { companyId: c, userId: outsider.id, queueId: support.id },
    ]);
    const [inside, outside] = [await login(t.app, insider.email, undefined, "10.9.0.1"), await login(t.app, outsider.email, undefined, "10.9.0.2")];

    await pipelines.get(t.ctx)!.handle(
      { companyId: c, connectionId: connection!.id },
      {
        type: "message",
        message: {
          providerMessageId: `MEDIA-${Date.now()}`,
          chat: { id: "5511987651234", kind: "phone", pushName: "Cliente" },
          fromMe: false,
          kind: "image",
          body: "comprovante",
          timestamp: new Date(),
          media: { data: PNG, mimeType: "image/png", fileName: "comprovante.png" },
        },
      },
    );
    const [ticket] = await db.select().from(tickets).where(eq(tickets.companyId, c));
    await db.update(tickets).set({ queueId: sales.id }).where(eq(tickets.id, ticket!.id));

    const listed = (await get(tenant.adminSession, `/api/messages/${ticket!.id}`)).json() as { messages: { mediaUrl: string | null }[] };
    const url = listed.messages.find((m) => m.mediaUrl)!.mediaUrl!;
    expect(url).toMatch(new RegExp(`^/api/media/[0-9a-f-]{36}\\?ticket=${ticket!.id}$`));
    const bare = url.split("?")[0]!;

    expect((await get(tenant.adminSession, url)).statusCode).toBe(200);
    expect((await get(tenant.adminSession, bare)).statusCode).toBe(200);
    const ok = await get(inside, url);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers["content-type"]).toBe("image/png");
    expect(ok.rawPayload.equals(PNG)).toBe(true);

    // The attendant of another queue: a 404 like a missing file, whichever way it is asked for.
    expect((await get(outside, url)).statusCode).toBe(404);
    expect((await get(outside, bare)).statusCode).toBe(404);
    expect((await get(inside, bare)).statusCode).toBe(404);
    // Naming a ticket the attendant may open, but not the file's: still no.
    const [own] = await db
      .insert(tickets)
      .values({ companyId: c, contactId: ticket!.contactId, connectionId: null, queueId: support.id, status: "open", userId: outsider.id })
      .returning();
    expect((await get(outside, `${bare}?ticket=${own!.id}`)).statusCode).toBe(404);

    // Once the ticket moves to the outsider's queue, the outsider may open it, and its file.
    await db.update(tickets).set({ queueId: support.id }).where(eq(tickets.id, ticket!.id));
    expect((await get(outside, url)).statusCode).toBe(200);
    expect((await get(inside, url)).statusCode).toBe(404);

    // Another company: a 404 even for its admin.
    const other = await buildTenant(t.app);
    expect((await get(other.adminSession, url)).statusCode).toBe(404);
  });
});
