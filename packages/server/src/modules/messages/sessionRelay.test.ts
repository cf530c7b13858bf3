/**
 * Two app instances on one database (two processes behind a load balancer): number checks, the address
 * book import, the contact lists' check job and the simulator's API, called on the process that does not
 * run the connection, are answered by the one that does — with its result and its errors.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { App } from "../../app";
import { connectionLeases, connections, contactListItems } from "../../db/schema";
import { buildTenant, type Session } from "../../test/factories";
import { secondProcess, type SecondProcess } from "../../test/secondProcess";
import { createTestApp, type TestApp } from "../../test/testApp";
import { NumberChecker } from "../contactLists/whatsappCheck";

let t: TestApp;
let second: SecondProcess;
let tenant: Awaited<ReturnType<typeof buildTenant>>;
let connectionId = 0;

const call = (app: App, session: Session, method: "GET" | "POST" | "DELETE", url: string, payload?: object) =>
  app.inject({ method, url: `/api${url}`, headers: session.headers, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0", SEND_RELAY_TIMEOUT_MS: "15000" });
  second = await secondProcess(t);
  tenant = await buildTenant(t.app);
  // The company's default connection, run by the first process.
  const conn = (await call(t.app, tenant.adminSession, "POST", "/whatsapp", { name: "Relé de sessão", isDefault: true })).json();
  await call(t.app, tenant.adminSession, "POST", `/simulator/${conn.id}/scan`, { code: conn.qrcode });
  await vi.waitFor(
    async () => {
      expect(t.ctx.channels.isLocal(conn.id)).toBe(true);
      expect((await t.ctx.database.db.select().from(connections).where(eq(connections.id, conn.id)))[0]?.status).toBe("CONNECTED");
    },
    { timeout: 15_000, interval: 100 },
  );
  expect(second.ctx.channels.isLocal(conn.id)).toBe(false);
  connectionId = conn.id as number;
});

afterAll(async () => {
  await second?.app.close();
  await second?.database.close();
  await t.close();
});

describe("session work through the connection's owner", () => {
  it("a contact saved on the other process has its number checked by the owner's session", async () => {
    // The simulator refuses numbers ending in SIMULATOR_INVALID_SUFFIX (0000): only its session knows.
    const refused = await call(second.app, tenant.adminSession, "POST", "/contacts", { name: "Sem WhatsApp", number: "5511987650000" });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({ error: "ERR_WAPP_INVALID_CONTACT" });
    const saved = await call(second.app, tenant.adminSession, "POST", "/contacts", { name: "Com WhatsApp", number: "5511987651111" });
    expect(saved.statusCode, saved.body).toBeLessThan(300);
  });

  it("the contact lists' check job on the other process marks the items through the owner", async () => {
    const list = (await call(t.app, tenant.adminSession, "POST", "/contact-lists", { name: "Relé" })).json() as { id: number };
    await t.ctx.database.db.insert(contactListItems).values([
      { companyId: tenant.company.id, contactListId: list.id, name: "Ana", number: "5511987652222", email: "" },
      { companyId: tenant.company.id, contactListId: list.id, name: "Bia", number: "5511987660000", email: "" },
    ]);
    await new NumberChecker(second.ctx).run(tenant.company.id, list.id);
    const rows = await t.ctx.database.db.select().from(contactListItems).where(eq(contactListItems.contactListId, list.id));
    expect(Object.fromEntries(rows.map((r) => [r.name, r.isWhatsappValid]))).toEqual({ Ana: true, Bia: false });
  });

  it("the simulator's API on the other process answers with the owner's phones, media, status codes and errors", { timeout: 60_000 }, async () => {
    const phone = "5511987653333";
    // Larger than one NOTIFY (8000 bytes) both ways: the request carries it, the media answer brings it back.
    const pdf = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(30_000, 0x41)]);
    const sent = await call(second.app, tenant.adminSession, "POST", `/simulator/${connectionId}/phones/${phone}/messages`, {
      type: "document",
      data: pdf.toString("base64"),
      mimeType: "application/pdf",
      fileName: "pedido.pdf",
      name: "Cliente remoto",
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const messageId = sent.json().id as string;
    const here = (await call(t.app, tenant.adminSession, "GET", `/simulator/${connectionId}/phones`)).json();
    expect(here.map((p: { number: string }) => p.number)).toContain(phone);
    const there = await call(second.app, tenant.adminSession, "GET", `/simulator/${connectionId}/phones`);
    expect(there.json()).toEqual(here);
    const state = await call(second.app, tenant.adminSession, "GET", `/simulator/${connectionId}`);
    expect(state.json()).toMatchObject({ live: true, connection: { status: "CONNECTED" } });
    const media = await call(second.app, tenant.adminSession, "GET", `/simulator/${connectionId}/phones/${phone}/messages/${messageId}/media`);
    expect(media.statusCode).toBe(200);
    expect(media.headers["content-type"]).toBe("application/pdf");
    expect(media.headers["content-security-policy"]).toContain("sandbox");
    expect(media.rawPayload.equals(pdf)).toBe(true);
    const missing = await call(second.app, tenant.adminSession, "POST", `/simulator/${connectionId}/phones/${phone}/messages/nada/ack`, { ack: 3 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: "ERR_SIMULATOR_NO_MESSAGE" });
    // The address book import on the other process lists the owner's phones.
    const imported = await call(second.app, tenant.adminSession, "POST", "/contacts/import");
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json().created + imported.json().existing).toBeGreaterThanOrEqual(1);
  });

  it("a pairing code asked on the process that does not run the connection comes from the owner's session", async () => {
    const created = (await call(t.app, tenant.adminSession, "POST", "/whatsapp", { name: "Código pelo outro nó" })).json() as { id: number };
    await vi.waitFor(() => expect(t.ctx.channels.isLocal(created.id) || second.ctx.channels.isLocal(created.id)).toBe(true), { timeout: 15_000 });
    const [owner, other] = t.ctx.channels.isLocal(created.id) ? [t, second] : [second, t];
    await vi.waitFor(
      async () => expect((await owner.ctx.database.db.select().from(connections).where(eq(connections.id, created.id)))[0]?.status).toBe("qrcode"),
      { timeout: 15_000 },
    );
    const res = await call(other.app, tenant.adminSession, "POST", `/whatsappsession/${created.id}/pairing-code`, { phoneNumber: "5511988887777" });
    expect(res.statusCode, res.body).toBe(200);
    const { code } = res.json() as { code: string };
    expect(code).toMatch(/^[1-9A-HJ-NP-TV-Z]{8}$/);
    expect(other.ctx.channels.isLocal(created.id)).toBe(false);
    const [row] = await t.ctx.database.db.select().from(connections).where(eq(connections.id, created.id));
    expect(row).toMatchObject({ status: "PAIRING", qrcode: code });
  });

  it("an owner that never answers: the simulator call is refused, a number goes unchecked", async () => {
    const other = await buildTenant(t.app);
    const [ghost] = await t.ctx.database.db
      .insert(connections)
      .values({ companyId: other.company.id, name: "Fantasma", channel: "simulator", status: "CONNECTED", token: "ghost-session", isDefault: true })
      .returning();
    await t.ctx.database.db
      .insert(connectionLeases)
      .values({ connectionId: ghost!.id, companyId: other.company.id, ownerId: "ghost:1:dead", expiresAt: new Date(Date.now() + 60_000) });
    // A process of its own with a short relay timeout: the file's 15 s one would only make the test wait.
    const impatient = await secondProcess(t, { sendRelayTimeoutMs: 1000 });
    try {
      const refused = await call(impatient.app, other.adminSession, "GET", `/simulator/${ghost!.id}/phones`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ error: "ERR_WAPP_NOT_INITIALIZED" });
      const saved = await call(impatient.app, other.adminSession, "POST", "/contacts", { name: "Sem checagem", number: "5511987670000" });
      expect(saved.statusCode, saved.body).toBeLessThan(300);
    } finally {
      await impatient.app.close();
      await impatient.database.close();
    }
  });
});
