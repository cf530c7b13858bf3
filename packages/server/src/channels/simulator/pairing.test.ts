import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectionDTO, ConnectionHealthDTO } from "@balcao/shared";
import { buildTenant, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

/**
 * Issue 11: attendants could read a connection's pairing code through the simulator API and "scan" it,
 * pairing the company's number; the simulator served customer media with the customer-declared type.
 */

let t: TestApp;
let tenant: Awaited<ReturnType<typeof buildTenant>>;
let conn: ConnectionDTO;
beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_ACK_DELAY_MS: "0" });
  tenant = await buildTenant(t.app);
  conn = (await call(tenant.adminSession, "POST", "/whatsapp", { name: "Simulador" })).json();
});
afterAll(() => t.close());

function call(session: Session | null, method: "GET" | "POST" | "DELETE", url: string, payload?: object) {
  return t.app.inject({ method, url: `/api${url}`, headers: session ? session.headers : {}, ...(payload ? { payload } : {}) });
}

describe("pairing codes", () => {
  it("are shown to admins only and only an admin may scan", async () => {
    expect(conn.qrcode).toBeTruthy();
    const userList = (await call(tenant.userSession, "GET", "/simulator/connections")).json() as { id: number; qrcode: string | null }[];
    expect(userList.find((c) => c.id === conn.id)!.qrcode).toBeNull();
    const adminList = (await call(tenant.adminSession, "GET", "/simulator/connections")).json() as { id: number; qrcode: string | null }[];
    expect(adminList.find((c) => c.id === conn.id)!.qrcode).toBe(conn.qrcode);

    const userState = (await call(tenant.userSession, "GET", `/simulator/${conn.id}`)).json();
    expect(userState.connection.qrcode).toBe("");
    const adminState = (await call(tenant.adminSession, "GET", `/simulator/${conn.id}`)).json();
    expect(adminState.connection.qrcode).toBe(conn.qrcode);

    // The secret link (for playing customers) does not reveal or accept the code either.
    const { key } = (await call(tenant.adminSession, "GET", `/simulator/${conn.id}/link`)).json() as { key: string };
    const linkState = (await call(null, "GET", `/simulator/${conn.id}?key=${encodeURIComponent(key)}`)).json();
    expect(linkState.connection.qrcode).toBe("");
    expect((await call(null, "POST", `/simulator/${conn.id}/scan?key=${encodeURIComponent(key)}`, { code: conn.qrcode })).statusCode).toBe(403);

    const denied = await call(tenant.userSession, "POST", `/simulator/${conn.id}/scan`, { code: conn.qrcode });
    expect(denied.statusCode).toBe(403);
    const paired = await call(tenant.adminSession, "POST", `/simulator/${conn.id}/scan`, { code: conn.qrcode });
    expect(paired.statusCode).toBe(200);
    expect(paired.json().status).toBe("CONNECTED");
  });
});

describe("customer media served by the simulator", () => {
  it("carries the type its bytes are, not the declared one, and a sandbox CSP", async () => {
    const html = Buffer.from("<html><script>alert(document.cookie)</script></html>");
    const sent = await call(tenant.adminSession, "POST", `/simulator/${conn.id}/phones/5511987659876/messages`, {
      type: "image",
      data: html.toString("base64"),
      mimeType: "image/png",
      fileName: "gato.png",
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const media = await call(tenant.adminSession, "GET", `/simulator/${conn.id}/phones/5511987659876/messages/${sent.json().id}/media`);
    expect(media.statusCode).toBe(200);
    expect(media.headers["content-type"]).not.toMatch(/image\/png|text\/html/);
    expect(media.headers["content-security-policy"]).toContain("sandbox");
    expect(media.headers["x-content-type-options"]).toBe("nosniff");
  });
});

describe("pairing by phone code (issue 21)", () => {
  it("an admin asks for the code for the company's number; the simulated phone types it (with or without the dash) and the connection pairs", async () => {
    const created = (await call(tenant.adminSession, "POST", "/whatsapp", { name: "Simulador código" })).json() as ConnectionDTO;
    expect(created.status).toBe("qrcode");
    expect((await call(tenant.userSession, "POST", `/whatsappsession/${created.id}/pairing-code`, { phoneNumber: "5511988887777" })).statusCode).toBe(
      403,
    );
    const res = await call(tenant.adminSession, "POST", `/whatsappsession/${created.id}/pairing-code`, { phoneNumber: "+55 11 98888-7777" });
    expect(res.statusCode, res.body).toBe(200);
    const { code, expiresAt } = res.json() as { code: string; expiresAt: string };
    expect(code).toMatch(/^[1-9A-HJ-NP-TV-Z]{8}$/);
    expect(new Date(expiresAt).getTime()).toBeGreaterThan(Date.now());
    const shown = (await call(tenant.adminSession, "GET", `/whatsapp/${created.id}`)).json() as ConnectionDTO;
    expect(shown).toMatchObject({ status: "PAIRING", qrcode: code });
    // The QR shown before is no longer valid, nor a wrong code.
    expect((await call(tenant.adminSession, "POST", `/simulator/${created.id}/scan`, { code: created.qrcode })).statusCode).toBe(400);
    expect((await call(tenant.adminSession, "POST", `/simulator/${created.id}/scan`, { code: "AAAA-AAAA" })).statusCode).toBe(400);
    const typed = await call(tenant.adminSession, "POST", `/simulator/${created.id}/scan`, {
      code: `${code.slice(0, 4)}-${code.slice(4).toLowerCase()}`,
    });
    expect(typed.statusCode, typed.body).toBe(200);
    expect(typed.json().status).toBe("CONNECTED");
    const again = await call(tenant.adminSession, "POST", `/whatsappsession/${created.id}/pairing-code`, { phoneNumber: "5511988887777" });
    expect(again.json().error).toBe("ERR_WAPP_NOT_PAIRING");
    // Another company cannot ask for a code of this connection.
    const other = await buildTenant(t.app);
    expect((await call(other.adminSession, "POST", `/whatsappsession/${created.id}/pairing-code`, { phoneNumber: "5511988887777" })).statusCode).toBe(
      404,
    );
  });
});

describe("health of a simulator connection (issue 21)", () => {
  it("records pairing, connection and an administrator's disconnect on the timeline; a requested stop is not an error", async () => {
    const created = (await call(tenant.adminSession, "POST", "/whatsapp", { name: "Simulador saúde" })).json() as ConnectionDTO;
    expect((await call(tenant.adminSession, "POST", `/simulator/${created.id}/scan`, { code: created.qrcode })).json().status).toBe("CONNECTED");
    expect((await call(tenant.adminSession, "DELETE", `/whatsappsession/${created.id}`)).statusCode).toBe(200);
    const res = await call(tenant.adminSession, "GET", `/whatsapp/${created.id}/health`);
    expect(res.statusCode, res.body).toBe(200);
    const health = res.json() as ConnectionHealthDTO;
    expect(health.timeline.map((e) => [e.status, e.reason])).toEqual([
      ["DISCONNECTED", "requested"],
      ["CONNECTED", null],
      ["qrcode", null],
    ]);
    expect(health).toMatchObject({ status: "DISCONNECTED", reason: "requested", needsScan: false, lastError: null });
    expect(health.connectedMs.last24h).toBeGreaterThanOrEqual(0);
  });
});
