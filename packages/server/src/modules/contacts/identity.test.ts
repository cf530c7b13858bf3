import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connections, contactIdentities, contacts } from "../../db/schema";
import { buildCompany, buildContact } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { findContactByNumber, resolveInboundContact } from "./identity";

let t: TestApp;
let companyId: number;
let otherCompanyId: number;
let connectionId: number;

beforeAll(async () => {
  t = await createTestApp();
  companyId = (await buildCompany(t.ctx)).id;
  otherCompanyId = (await buildCompany(t.ctx)).id;
  const [conn] = await t.ctx.database.db.insert(connections).values({ companyId, name: "Principal" }).returning();
  connectionId = conn!.id;
});
afterAll(() => t.close());

const db = () => t.ctx.database.db;
const identitiesOf = (contactId: number) =>
  db()
    .select({ kind: contactIdentities.kind, value: contactIdentities.value })
    .from(contactIdentities)
    .where(eq(contactIdentities.contactId, contactId))
    .orderBy(contactIdentities.kind, contactIdentities.value);

describe("resolveInboundContact", () => {
  it("creates a contact with its phone identity, then finds it by the same phone", async () => {
    const first = await resolveInboundContact(db(), companyId, connectionId, { kind: "phone", id: "5521987650001" }, "Maria");
    expect(first.created).toBe(true);
    expect(first.contact).toMatchObject({ companyId, name: "Maria", number: "5521987650001", isGroup: false });
    expect(await identitiesOf(first.contact.id)).toEqual([{ kind: "phone", value: "5521987650001" }]);
    const again = await resolveInboundContact(db(), companyId, connectionId, { kind: "phone", id: "5521987650001" });
    expect(again).toEqual({ contact: first.contact, created: false });
  });

  it("meets the typed 9-digit number and WhatsApp's 8-digit form as one contact (Brazil only)", async () => {
    const typed = await buildContact(t.ctx, companyId, { number: "5531987650002", name: "Digitado" });
    const inbound = await resolveInboundContact(db(), companyId, connectionId, { kind: "phone", id: "553187650002" }, "Push");
    expect(inbound.created).toBe(false);
    expect(inbound.contact.id).toBe(typed.id);
    expect(inbound.contact.name).toBe("Digitado");
    expect(await identitiesOf(typed.id)).toEqual([
      { kind: "phone", value: "553187650002" },
      { kind: "phone", value: "5531987650002" },
    ]);
    // And the other way round.
    const old = await buildContact(t.ctx, companyId, { number: "554187650003" });
    const viaNine = await resolveInboundContact(db(), companyId, connectionId, { kind: "phone", id: "5541987650003" });
    expect(viaNine.contact.id).toBe(old.id);
  });

  it("does not apply the 9th-digit rule to landlines or other countries", async () => {
    const landline = await buildContact(t.ctx, companyId, { number: "551133330004" });
    const other = await resolveInboundContact(db(), companyId, connectionId, { kind: "phone", id: "5511933330004" });
    expect(other.created).toBe(true);
    expect(other.contact.id).not.toBe(landline.id);
    const us = await buildContact(t.ctx, companyId, { number: "16502530005" });
    const us9 = await resolveInboundContact(db(), companyId, connectionId, { kind: "phone", id: "165092530005" });
    expect(us9.contact.id).not.toBe(us.id);
  });

  it("resolves a LID through its phone alternate and learns the LID; later the LID alone finds it", async () => {
    const known = await buildContact(t.ctx, companyId, { number: "5551987650006" });
    const viaAlt = await resolveInboundContact(db(), companyId, connectionId, {
      kind: "wa_lid",
      id: "123456789012345@lid",
      alternates: [{ kind: "phone", id: "5551987650006@s.whatsapp.net" }],
    });
    expect(viaAlt).toMatchObject({ created: false, contact: { id: known.id } });
    const byLid = await resolveInboundContact(db(), companyId, connectionId, { kind: "wa_lid", id: "123456789012345@LID" });
    expect(byLid.contact.id).toBe(known.id);
  });

  it("creates a LID-only contact without a number and fills the number once the phone is learnt", async () => {
    const lidOnly = await resolveInboundContact(db(), companyId, connectionId, { kind: "wa_lid", id: "999000111@lid" }, "Sem Número");
    expect(lidOnly).toMatchObject({ created: true, contact: { number: null, name: "Sem Número" } });
    const later = await resolveInboundContact(db(), companyId, connectionId, {
      kind: "wa_lid",
      id: "999000111@lid",
      alternates: [{ kind: "phone", id: "5561987650007" }],
    });
    expect(later.contact).toMatchObject({ id: lidOnly.contact.id, number: "5561987650007" });
  });

  it("matches a contact that has only the number column (no identity rows)", async () => {
    const bare = await buildContact(t.ctx, companyId, { number: "5571987650008", withIdentity: false });
    const res = await resolveInboundContact(db(), companyId, connectionId, { kind: "phone", id: "557187650008" });
    expect(res.contact.id).toBe(bare.id);
    expect(await identitiesOf(bare.id)).toEqual([{ kind: "phone", value: "557187650008" }]);
  });

  it("turns a group chat into one isGroup contact keyed by the group id", async () => {
    const g = await resolveInboundContact(db(), companyId, connectionId, { kind: "group", id: "120363025246125486@g.us" }, "Família");
    expect(g).toMatchObject({ created: true, contact: { isGroup: true, name: "Família" } });
    const again = await resolveInboundContact(db(), companyId, connectionId, { kind: "group", id: "120363025246125486@g.us" });
    expect(again).toMatchObject({ created: false, contact: { id: g.contact.id } });
  });

  it("names a contact by its number until a push name arrives", async () => {
    const anon = await resolveInboundContact(db(), companyId, connectionId, { kind: "phone", id: "5581987650009" });
    expect(anon.contact.name).toBe("5581987650009");
    const named = await resolveInboundContact(db(), companyId, connectionId, { kind: "phone", id: "5581987650009", pushName: "Zé" });
    expect(named.contact.name).toBe("Zé");
  });

  it("keeps companies apart: the same phone is two contacts in two companies", async () => {
    const a = await resolveInboundContact(db(), companyId, connectionId, { kind: "phone", id: "5511987650010" });
    const b = await resolveInboundContact(db(), otherCompanyId, connectionId, { kind: "phone", id: "5511987650010" });
    expect(a.contact.id).not.toBe(b.contact.id);
    expect(b.contact.companyId).toBe(otherCompanyId);
  });

  it("is safe under concurrency: parallel first messages create exactly one contact", async () => {
    const chat = { kind: "phone" as const, id: "5511987650011" };
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2
          ? resolveInboundContact(db(), companyId, connectionId, chat)
          : db().transaction((tx) => resolveInboundContact(tx, companyId, connectionId, chat)),
      ),
    );
    expect(new Set(results.map((r) => r.contact.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const rows = await db()
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.number, "5511987650011")));
    expect(rows).toHaveLength(1);
  });

  it("works inside a caller's transaction, rolling back with it", async () => {
    await expect(
      db().transaction(async (tx) => {
        await resolveInboundContact(tx, companyId, connectionId, { kind: "phone", id: "5511987650012" });
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect(await findContactByNumber(db(), companyId, "5511987650012")).toBeNull();
  });
});

describe("findContactByNumber", () => {
  it("finds a contact whatever form the number is typed in, never in another company", async () => {
    const c = await buildContact(t.ctx, companyId, { number: "5531987650013" });
    for (const typed of ["+55 31 98765-0013", "(31) 98765-0013", "553187650013", "31 8765-0013"])
      expect((await findContactByNumber(db(), companyId, typed))?.id).toBe(c.id);
    expect(await findContactByNumber(db(), otherCompanyId, "5531987650013")).toBeNull();
    expect(await findContactByNumber(db(), companyId, "5531987650013", c.id)).toBeNull();
  });
});
