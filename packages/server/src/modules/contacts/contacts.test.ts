import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ChannelAddress, ChannelSession } from "../../channels/types";
import { connections, contactExtraInfo, contactIdentities, contacts } from "../../db/schema";
import {
  buildCompany,
  buildContact,
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

beforeAll(async () => {
  t = await createTestApp();
  a = await buildTenant(t.app);
  b = await buildTenant(t.app);
});
afterAll(() => t.close());

const call = (session: Session | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session ? session.headers : {}, ...(payload ? { payload } : {}) });

let seq = 0;
/** A fresh Brazilian mobile number per call, typed with a mask. */
const newNumber = () => {
  const n = String(7000 + ++seq).padStart(4, "0");
  return { typed: `(48) 99876-${n}`, stored: `554899876${n}` };
};

/** The channel manager's session() answers this fake for every connection (restored after each test). */
function fakeChannels(session: Partial<ChannelSession>) {
  const manager = t.ctx.channels;
  const real = manager.session;
  manager.session = () => session as ChannelSession;
  restore.push(() => {
    manager.session = real;
  });
}
const restore: (() => void)[] = [];
afterEach(() => {
  for (const undo of restore.splice(0)) undo();
});

async function defaultConnection(companyId: number, status = "CONNECTED") {
  const [row] = await t.ctx.database.db
    .insert(connections)
    .values({ companyId, name: `Conexão ${++seq}`, status, isDefault: true })
    .returning();
  return row!;
}

describe("permission matrix of the contacts endpoints", () => {
  it.each([
    ["GET", "/contacts", 200, 200],
    ["GET", "/contacts/list", 200, 200],
    ["GET", "/contacts/:id", 200, 200],
    ["POST", "/contacts", 201, 201],
    ["PUT", "/contacts/:id", 200, 200],
    ["DELETE", "/contacts/:id", 204, 403],
  ] as const)("%s %s → admin %i, user %i, anonymous 401", async (method, path, adminStatus, userStatus) => {
    for (const [role, session, expected] of [
      ["admin", a.adminSession, adminStatus],
      ["user", a.userSession, userStatus],
      ["anonymous", null, 401],
    ] as const) {
      const target = await buildContact(t.ctx, a.company.id);
      const body = method === "POST" ? { name: "Novo Contato", number: newNumber().typed } : method === "PUT" ? { name: "Nome Novo" } : undefined;
      const res = await call(session, method, path.replace(":id", String(target.id)), body);
      expect({ role, status: res.statusCode }).toEqual({ role, status: expected });
      if (expected === 403) expect(res.json()).toEqual({ error: "ERR_NO_PERMISSION" });
    }
  });
});

describe("validation (spec §5)", () => {
  it("answers the spec's texts for name, number and email", async () => {
    const res = await call(a.userSession, "POST", "/contacts", { name: "A", number: "1234", email: "x@" });
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toEqual(
      expect.arrayContaining([
        { path: "name", message: "Too Short!" },
        { path: "number", message: "Too Short!" },
        { path: "email", message: "Invalid email" },
      ]),
    );
    const missing = await call(a.userSession, "POST", "/contacts", {});
    expect(missing.json().issues).toEqual(
      expect.arrayContaining([
        { path: "name", message: "Required" },
        { path: "number", message: "Required" },
      ]),
    );
    const long = await call(a.userSession, "POST", "/contacts", { name: "x".repeat(51), number: "1".repeat(51) });
    expect(long.json().issues).toEqual(
      expect.arrayContaining([
        { path: "name", message: "Too Long!" },
        { path: "number", message: "Too Long!" },
      ]),
    );
  });

  it("refuses numbers that are not phone numbers with 'Invalid number', never a 500", async () => {
    for (const number of ["abcdefghij", "12345678", "(11) 1234-5678", "+99 999 999 999", "0000000000000"]) {
      const res = await call(a.userSession, "POST", "/contacts", { name: "Fulano", number });
      expect({ number, status: res.statusCode }).toEqual({ number, status: 400 });
      expect(res.json()).toMatchObject({ error: "Invalid number", issues: [{ path: "number", message: "Invalid number" }] });
    }
  });

  it("accepts a blank email and extra info rows; rejects an extra info row without a name", async () => {
    const ok = await call(a.userSession, "POST", "/contacts", {
      name: "Com Extras",
      number: newNumber().typed,
      email: "",
      extraInfo: [
        { name: "CPF", value: "123" },
        { name: "Cidade", value: "Floripa" },
      ],
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({
      email: "",
      extraInfo: [
        { name: "CPF", value: "123" },
        { name: "Cidade", value: "Floripa" },
      ],
    });
    const bad = await call(a.userSession, "POST", "/contacts", { name: "Sem Nome", number: newNumber().typed, extraInfo: [{ value: "x" }] });
    expect(bad.statusCode).toBe(400);
  });
});

describe("numbers: one person is one contact", () => {
  it("stores the typed number normalized to E.164 digits", async () => {
    for (const [typed, stored] of [
      ["+55 (21) 99876-1001", "5521998761001"],
      ["5521998761002", "5521998761002"],
      ["(21) 99876-1003", "5521998761003"],
      ["021 3344-1004", "552133441004"],
      ["+1 650 253 0000", "16502530000"],
      ["+351 912 345 678", "351912345678"],
    ] as const) {
      const res = await call(a.userSession, "POST", "/contacts", { name: "Normalizado", number: typed });
      expect({ typed, status: res.statusCode, number: res.json().number }).toEqual({ typed, status: 201, number: stored });
    }
  });

  it("refuses a second contact with the same number in any form, 9th-digit variant included", async () => {
    const { typed, stored } = newNumber();
    expect((await call(a.userSession, "POST", "/contacts", { name: "Original", number: typed })).statusCode).toBe(201);
    const withoutNine = `55${stored.slice(2, 4)}${stored.slice(5)}`;
    for (const again of [typed, stored, `+${stored}`, withoutNine]) {
      const res = await call(a.userSession, "POST", "/contacts", { name: "Duplicado", number: again });
      expect({ again, status: res.statusCode, body: res.json() }).toEqual({ again, status: 400, body: { error: "ERR_DUPLICATED_CONTACT" } });
    }
    // Another company may have the same person.
    expect((await call(b.userSession, "POST", "/contacts", { name: "Outra Empresa", number: typed })).statusCode).toBe(201);
  });

  it("refuses changing a contact's number to another contact's; keeping its own is fine", async () => {
    const first = await buildContact(t.ctx, a.company.id);
    const second = await buildContact(t.ctx, a.company.id);
    const clash = await call(a.userSession, "PUT", `/contacts/${second.id}`, { number: first.number });
    expect(clash.json()).toEqual({ error: "ERR_DUPLICATED_CONTACT" });
    const same = await call(a.userSession, "PUT", `/contacts/${second.id}`, { name: "Mesmo Número", number: `+${second.number}` });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ name: "Mesmo Número", number: second.number });
  });

  it("a changed number moves the phone identity: the old number is free again", async () => {
    const c = await buildContact(t.ctx, a.company.id);
    const old = c.number!;
    const { typed, stored } = newNumber();
    const res = await call(a.userSession, "PUT", `/contacts/${c.id}`, { number: typed });
    expect(res.json()).toMatchObject({ number: stored });
    const ids = await t.ctx.database.db.select().from(contactIdentities).where(eq(contactIdentities.contactId, c.id));
    expect(ids.map((i) => i.value)).toEqual([stored]);
    expect((await call(a.userSession, "POST", "/contacts", { name: "Herdeiro", number: old })).statusCode).toBe(201);
  });

  it("two simultaneous creates of one number make one contact", async () => {
    const { typed, stored } = newNumber();
    const results = await Promise.all([1, 2, 3].map(() => call(a.userSession, "POST", "/contacts", { name: "Corrida", number: typed })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400, 400]);
    const rows = await t.ctx.database.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, a.company.id), eq(contacts.number, stored)));
    expect(rows).toHaveLength(1);
  });
});

describe("checking numbers through WhatsApp", () => {
  it("without a connected default connection, numbers are not checked", async () => {
    const company = await buildCompany(t.ctx);
    await defaultConnection(company.id, "DISCONNECTED");
    let asked = 0;
    fakeChannels({ checkNumber: async () => (asked++, null) });
    const admin = await buildUser(t.ctx, company.id, { profile: "admin" });
    const session = await login(t.app, admin.email);
    expect((await call(session, "POST", "/contacts", { name: "Sem Checagem", number: newNumber().typed })).statusCode).toBe(201);
    expect(asked).toBe(0);
  });

  it("refuses a number without WhatsApp (ERR_WAPP_INVALID_CONTACT) and stores WhatsApp's form otherwise", async () => {
    const company = await buildCompany(t.ctx);
    await defaultConnection(company.id);
    const admin = await buildUser(t.ctx, company.id, { profile: "admin" });
    const session = await login(t.app, admin.email);
    const { typed, stored } = newNumber();
    const eightDigit = `55${stored.slice(2, 4)}${stored.slice(5)}`;
    fakeChannels({ checkNumber: async (digits) => (digits === stored ? eightDigit : null) });
    const invalid = await call(session, "POST", "/contacts", { name: "Sem Zap", number: "+55 48 99999-0000" });
    expect(invalid.json()).toEqual({ error: "ERR_WAPP_INVALID_CONTACT" });
    const ok = await call(session, "POST", "/contacts", { name: "Com Zap", number: typed });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().number).toBe(eightDigit);
    const ids = await t.ctx.database.db.select().from(contactIdentities).where(eq(contactIdentities.contactId, ok.json().id));
    expect(ids.map((i) => i.value).sort()).toEqual([eightDigit, stored].sort());
    expect(ids.every((i) => i.verifiedAt !== null)).toBe(true);
  });

  it("a failing check answers ERR_WAPP_CHECK_CONTACT", async () => {
    const company = await buildCompany(t.ctx);
    await defaultConnection(company.id);
    const admin = await buildUser(t.ctx, company.id, { profile: "admin" });
    fakeChannels({
      checkNumber: async () => {
        throw new Error("boom");
      },
    });
    const res = await call(await login(t.app, admin.email), "POST", "/contacts", { name: "Falha", number: newNumber().typed });
    expect(res.json()).toEqual({ error: "ERR_WAPP_CHECK_CONTACT" });
  });
});

describe("import from the default connection's address book", () => {
  it("creates new contacts, matches existing ones (9th digit included), skips groups", async () => {
    const company = await buildCompany(t.ctx);
    const admin = await buildUser(t.ctx, company.id, { profile: "admin" });
    const session = await login(t.app, admin.email);
    expect((await call(session, "POST", "/contacts/import")).json()).toEqual({ error: "ERR_NO_DEF_WAPP_FOUND" });
    const conn = await defaultConnection(company.id, "DISCONNECTED");
    expect((await call(session, "POST", "/contacts/import")).json()).toEqual({ error: "ERR_WAPP_NOT_INITIALIZED" });
    await t.ctx.database.db.update(connections).set({ status: "CONNECTED" }).where(eq(connections.id, conn.id));
    const existing = await buildContact(t.ctx, company.id, { number: "5548998760001", name: "Já Existe" });
    const book: { address: ChannelAddress; name?: string }[] = [
      { address: { kind: "phone", id: "554898760001" }, name: "Nome do Telefone" },
      { address: { kind: "phone", id: "5548998760002" }, name: "Novo Um" },
      { address: { kind: "wa_lid", id: "777@lid", alternates: [{ kind: "phone", id: "5548998760003" }] }, name: "Novo Dois" },
      { address: { kind: "group", id: "120363000000000001@g.us" }, name: "Grupo" },
      { address: { kind: "wa_lid", id: "888@lid" } },
    ];
    fakeChannels({ listContacts: async () => book });
    const socket = await connectSocket(t.app, session.token);
    const events = collectEvents<{ action: string; contact: { name: string } }>(socket, "contact");
    const res = await call(session, "POST", "/contacts/import");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ created: 2, existing: 1, skipped: 2 });
    const list = (await call(session, "GET", "/contacts/list")).json();
    expect(list.map((c: { name: string }) => c.name).sort()).toEqual(["Já Existe", "Novo Dois", "Novo Um"]);
    // Delivered through the outbox after the import's commit: waited for, not timed.
    await expect.poll(() => events.map((e) => e.contact.name).sort(), { timeout: 10_000 }).toEqual(["Novo Dois", "Novo Um"]);
    expect((await call(session, "GET", `/contacts/${existing.id}`)).json().name).toBe("Já Existe");
    // Running it again creates nothing.
    expect((await call(session, "POST", "/contacts/import")).json()).toEqual({ created: 0, existing: 3, skipped: 2 });
    socket.close();
  });
});

describe("show and update", () => {
  it("shows extra info and replaces it as a whole on update", async () => {
    const created = (
      await call(a.userSession, "POST", "/contacts", { name: "Extra", number: newNumber().typed, extraInfo: [{ name: "A", value: "1" }] })
    ).json();
    const shown = (await call(a.userSession, "GET", `/contacts/${created.id}`)).json();
    expect(shown.extraInfo).toEqual([{ id: expect.any(Number), name: "A", value: "1" }]);
    const updated = await call(a.userSession, "PUT", `/contacts/${created.id}`, {
      name: "Extra Dois",
      number: created.number,
      email: "Extra@Exemplo.com",
      extraInfo: [{ id: shown.extraInfo[0].id, name: "B", value: "2" }],
    });
    expect(updated.json()).toMatchObject({ name: "Extra Dois", email: "extra@exemplo.com", extraInfo: [{ name: "B", value: "2" }] });
    const rows = await t.ctx.database.db.select().from(contactExtraInfo).where(eq(contactExtraInfo.contactId, created.id));
    expect(rows.map((r) => r.name)).toEqual(["B"]);
  });

  it("a group contact keeps its group id as number when saved", async () => {
    const group = await buildContact(t.ctx, a.company.id, { number: "120363025246125999", isGroup: true, name: "Grupo" });
    const res = await call(a.userSession, "PUT", `/contacts/${group.id}`, { name: "Grupo Novo", number: group.number });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: "Grupo Novo", number: group.number, isGroup: true });
  });
});

describe("two-company isolation", () => {
  it("lists only the caller's company; companyId in /contacts/list is ignored for non-super users", async () => {
    const mine = await buildContact(t.ctx, a.company.id, { name: "Meu Cliente Isolado" });
    const theirs = await buildContact(t.ctx, b.company.id, { name: "Cliente Deles Isolado" });
    const page = (await call(a.adminSession, "GET", "/contacts?searchParam=isolado")).json();
    expect(page.contacts.map((c: { id: number }) => c.id)).toEqual([mine.id]);
    const simple = (await call(a.adminSession, "GET", `/contacts/list?companyId=${b.company.id}`)).json();
    expect(simple.map((c: { id: number }) => c.id)).toContain(mine.id);
    expect(simple.map((c: { id: number }) => c.id)).not.toContain(theirs.id);
  });

  it("another company's contact answers exactly like a missing one, for every verb, and is left untouched", async () => {
    const theirs = await buildContact(t.ctx, b.company.id, { name: "Intocável" });
    const missing = 2_000_000_000;
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", { name: "Hackeado", number: newNumber().typed, extraInfo: [{ name: "x", value: "y" }] }],
      ["DELETE", undefined],
    ] as const) {
      const foreign = await call(a.adminSession, method, `/contacts/${theirs.id}`, body);
      const absent = await call(a.adminSession, method, `/contacts/${missing}`, body);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).toBe(absent.body);
      expect(foreign.json()).toEqual({ error: "ERR_NO_CONTACT_FOUND" });
    }
    const [row] = await t.ctx.database.db.select().from(contacts).where(eq(contacts.id, theirs.id));
    expect(row).toMatchObject({ name: "Intocável", number: theirs.number });
    expect(await t.ctx.database.db.select().from(contactExtraInfo).where(eq(contactExtraInfo.contactId, theirs.id))).toEqual([]);
  });

  it("companyId smuggled into a create is ignored", async () => {
    const res = await call(a.userSession, "POST", "/contacts", { name: "Contrabando", number: newNumber().typed, companyId: b.company.id });
    expect(res.statusCode).toBe(201);
    expect(res.json().companyId).toBe(a.company.id);
  });
});

describe("listing", () => {
  it("searches name, number and email ignoring case and accents; pages of 20 by name with hasMore", async () => {
    const company = await buildCompany(t.ctx);
    const admin = await buildUser(t.ctx, company.id, { profile: "admin" });
    const session = await login(t.app, admin.email);
    await buildContact(t.ctx, company.id, { name: "João Conceição", number: "5511987654321", email: "joao@loja.com.br" });
    for (let i = 0; i < 21; i++) await buildContact(t.ctx, company.id, { name: `Pessoa ${String(i).padStart(2, "0")}` });
    const byName = (await call(session, "GET", "/contacts?searchParam=JOAO%20CONCEICAO")).json();
    expect(byName.contacts.map((c: { name: string }) => c.name)).toEqual(["João Conceição"]);
    const byNumber = (await call(session, "GET", `/contacts?searchParam=${encodeURIComponent("(11) 98765-4321")}`)).json();
    expect(byNumber.contacts.map((c: { name: string }) => c.name)).toEqual(["João Conceição"]);
    const byEmail = (await call(session, "GET", "/contacts?searchParam=LOJA.COM")).json();
    expect(byEmail.contacts.map((c: { name: string }) => c.name)).toEqual(["João Conceição"]);
    const page1 = (await call(session, "GET", "/contacts?pageNumber=1")).json();
    const page2 = (await call(session, "GET", "/contacts?pageNumber=2")).json();
    expect(page1.contacts).toHaveLength(20);
    expect(page1.hasMore).toBe(true);
    expect(page1.contacts[0].name).toBe("João Conceição");
    expect(page2.contacts).toHaveLength(2);
    expect(page2.hasMore).toBe(false);
    expect((await call(session, "GET", "/contacts?searchParam=%25")).json().contacts).toHaveLength(0);
    expect((await call(session, "GET", "/contacts?pageNumber=0")).statusCode).toBe(400);
    expect((await call(session, "GET", "/contacts/abc")).statusCode).toBe(400);
  });
});

describe("contact events", () => {
  it("create, update and delete reach sockets of the same company only", async () => {
    const socketA = await connectSocket(t.app, a.userSession.token);
    const socketB = await connectSocket(t.app, b.adminSession.token);
    const leaked = collectEvents(socketB, "contact");
    const created = nextEvent<{ action: string; contact: { id: number; name: string } }>(socketA, "contact");
    const res = await call(a.userSession, "POST", "/contacts", { name: "Evento", number: newNumber().typed });
    expect(await created).toMatchObject({ action: "create", contact: { name: "Evento", companyId: a.company.id } });
    const id = res.json().id;
    const updated = nextEvent(socketA, "contact");
    await call(a.userSession, "PUT", `/contacts/${id}`, { name: "Evento Dois" });
    expect(await updated).toMatchObject({ action: "update", contact: { id, name: "Evento Dois" } });
    const deleted = nextEvent(socketA, "contact");
    await call(a.adminSession, "DELETE", `/contacts/${id}`);
    expect(await deleted).toEqual({ action: "delete", contactId: id });
    await new Promise((r) => setTimeout(r, 100));
    expect(leaked).toEqual([]);
    socketA.close();
    socketB.close();
  });
});
