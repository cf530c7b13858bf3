import { encodeKeysetCursor } from "@balcao/shared";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connections, contacts, tickets } from "../../db/schema";
import { buildTenant, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

let t: TestApp;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Page {
  tickets: { id: number; updatedAt: string }[];
  hasMore: boolean;
  nextCursor: string | null;
}

async function list(s: Session, query: Record<string, string>) {
  return t.app.inject({ method: "GET", url: `/api/tickets?${new URLSearchParams(query).toString()}`, headers: s.headers });
}

async function page(s: Session, query: Record<string, string>): Promise<Page> {
  const res = await list(s, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Page;
}

/** Every page by cursor from the first one (stops at the last page), with a hook run between pages. */
async function allPages(s: Session, between: (pageIndex: number) => Promise<void> = async () => {}) {
  const pages: Page[] = [await page(s, { showAll: "true" })];
  while (pages.at(-1)!.nextCursor) {
    await between(pages.length);
    pages.push(await page(s, { showAll: "true", cursor: pages.at(-1)!.nextCursor! }));
  }
  return pages;
}

/**
 * `count` tickets of a new contact each; `offsetMicros(i)` sets ticket i's updated_at that many
 * microseconds before a fixed instant (several rows may share one millisecond, or one timestamp).
 */
async function seedTickets(companyId: number, count: number, offsetMicros: (i: number) => number) {
  const db = t.ctx.database.db;
  const [connection] = await db
    .insert(connections)
    .values({ companyId, name: `Conexão ${++seq}`, isDefault: false })
    .returning();
  // Two statements for the whole batch (a loaded CI machine makes row-by-row seeding slow).
  const batch = Array.from({ length: count }, (_, i) => ({ i, seq: ++seq }));
  const made = await db
    .insert(contacts)
    .values(batch.map((b) => ({ companyId, name: `Cliente ${b.seq}`, number: `55119${String(20_000_000 + b.seq)}` })))
    .returning({ id: contacts.id, name: contacts.name });
  const contactOf = new Map(made.map((c) => [c.name, c.id]));
  const rows = await db
    .insert(tickets)
    .values(
      batch.map((b) => ({
        companyId,
        contactId: contactOf.get(`Cliente ${b.seq}`)!,
        connectionId: connection!.id,
        status: "pending" as const,
        updatedAt: sql`timestamptz '2026-01-01 12:00:00.500000+00' - ${offsetMicros(b.i)}::int * interval '1 microsecond'`,
      })),
    )
    .returning({ id: tickets.id, contactId: tickets.contactId });
  const ticketOf = new Map(rows.map((r) => [r.contactId, r.id]));
  const created = batch.map((b) => ticketOf.get(contactOf.get(`Cliente ${b.seq}`)!)!);
  return { connectionId: connection!.id, ids: created };
}

/** The list's order, read straight from the table: newest activity first, then the higher id. */
async function expectedOrder(companyId: number) {
  const rows = await t.ctx.database.db
    .select({ id: tickets.id })
    .from(tickets)
    .where(sql`${tickets.companyId} = ${companyId}`)
    .orderBy(sql`${tickets.updatedAt} desc, ${tickets.id} desc`);
  return rows.map((r) => r.id);
}

describe("GET /tickets by keyset cursor", () => {
  it("walks every ticket once, in order, across rows sharing a millisecond and a timestamp", async () => {
    const tenant = await buildTenant(t.app);
    // 90 tickets: groups of 3 share one timestamp, and all of them fall inside the same 100 µs, so a
    // cursor that kept milliseconds only (or ignored the id) would skip or repeat rows at the page seams.
    await seedTickets(tenant.company.id, 90, (i) => Math.floor(i / 3));
    const pages = await allPages(tenant.adminSession);
    expect(pages.map((p) => p.tickets.length)).toEqual([40, 40, 10]);
    expect(pages.map((p) => p.hasMore)).toEqual([true, true, false]);
    expect(pages.flatMap((p) => p.tickets.map((x) => x.id))).toEqual(await expectedOrder(tenant.company.id));
  });

  it("has no duplicates or gaps while new tickets arrive and listed ones get new activity", async () => {
    const tenant = await buildTenant(t.app);
    const { ids } = await seedTickets(tenant.company.id, 100, (i) => i * 1000);
    const before = await expectedOrder(tenant.company.id);
    const arrived: number[] = [];
    const pages = await allPages(tenant.adminSession, async (pageIndex) => {
      // A new ticket on top, and a ticket already listed on the first page moves to the top too.
      const fresh = await seedTickets(tenant.company.id, 1, () => -1_000_000 * pageIndex);
      arrived.push(...fresh.ids);
      await t.ctx.database.db
        .update(tickets)
        .set({ updatedAt: sql`now()` })
        .where(sql`${tickets.id} = ${ids[pageIndex]}`);
    });
    const seen = pages.flatMap((p) => p.tickets.map((x) => x.id));
    expect(new Set(seen).size).toBe(seen.length);
    // Exactly the tickets there at the start, in their starting order; what arrived later is not in the later pages.
    expect(seen).toEqual(before);
    expect(seen.filter((id) => arrived.includes(id))).toEqual([]);
  });

  it("keeps to the caller's company: another company's cursor only positions the caller's own list", async () => {
    const a = await buildTenant(t.app);
    const b = await buildTenant(t.app);
    await seedTickets(a.company.id, 45, (i) => i * 1000);
    const bSeed = await seedTickets(b.company.id, 3, (i) => i * 1000 + 10_000_000);
    const aFirst = await page(a.adminSession, { showAll: "true" });
    expect(aFirst.nextCursor).not.toBeNull();
    const bWithA = await page(b.adminSession, { showAll: "true", cursor: aFirst.nextCursor! });
    expect(bWithA.tickets.map((x) => x.id)).toEqual([...bSeed.ids]);
    const aSecond = await page(a.adminSession, { showAll: "true", cursor: aFirst.nextCursor! });
    expect(aSecond.tickets).toHaveLength(5);
    expect(aSecond.tickets.every((x) => !bSeed.ids.includes(x.id))).toBe(true);
  });

  it("pageNumber (OFFSET) still pages for API compatibility", async () => {
    const tenant = await buildTenant(t.app);
    await seedTickets(tenant.company.id, 45, (i) => i * 1000);
    const order = await expectedOrder(tenant.company.id);
    const second = await page(tenant.adminSession, { showAll: "true", pageNumber: "2" });
    expect(second.tickets.map((x) => x.id)).toEqual(order.slice(40));
    expect(second.hasMore).toBe(false);
    expect(second.nextCursor).toBeNull();
  });

  it("answers 400 to a cursor the server did not make", async () => {
    const tenant = await buildTenant(t.app);
    const forged = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, "");
    for (const cursor of ["not a cursor", forged({ at: 1, id: 2 }), forged([1.5, 2]), forged([1, -2]), forged(["2026-01-01", 2]), "x".repeat(201)]) {
      const res = await list(tenant.adminSession, { cursor });
      expect(res.statusCode, cursor).toBe(400);
    }
    expect((await list(tenant.adminSession, { cursor: encodeKeysetCursor({ at: 1, id: 2 }) })).statusCode).toBe(200);
  });
});
