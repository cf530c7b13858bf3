import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectionDTO } from "@balcao/shared";
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

function call(session: Session | null, method: "GET" | "POST", url: string, payload?: object) {
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
