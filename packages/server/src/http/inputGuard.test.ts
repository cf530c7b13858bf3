import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connections, contacts, tickets } from "../db/schema";
import { buildTenant, type Session } from "../test/factories";
import { createTestApp, type TestApp } from "../test/testApp";

/**
 * Issue 11: input that used to reach PostgreSQL and come back as a 500. Control characters anywhere (body,
 * query, path; login included), impossible calendar dates, ids Number() would accept, broken multipart.
 */

let t: TestApp;
let tenant: Awaited<ReturnType<typeof buildTenant>>;
let openTicketId: number;
beforeAll(async () => {
  t = await createTestApp();
  tenant = await buildTenant(t.app);
  const db = t.ctx.database.db;
  const [connection] = await db
    .insert(connections)
    .values({ companyId: tenant.company.id, name: "Conexão", isDefault: true, status: "CONNECTED" })
    .returning();
  const [contact] = await db.insert(contacts).values({ companyId: tenant.company.id, name: "Cliente", number: "5511987650001" }).returning();
  const [ticket] = await db
    .insert(tickets)
    .values({ companyId: tenant.company.id, contactId: contact!.id, connectionId: connection!.id, status: "open", userId: tenant.admin.id })
    .returning();
  openTicketId = ticket!.id;
});
afterAll(() => t.close());

const call = (s: Session | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: s ? s.headers : {}, ...(payload ? { payload } : {}) });

describe("control characters", () => {
  const NUL = "\u0000";
  it("refuse NUL in every kind of text field with 400 ERR_INVALID_CHARACTERS, login included", async () => {
    const admin = tenant.adminSession;
    const cases: [Session | null, "GET" | "POST" | "PUT", string, object?][] = [
      [null, "POST", "/auth/login", { email: `a${NUL}@test.dev`, password: "secret-123" }],
      [null, "POST", "/auth/login", { email: tenant.admin.email, password: `secret${NUL}123` }],
      [null, "POST", "/companies/cadastro", { name: `Empresa${NUL}`, email: "nul@test.dev", password: "segredo", planId: 1 }],
      [admin, "POST", "/contacts", { name: `Ana${NUL}`, number: "5511987650002" }],
      [admin, "POST", "/contacts", { name: "Ana", number: "5511987650003", extraInfo: [{ name: "CPF", value: `1${NUL}` }] }],
      [admin, "POST", "/tags", { name: `vip${NUL}` }],
      [admin, "POST", "/quick-messages", { shortcode: "oi1", message: `Olá${NUL}` }],
      [admin, "POST", "/users", { name: `Bia${NUL}`, email: "bia-nul@test.dev", password: "secret-123", profile: "user" }],
      [admin, "POST", `/messages/${openTicketId}`, { body: `oi${NUL}` }],
      [admin, "GET", `/tickets?searchParam=${encodeURIComponent(`ana${NUL}`)}`],
      [admin, "GET", `/contacts?searchParam=${encodeURIComponent(NUL)}`],
      [admin, "GET", `/users?searchParam=${encodeURIComponent(NUL)}`],
      [admin, "GET", `/tickets/${encodeURIComponent(NUL)}`],
      [admin, "GET", `/tickets/u/${encodeURIComponent(`1${NUL}`)}`],
    ];
    for (const [session, method, url, payload] of cases) {
      const res = await call(session, method, url, payload);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(res.json().error, url).toBe("ERR_INVALID_CHARACTERS");
    }
  });

  it("refuse the other C0 controls and DEL, and object keys carrying them", async () => {
    for (const ch of ["\u0001", "\u0008", "\u000B", "\u001B", "\u007F"]) {
      const res = await call(tenant.adminSession, "POST", "/tags", { name: `tag${ch}x` });
      expect(res.statusCode, JSON.stringify(ch)).toBe(400);
    }
    const key = await call(tenant.adminSession, "PUT", `/tickets/${openTicketId}`, { ["st\u0000atus"]: "open" });
    expect(key.json()).toMatchObject({ error: "ERR_INVALID_CHARACTERS", meta: { field: "body.st\u0000atus" } });
  });

  it("accept tabs and line breaks where text is free", async () => {
    const res = await call(tenant.adminSession, "POST", "/quick-messages", { shortcode: "linhas", message: "Olá,\n\tcomo vai?\r\nAbraço" });
    expect(res.statusCode).toBeLessThan(300);
    expect(res.json().message).toBe("Olá,\n\tcomo vai?\r\nAbraço");
  });

  it("refuse NUL in multipart text fields and file names", async () => {
    const boundary = "----balcao";
    const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const res = await t.app.inject({
      method: "POST",
      url: `/api/messages/${openTicketId}`,
      headers: { ...tenant.adminSession.headers, "content-type": `multipart/form-data; boundary=${boundary}` },
      payload: `${field("body", `oi${"\u0000"}`)}--${boundary}--\r\n`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_INVALID_CHARACTERS");
  });
});

describe("calendar dates in ticket filters", () => {
  it("refuse days that do not exist with 400 and accept real ones", async () => {
    for (const day of ["2024-02-30", "2023-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "0000-01-01", "2024-1-01"]) {
      for (const field of ["date", "updatedAt"]) {
        const res = await call(tenant.adminSession, "GET", `/tickets?${field}=${day}`);
        expect(res.statusCode, `${field}=${day}`).toBe(400);
      }
    }
    for (const day of ["2024-02-29", "1999-12-31"]) expect((await call(tenant.adminSession, "GET", `/tickets?date=${day}`)).statusCode).toBe(200);
  });
});

describe("ids", () => {
  it("refuse what Number() would coerce: hex, exponent, spaces, decimals, signs", async () => {
    for (const id of ["0x5", "1e3", "%205", "5%20", "5.0", "+5", "-1", "0", "99999999999", "0b1", "Infinity"]) {
      const res = await call(tenant.adminSession, "GET", `/tickets/${id}`);
      expect(res.statusCode, id).toBe(400);
    }
    expect((await call(tenant.adminSession, "GET", `/tickets/${openTicketId}`)).statusCode).toBe(200);
  });

  it("in bodies and id lists too", async () => {
    for (const queueId of ["0x5", "1e3", " 5", 1.5, -2]) {
      const res = await call(tenant.adminSession, "PUT", `/tickets/${openTicketId}`, { queueId });
      expect(res.statusCode, JSON.stringify(queueId)).toBe(400);
    }
    for (const list of ["0x5", "1e3", '["0x5"]', "1,0x2"]) {
      const res = await call(tenant.adminSession, "GET", `/tickets?queueIds=${list}`);
      expect(res.statusCode, list).toBe(400);
    }
    expect((await call(tenant.adminSession, "GET", "/tickets?queueIds=1,2")).statusCode).toBe(200);
  });
});

describe("multipart", () => {
  const boundary = "----balcao-upload";
  const upload = (payload: string, contentType = `multipart/form-data; boundary=${boundary}`) =>
    t.app.inject({
      method: "POST",
      url: `/api/messages/${openTicketId}`,
      headers: { ...tenant.adminSession.headers, "content-type": contentType },
      payload,
    });
  const filePart = `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello world`;

  it("a body cut in the middle of a file answers 400 ERR_INVALID_UPLOAD", async () => {
    const res = await upload(filePart);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_INVALID_UPLOAD");
  });

  it("a body cut in the middle of the part headers, or without a boundary, answers 400", async () => {
    const cut = await upload(`--${boundary}\r\nContent-Disposition: form-da`);
    expect(cut.statusCode).toBe(400);
    const noBoundary = await upload(filePart, "multipart/form-data");
    expect(noBoundary.statusCode).toBeGreaterThanOrEqual(400);
    expect(noBoundary.statusCode).toBeLessThan(500);
    const garbage = await upload("not multipart at all");
    expect(garbage.statusCode).toBeGreaterThanOrEqual(400);
    expect(garbage.statusCode).toBeLessThan(500);
  });
});
