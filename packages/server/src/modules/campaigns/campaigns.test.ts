/**
 * Campaigns through the HTTP API, the job runner and a live simulator connection: CRUD and the spec's rules,
 * settings, runs to FINALIZADA (rotation, variables, confirmations, pause on a disconnected connection,
 * pacing on a fake clock) and live `campaign` events. Crashes and two processes: campaigns.crash.test.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampaignDetailDTO, CampaignDTO, CampaignEvent, CampaignSettingRow, CampaignShippingListResponse } from "@balcao/shared";
import type { App } from "../../app";
import { companies, mediaFiles, messages } from "../../db/schema";
import { buildTenant, collectEvents, connectSocket, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { CAMPAIGN_START_JOB, campaignJobKey, DEFAULT_DISPATCHER_OPTIONS, dispatcherFor, pacingDelayMs, variantFor, type Clock } from "./dispatcher";
import { phoneInbox, seedList } from "../../test/campaigns";
import { CAMPAIGN_MEDIA_MAX_BYTES } from "./routes";
import { readCache } from "../../cache/readCache";

const poll = <T>(fn: () => T | Promise<T>, timeout = 20_000) => expect.poll(fn, { timeout, interval: 100 });

let t: TestApp;
const ENV = { JOBS_POLL_SECONDS: "0.5", SIMULATOR_ACK_DELAY_MS: "0", OUTBOX_POLL_MS: "100" };

beforeAll(async () => {
  t = await createTestApp(ENV);
  dispatcherFor(t.ctx).configure({ pauseRecheckMs: 300, confirmationRecheckMs: 300, sendLockMs: 2_000 });
});
afterAll(async () => {
  await t.close();
});

const api = (s: Session, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: s.headers, ...(payload ? { payload } : {}) });
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

/** A company with a paired simulator connection. */
async function desk(app: App = t.app) {
  const tenant = await buildTenant(app);
  const created = (
    await app.inject({
      method: "POST",
      url: "/api/whatsapp",
      headers: tenant.adminSession.headers,
      payload: { name: `Sim ${Math.random()}`, isDefault: true },
    })
  ).json();
  const scanned = await app.inject({
    method: "POST",
    url: `/api/simulator/${created.id}/scan`,
    headers: tenant.adminSession.headers,
    payload: { code: created.qrcode },
  });
  expect(scanned.statusCode, scanned.body).toBe(200);
  return { ...tenant, connectionId: created.id as number };
}

const fast = { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 };

async function waitStatus(s: Session, id: number, status: string, timeout = 20_000) {
  await poll(async () => ((await api(s, "GET", `/campaigns/${id}`)).json() as CampaignDetailDTO).status, timeout).toBe(status);
  return (await api(s, "GET", `/campaigns/${id}`)).json() as CampaignDetailDTO;
}

/** A campaign of `list` on the desk's connection, due half a second from now (the start job then runs it). */
async function scheduleCampaign(d: { adminSession: Session; connectionId: number }, list: { id: number }, fields: Record<string, unknown>) {
  const res = await api(d.adminSession, "POST", "/campaigns", {
    ...fields,
    whatsappId: d.connectionId,
    contactListId: list.id,
    scheduledAt: inSeconds(0.5),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as CampaignDTO;
}

describe("validation (spec §5)", () => {
  it("answers the spec's texts for the name and requires connection, list and a message when scheduled", async () => {
    const d = await desk();
    const list = await seedList(t.ctx, d.company.id, 1);
    const cases: [object, string, string][] = [
      [{ name: "" }, "name", "Required"],
      [{ name: "A" }, "name", "Too Short!"],
      [{ name: "x".repeat(51) }, "name", "Too Long!"],
      [{ name: "Black Friday", scheduledAt: inSeconds(7200), contactListId: list.id, message1: "Oi" }, "whatsappId", "Obrigatório"],
      [{ name: "Black Friday", scheduledAt: inSeconds(7200), whatsappId: d.connectionId, message1: "Oi" }, "contactListId", "Obrigatório"],
      [{ name: "Black Friday", scheduledAt: inSeconds(7200), whatsappId: d.connectionId, contactListId: list.id }, "message1", "Obrigatório"],
      [
        {
          name: "Black Friday",
          scheduledAt: inSeconds(7200),
          whatsappId: d.connectionId,
          contactListId: list.id,
          message1: "Oi",
          confirmation: true,
        },
        "confirmationMessage1",
        "Obrigatório",
      ],
      [{ name: "Black Friday", scheduledAt: "amanhã" }, "scheduledAt", "Invalid date"],
    ];
    for (const [payload, field, text] of cases) {
      const res = await api(d.adminSession, "POST", "/campaigns", payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().issues).toContainEqual(expect.objectContaining({ path: field, message: text }));
    }
  });

  it("refuses another company's connection or list as if missing", async () => {
    const a = await desk();
    const b = await desk();
    const theirList = await seedList(t.ctx, b.company.id, 1);
    const conn = await api(a.adminSession, "POST", "/campaigns", { name: "Teste", whatsappId: b.connectionId });
    expect(conn.statusCode).toBe(400);
    expect(conn.json().error).toBe("ERR_NO_WAPP_FOUND");
    const list = await api(a.adminSession, "POST", "/campaigns", { name: "Teste", contactListId: theirList.id });
    expect(list.statusCode).toBe(400);
    expect(list.json().error).toBe("ERR_CAMPAIGN_LIST_NOT_FOUND");
  });
});

describe("CRUD, editability, cancel and restart (spec §4)", () => {
  it("creates INATIVA without a schedule, PROGRAMADA with one (start job due then), lists, searches and deletes", async () => {
    const d = await desk();
    const list = await seedList(t.ctx, d.company.id, 3);
    const body = {
      name: "Natal 2026",
      message1: "Feliz Natal, {nome}!",
      whatsappId: d.connectionId,
      contactListId: list.id,
      scheduledAt: "",
      confirmation: false,
    };
    const created = await api(d.adminSession, "POST", "/campaigns", body);
    expect(created.statusCode, created.body).toBe(201);
    const c = created.json() as CampaignDTO;
    expect(c).toMatchObject({
      name: "Natal 2026",
      status: "INATIVA",
      scheduledAt: null,
      whatsappId: d.connectionId,
      whatsapp: { id: d.connectionId },
      contactListId: list.id,
      contactList: { id: list.id, name: list.name },
      editable: true,
      pauseReason: null,
    });

    const detail = (await api(d.adminSession, "GET", `/campaigns/${c.id}`)).json() as CampaignDetailDTO;
    expect(detail.counts).toEqual({ validContacts: 3, confirmationRequested: 0, confirmations: 0, delivered: 0, failed: 0 });

    const at = inSeconds(7200);
    const scheduled = await api(d.adminSession, "PUT", `/campaigns/${c.id}`, { ...body, scheduledAt: at });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json()).toMatchObject({ status: "PROGRAMADA", scheduledAt: new Date(at).toISOString(), editable: true });
    const { rows } = await t.ctx.database.pool!.query<{ state: string; start_after: Date }>(
      "select state, start_after from pgboss.job where name = $1 and singleton_key = $2 order by created_on",
      [CAMPAIGN_START_JOB, campaignJobKey(c.id)],
    );
    expect(rows.map((r) => r.state)).toEqual(["created"]);
    expect(rows[0]!.start_after.toISOString()).toBe(new Date(at).toISOString());

    // Back to no schedule: INATIVA, the start job cancelled.
    const unscheduled = await api(d.adminSession, "PUT", `/campaigns/${c.id}`, body);
    expect(unscheduled.json()).toMatchObject({ status: "INATIVA", scheduledAt: null });

    await api(d.adminSession, "POST", "/campaigns", { ...body, name: "Páscoa" });
    const page = (await api(d.adminSession, "GET", "/campaigns/?pageNumber=1")).json();
    expect(page.hasMore).toBe(false);
    expect(page.records.map((r: CampaignDTO) => r.name)).toEqual(["Páscoa", "Natal 2026"]);
    const search = (await api(d.adminSession, "GET", "/campaigns/?searchParam=pascoa")).json();
    expect(search.records.map((r: CampaignDTO) => r.name)).toEqual(["Páscoa"]);

    expect((await api(d.adminSession, "DELETE", `/campaigns/${c.id}`)).statusCode).toBe(204);
    expect((await api(d.adminSession, "GET", `/campaigns/${c.id}`)).statusCode).toBe(404);
  });

  it("a PROGRAMADA campaign less than an hour ahead is read-only; cancel only from EM_ANDAMENTO, restart only from CANCELADA", async () => {
    const d = await desk();
    const list = await seedList(t.ctx, d.company.id, 1);
    const body = { name: "Relâmpago", message1: "Oi", whatsappId: d.connectionId, contactListId: list.id, scheduledAt: inSeconds(1800) };
    const c = (await api(d.adminSession, "POST", "/campaigns", body)).json() as CampaignDTO;
    expect(c).toMatchObject({ status: "PROGRAMADA", editable: false });
    const edit = await api(d.adminSession, "PUT", `/campaigns/${c.id}`, { ...body, name: "Outra" });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().error).toBe("ERR_CAMPAIGN_NOT_EDITABLE");
    const cancel = await api(d.adminSession, "POST", `/campaigns/${c.id}/cancel`);
    expect(cancel.statusCode).toBe(400);
    expect(cancel.json().error).toBe("ERR_CAMPAIGN_CANNOT_CANCEL");
    const restart = await api(d.adminSession, "POST", `/campaigns/${c.id}/restart`);
    expect(restart.statusCode).toBe(400);
    expect(restart.json().error).toBe("ERR_CAMPAIGN_CANNOT_RESTART");
    expect((await api(d.adminSession, "POST", "/campaigns/999999/cancel")).statusCode).toBe(404);
  });

  it("cancels a running campaign (stays editable, rows kept) and restarts it without resending", async () => {
    const d = await desk();
    await api(d.adminSession, "POST", "/campaign-settings", { settings: { messageInterval: 5, longerIntervalAfter: 0, greaterInterval: 0 } });
    const list = await seedList(t.ctx, d.company.id, 3);
    // Sends the first message, then waits 5 s: cancelled in that wait.
    const body = { name: "Pausável", message1: "Promo {nome}", whatsappId: d.connectionId, contactListId: list.id, scheduledAt: inSeconds(0.5) };
    const c = (await api(d.adminSession, "POST", "/campaigns", body)).json() as CampaignDTO;
    await poll(async () => ((await api(d.adminSession, "GET", `/campaigns/${c.id}`)).json() as CampaignDetailDTO).counts.delivered).toBe(1);
    const cancelled = await api(d.adminSession, "POST", `/campaigns/${c.id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: "CANCELADA", editable: true });
    const renamed = await api(d.adminSession, "PUT", `/campaigns/${c.id}`, { ...body, name: "Pausável 2" });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ status: "CANCELADA", name: "Pausável 2" });
    await new Promise((r) => setTimeout(r, 600));
    expect(((await api(d.adminSession, "GET", `/campaigns/${c.id}`)).json() as CampaignDetailDTO).counts.delivered).toBe(1);

    // Restarted (still 5 s between messages): running, so it cannot be deleted.
    const restarted = await api(d.adminSession, "POST", `/campaigns/${c.id}/restart`);
    expect(restarted.statusCode, restarted.body).toBe(200);
    expect(restarted.json()).toMatchObject({ status: "EM_ANDAMENTO", editable: false });
    const running = await api(d.adminSession, "DELETE", `/campaigns/${c.id}`);
    expect(running.statusCode).toBe(409);
    expect(running.json().error).toBe("ERR_CAMPAIGN_RUNNING");
    expect((await api(d.adminSession, "PUT", `/campaigns/${c.id}`, body)).json().error).toBe("ERR_CAMPAIGN_NOT_EDITABLE");

    // Cancelled again, no pauses, restarted: it finishes with every contact served once.
    expect((await api(d.adminSession, "POST", `/campaigns/${c.id}/cancel`)).statusCode).toBe(200);
    expect((await api(d.adminSession, "POST", "/campaign-settings", { settings: fast })).statusCode).toBe(200);
    expect((await api(d.adminSession, "POST", `/campaigns/${c.id}/restart`)).statusCode).toBe(200);
    const done = await waitStatus(d.adminSession, c.id, "FINALIZADA");
    expect(done.counts.delivered).toBe(3);
    for (const item of list.items) expect(phoneInbox(t.ctx, d.connectionId, item.number)).toEqual([`Promo ${item.name}`]);
    expect((await api(d.adminSession, "DELETE", `/campaigns/${c.id}`)).statusCode).toBe(204);
  });
});

describe("permissions and isolation", () => {
  it("attendants get 403; a company with campaigns off gets ERR_CAMPAIGNS_DISABLED; another company's campaign is 404", async () => {
    const a = await desk();
    const b = await desk();
    const c = (await api(a.adminSession, "POST", "/campaigns", { name: "Só nossa" })).json() as CampaignDTO;
    for (const [method, url] of [
      ["GET", "/campaigns/"],
      ["GET", `/campaigns/${c.id}`],
      ["POST", "/campaigns"],
      ["GET", "/campaign-settings"],
      ["POST", `/campaigns/${c.id}/cancel`],
    ] as const) {
      const res = await api(a.userSession, method, url, method === "POST" ? { name: "X" } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toBe("ERR_NO_PERMISSION");
    }
    for (const [method, url] of [
      ["GET", `/campaigns/${c.id}`],
      ["PUT", `/campaigns/${c.id}`],
      ["DELETE", `/campaigns/${c.id}`],
      ["GET", `/campaigns/${c.id}/shipping`],
      ["GET", `/campaigns/${c.id}/export`],
      ["POST", `/campaigns/${c.id}/restart`],
    ] as const) {
      const res = await api(b.adminSession, method, url, method === "PUT" ? { name: "Invasão" } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error).toBe("ERR_NO_CAMPAIGN_FOUND");
    }
    expect(((await api(b.adminSession, "GET", "/campaigns/")).json().records as CampaignDTO[]).map((r) => r.id)).not.toContain(c.id);

    await t.ctx.database.db.update(companies).set({ campaignsEnabled: false }).where(eq(companies.id, a.company.id));
    const off = await api(a.adminSession, "GET", "/campaigns/");
    expect(off.statusCode).toBe(403);
    expect(off.json().error).toBe("ERR_CAMPAIGNS_DISABLED");
    expect((await api(a.adminSession, "GET", "/campaign-settings")).statusCode).toBe(403);
  });
});

describe("settings (spec §9)", () => {
  it("serves defaults 20/20/60, saves the spec's options and refuses others and duplicated variable keys", async () => {
    const d = await desk();
    expect((await api(d.adminSession, "GET", "/campaign-settings")).json()).toEqual([
      { key: "messageInterval", value: 20 },
      { key: "longerIntervalAfter", value: 20 },
      { key: "greaterInterval", value: 60 },
      { key: "variables", value: [] },
    ] satisfies CampaignSettingRow[]);
    const saved = await api(d.adminSession, "POST", "/campaign-settings", {
      settings: { messageInterval: 5, longerIntervalAfter: 10, greaterInterval: 30, variables: [{ key: "cupom", value: "NATAL10" }] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toContainEqual({ key: "variables", value: [{ key: "cupom", value: "NATAL10" }] });
    // Partial save keeps the rest.
    await api(d.adminSession, "POST", "/campaign-settings", { settings: { greaterInterval: 40 } });
    expect((await api(d.adminSession, "GET", "/campaign-settings")).json()).toEqual([
      { key: "messageInterval", value: 5 },
      { key: "longerIntervalAfter", value: 10 },
      { key: "greaterInterval", value: 40 },
      { key: "variables", value: [{ key: "cupom", value: "NATAL10" }] },
    ]);
    for (const [settings, path] of [
      [{ messageInterval: 7 }, "settings.messageInterval"],
      [{ greaterInterval: 10 }, "settings.greaterInterval"],
      [
        {
          variables: [
            { key: "cupom", value: "A" },
            { key: "Cupom", value: "B" },
          ],
        },
        "settings.variables.1.key",
      ],
      [{ variables: [{ key: "nome", value: "A" }] }, "settings.variables.0.key"],
    ] as const) {
      const res = await api(d.adminSession, "POST", "/campaign-settings", { settings });
      expect(res.statusCode, JSON.stringify(settings)).toBe(400);
      expect(res.json().issues.map((i: { path: string }) => i.path)).toContain(path);
    }
    const other = await desk();
    expect(((await api(other.adminSession, "GET", "/campaign-settings")).json() as CampaignSettingRow[])[0]).toEqual({
      key: "messageInterval",
      value: 20,
    });
  });
});

describe("media upload", () => {
  it("attaches a file to an editable campaign and removes it", async () => {
    const d = await desk();
    const c = (await api(d.adminSession, "POST", "/campaigns", { name: "Com foto" })).json() as CampaignDTO;
    const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
    const boundary = "----campaign";
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="promo.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const up = await t.app.inject({
      method: "POST",
      url: `/api/campaigns/${c.id}/media-upload`,
      headers: { ...d.adminSession.headers, "content-type": `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({ mediaName: "promo.png" });
    expect(up.json().mediaPath).toBeTruthy();
    const removed = await api(d.adminSession, "DELETE", `/campaigns/${c.id}/media-upload`);
    expect(removed.json()).toMatchObject({ mediaPath: null, mediaName: null });
    const notMultipart = await api(d.adminSession, "POST", `/campaigns/${c.id}/media-upload`, { file: "x" });
    expect(notMultipart.statusCode).toBe(400);
  });

  it("streams the file to disk within CAMPAIGN_MEDIA_MAX_BYTES: oversize 413, a traversal name kept as a base name, the type sniffed, no temporary file left", async () => {
    const d = await desk();
    const c = (await api(d.adminSession, "POST", "/campaigns", { name: "Anexo" })).json() as CampaignDTO;
    const send = (fileName: string, data: Buffer, type: string) => {
      const boundary = "----campaign-stream";
      return t.app.inject({
        method: "POST",
        url: `/api/campaigns/${c.id}/media-upload`,
        headers: { ...d.adminSession.headers, "content-type": `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`),
          data,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      });
    };
    const tooBig = await send("grande.pdf", Buffer.alloc(CAMPAIGN_MEDIA_MAX_BYTES + 1, 1), "application/pdf");
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toMatchObject({ error: "ERR_PAYLOAD_TOO_LARGE" });
    expect((await api(d.adminSession, "GET", `/campaigns/${c.id}`)).json()).toMatchObject({ mediaPath: null });
    // A page declared as an image is stored with its sniffed type; the name loses its folders.
    const html = Buffer.from("<!doctype html><html><script>alert(1)</script></html>");
    const up = await send("../../../etc/passwd.png", html, "image/png");
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({ mediaName: "passwd.png" });
    const [record] = await t.ctx.database.db
      .select()
      .from(mediaFiles)
      .where(eq(mediaFiles.id, up.json().mediaPath as string));
    expect(record).toMatchObject({ size: html.length, companyId: d.company.id });
    expect(record!.mimeType).not.toBe("image/png");
    expect(record!.storageKey.startsWith(`${d.company.id}/`)).toBe(true);
    expect(readFileSync(path.join(t.config.dataDir, "media", record!.storageKey)).equals(html)).toBe(true);
    expect(readdirSync(path.join(t.config.dataDir, "tmp", "uploads"))).toEqual([]);
  });
});

describe("dispatch", () => {
  it("pacing: messageInterval between sends, greaterInterval after every longerIntervalAfter", () => {
    const s = { messageInterval: 5, longerIntervalAfter: 2, greaterInterval: 20 };
    expect([1, 2, 3, 4, 5].map((n) => pacingDelayMs(s, n))).toEqual([5000, 20000, 5000, 20000, 5000]);
    expect(pacingDelayMs({ messageInterval: 20, longerIntervalAfter: 0, greaterInterval: 60 }, 20)).toBe(20000);
    expect(variantFor(["A", "", "C", "", ""], 1)).toBe("A");
    expect(variantFor(["A", "", "C", "", ""], 2)).toBe("C");
    expect(variantFor(["A", "", "C", "", ""], 3)).toBe("A");
  });

  it("runs to the simulator and reaches FINALIZADA: one message per contact, variants rotating, variables filled, live events to admins only", async () => {
    const d = await desk();
    const other = await desk();
    await api(d.adminSession, "POST", "/campaign-settings", { settings: { ...fast, variables: [{ key: "cupom", value: "NATAL10" }] } });
    const list = await seedList(t.ctx, d.company.id, 5, { invalid: 1 });
    const adminSocket = await connectSocket(t.app, d.adminSession.token);
    const userSocket = await connectSocket(t.app, d.userSession.token);
    const otherSocket = await connectSocket(t.app, other.adminSession.token);
    const seen = collectEvents<CampaignEvent>(adminSocket, "campaign");
    const userSeen = collectEvents<CampaignEvent>(userSocket, "campaign");
    const otherSeen = collectEvents<CampaignEvent>(otherSocket, "campaign");
    try {
      const c = await scheduleCampaign(d, list, {
        name: "Black Friday",
        message1: "Oi {nome}, use {cupom}",
        message2: "",
        message3: "{nome}, seu número {numero} ganhou {cupom} ({email})",
      });
      const done = await waitStatus(d.adminSession, c.id, "FINALIZADA");
      expect(done.completedAt).not.toBeNull();
      expect(done.counts).toEqual({ validContacts: 5, confirmationRequested: 0, confirmations: 0, delivered: 5, failed: 1 });
      list.items.slice(0, 5).forEach((item, i) => {
        const expected = i % 2 === 0 ? `Oi ${item.name}, use NATAL10` : `${item.name}, seu número ${item.number} ganhou NATAL10 (${item.email})`;
        expect(phoneInbox(t.ctx, d.connectionId, item.number)).toEqual([expected]);
      });
      expect(phoneInbox(t.ctx, d.connectionId, list.items[5]!.number)).toEqual([]);

      const shipping = (await api(d.adminSession, "GET", `/campaigns/${c.id}/shipping?pageNumber=1`)).json() as CampaignShippingListResponse;
      expect(shipping.hasMore).toBe(false);
      expect(shipping.records.map((r) => r.status)).toEqual(["delivered", "delivered", "delivered", "delivered", "delivered", "failed"]);
      expect(shipping.records[5]!.lastError).toBe("ERR_WAPP_INVALID_CONTACT");
      expect(shipping.records[0]!.deliveredAt).not.toBeNull();

      const csv = await api(d.adminSession, "GET", `/campaigns/${c.id}/export`);
      expect(csv.statusCode).toBe(200);
      expect(csv.headers["content-type"]).toContain("text/csv");
      const lines = csv.body
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\r\n");
      expect(lines[0]).toBe("name;number;email;status;message;confirmationMessage;confirmationRequestedAt;confirmedAt;deliveredAt;error");
      expect(lines).toHaveLength(7);
      expect(lines[1]!.startsWith(`${list.items[0]!.name};${list.items[0]!.number};`)).toBe(true);

      await poll(() => seen.some((e) => e.action === "update" && e.record.id === c.id && e.record.status === "FINALIZADA")).toBe(true);
      expect(seen.some((e) => e.action === "update" && e.record.status === "EM_ANDAMENTO")).toBe(true);
      expect(seen.filter((e) => e.action === "progress" && e.campaignId === c.id).length).toBeGreaterThanOrEqual(5);
      expect(userSeen).toEqual([]);
      expect(otherSeen).toEqual([]);
    } finally {
      adminSocket.disconnect();
      userSocket.disconnect();
      otherSocket.disconnect();
    }
  });

  it("a large campaign's counters are recounted at most once per interval while it sends, and its last state still arrives", async () => {
    const d = await desk();
    await api(d.adminSession, "POST", "/campaign-settings", { settings: fast });
    const list = await seedList(t.ctx, d.company.id, 6);
    const adminSocket = await connectSocket(t.app, d.adminSession.token);
    const seen = collectEvents<CampaignEvent>(adminSocket, "campaign");
    const dispatcher = dispatcherFor(t.ctx);
    // Every campaign counts as large here, and one interval outlasts the whole run.
    dispatcher.configure({ progressRecountRows: 0, progressIntervalMs: 600_000 });
    try {
      const c = await scheduleCampaign(d, list, { name: "Grande", message1: "Oi {nome}" });
      const done = await waitStatus(d.adminSession, c.id, "FINALIZADA");
      expect(done.counts.delivered).toBe(6);
      const progress = () => seen.filter((e) => e.action === "progress" && e.campaignId === c.id);
      // The last event carries the final counters; fewer recounts than the six sends.
      await poll(() => {
        const last = progress().at(-1);
        return last?.action === "progress" ? last.counts.delivered : null;
      }).toBe(6);
      expect(progress().length).toBeLessThan(6);
    } finally {
      const { progressRecountRows, progressIntervalMs } = DEFAULT_DISPATCHER_OPTIONS;
      dispatcher.configure({ progressRecountRows, progressIntervalMs });
      adminSocket.disconnect();
    }
  });

  it("an unpaced run longer than its lease keeps it: a competing tick never runs the campaign beside it", async () => {
    const d = await desk();
    await api(d.adminSession, "POST", "/campaign-settings", { settings: fast });
    const list = await seedList(t.ctx, d.company.id, 12);
    const dispatcher = dispatcherFor(t.ctx);
    // Each message takes at least 100 ms, so the run (≥ 1.2 s) outlasts its 1 s lease unless the runner renews it.
    let sending = 0;
    let mostAtOnce = 0;
    dispatcher.configure({
      leaseMs: 1_000,
      faults: {
        afterClaim: async () => {
          mostAtOnce = Math.max(mostAtOnce, ++sending);
          await new Promise((resolve) => setTimeout(resolve, 100));
        },
        afterSend: () => void sending--,
      },
    });
    try {
      const c = await scheduleCampaign(d, list, { name: "Sem pausa", message1: "Oi {nome}" });
      await waitStatus(d.adminSession, c.id, "EM_ANDAMENTO");
      // Other runners (a second process's tick, the sweep) try every 50 ms, without waiting for each other: each
      // must find the lease held.
      const status = async () => ((await api(d.adminSession, "GET", `/campaigns/${c.id}`)).json() as CampaignDetailDTO).status;
      const competitors: Promise<void>[] = [];
      while ((await status()) === "EM_ANDAMENTO") {
        competitors.push(dispatcher.tick({ companyId: d.company.id, campaignId: c.id }));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await Promise.all(competitors);
      expect(await status()).toBe("FINALIZADA");
      expect(mostAtOnce).toBe(1);
      for (const item of list.items) expect(phoneInbox(t.ctx, d.connectionId, item.number)).toEqual([`Oi ${item.name}`]);
    } finally {
      dispatcher.configure({ leaseMs: DEFAULT_DISPATCHER_OPTIONS.leaseMs, faults: undefined });
    }
  });

  it("paces with a fake clock: waits messageInterval, and greaterInterval after every longerIntervalAfter messages", async () => {
    const d = await desk();
    const saved = await api(d.adminSession, "POST", "/campaign-settings", {
      settings: { messageInterval: 5, longerIntervalAfter: 5, greaterInterval: 20 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const list = await seedList(t.ctx, d.company.id, 7);
    let now = Date.now();
    const waits: number[] = [];
    const fake: Clock = {
      now: () => new Date(now),
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
    };
    const dispatcher = dispatcherFor(t.ctx);
    const real = dispatcher.options.clock;
    dispatcher.configure({ clock: fake });
    try {
      const started = Date.now();
      const c = await scheduleCampaign(d, list, { name: "Ritmo", message1: "Oi" });
      await waitStatus(d.adminSession, c.id, "FINALIZADA");
      // 50 s of pacing on the fake clock (after the 5th message the longer pause), in far less wall time.
      expect(waits).toEqual([5000, 5000, 5000, 5000, 20000, 5000, 5000]);
      expect(Date.now() - started).toBeLessThan(20_000);
      for (const item of list.items) expect(phoneInbox(t.ctx, d.connectionId, item.number)).toEqual(["Oi"]);
    } finally {
      dispatcher.configure({ clock: real });
    }
  });

  it("confirmation flow: the confirmation message first; a reply confirms and the message follows; no reply stays unconfirmed", async () => {
    const d = await desk();
    // The read cache knows the company has no shipping awaiting a reply; the confirmation requests must drop that.
    expect(await readCache(t.ctx).awaitsConfirmations(d.company.id)).toBe(false);
    await api(d.adminSession, "POST", "/campaign-settings", { settings: fast });
    const list = await seedList(t.ctx, d.company.id, 2);
    const c = await scheduleCampaign(d, list, {
      name: "Confirma",
      confirmation: true,
      confirmationMessage1: "{nome}, podemos enviar a oferta?",
      message1: "Oferta para {nome}",
    });
    const [first, second] = list.items;
    await poll(async () => ((await api(d.adminSession, "GET", `/campaigns/${c.id}`)).json() as CampaignDetailDTO).counts.confirmationRequested).toBe(
      2,
    );
    expect(phoneInbox(t.ctx, d.connectionId, first!.number)).toEqual([`${first!.name}, podemos enviar a oferta?`]);
    expect(phoneInbox(t.ctx, d.connectionId, second!.number)).toEqual([`${second!.name}, podemos enviar a oferta?`]);
    let detail = (await api(d.adminSession, "GET", `/campaigns/${c.id}`)).json() as CampaignDetailDTO;
    expect(detail).toMatchObject({ status: "EM_ANDAMENTO", counts: { confirmationRequested: 2, confirmations: 0, delivered: 0 } });

    const reply = await api(d.adminSession, "POST", `/simulator/${d.connectionId}/phones/${first!.number}/messages`, { type: "text", body: "Sim" });
    expect(reply.statusCode, reply.body).toBe(201);
    await poll(async () => ((await api(d.adminSession, "GET", `/campaigns/${c.id}`)).json() as CampaignDetailDTO).counts.delivered).toBe(1);
    expect(phoneInbox(t.ctx, d.connectionId, first!.number)).toEqual([`${first!.name}, podemos enviar a oferta?`, `Oferta para ${first!.name}`]);
    detail = (await api(d.adminSession, "GET", `/campaigns/${c.id}`)).json() as CampaignDetailDTO;
    expect(detail).toMatchObject({ status: "EM_ANDAMENTO", counts: { confirmationRequested: 2, confirmations: 1, delivered: 1 } });

    // The second contact never answers: after the confirmation window the campaign finishes without it.
    const dispatcher = dispatcherFor(t.ctx);
    dispatcher.configure({ confirmationWindowMs: 0 });
    try {
      detail = await waitStatus(d.adminSession, c.id, "FINALIZADA");
    } finally {
      dispatcher.configure({ confirmationWindowMs: 24 * 60 * 60 * 1000 });
    }
    expect(detail.counts).toMatchObject({ confirmationRequested: 2, confirmations: 1, delivered: 1 });
    expect(phoneInbox(t.ctx, d.connectionId, second!.number)).toHaveLength(1);
    const rows = (await api(d.adminSession, "GET", `/campaigns/${c.id}/shipping`)).json() as CampaignShippingListResponse;
    expect(rows.records.map((r) => [r.status, r.confirmation])).toEqual([
      ["delivered", true],
      ["confirmation", null],
    ]);
  });

  it("a disconnected connection pauses the campaign with a visible reason (no failed contacts) and it resumes on reconnection", async () => {
    const d = await desk();
    await api(d.adminSession, "POST", "/campaign-settings", { settings: fast });
    const list = await seedList(t.ctx, d.company.id, 3);
    await t.ctx.channels.command(d.company.id, d.connectionId, "stop");
    // Re-checks far apart: the resumption below comes from the reconnection itself.
    const dispatcher = dispatcherFor(t.ctx);
    dispatcher.configure({ pauseRecheckMs: 120_000 });
    const c = await scheduleCampaign(d, list, { name: "Pausa", message1: "Oi" });
    await poll(async () => ((await api(d.adminSession, "GET", `/campaigns/${c.id}`)).json() as CampaignDetailDTO).pauseReason).toBe(
      "ERR_WAPP_NOT_INITIALIZED",
    );
    let detail = (await api(d.adminSession, "GET", `/campaigns/${c.id}`)).json() as CampaignDetailDTO;
    expect(detail).toMatchObject({ status: "EM_ANDAMENTO", counts: { delivered: 0, failed: 0 } });
    const list2 = (await api(d.adminSession, "GET", "/campaigns/")).json().records as CampaignDTO[];
    expect(list2.find((r) => r.id === c.id)?.pauseReason).toBe("ERR_WAPP_NOT_INITIALIZED");

    // Reconnect: the phone scans the new code.
    const retry = await api(d.adminSession, "POST", `/whatsappsession/${d.connectionId}`);
    if (retry.json().status !== "CONNECTED") {
      const scan = await api(d.adminSession, "POST", `/simulator/${d.connectionId}/scan`, { code: retry.json().qrcode });
      expect(scan.statusCode, scan.body).toBe(200);
    }
    try {
      detail = await waitStatus(d.adminSession, c.id, "FINALIZADA", 10_000);
    } finally {
      dispatcher.configure({ pauseRecheckMs: 300 });
    }
    expect(detail).toMatchObject({ pauseReason: null, counts: { delivered: 3, failed: 0 } });
    for (const item of list.items) expect(phoneInbox(t.ctx, d.connectionId, item.number)).toEqual(["Oi"]);
    // Each contact's conversation holds exactly one campaign message.
    const stored = await t.ctx.database.db
      .select({ contactId: messages.contactId })
      .from(messages)
      .where(and(eq(messages.companyId, d.company.id), like(messages.idempotencyKey, `campaign:${c.id}:%`)));
    expect(stored).toHaveLength(3);
  });
});
