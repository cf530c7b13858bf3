import { randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { MESSAGE_BODY_MAX } from "@balcao/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connections, contacts, messages, tickets } from "../../db/schema";
import { buildTenant } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

/**
 * Issue 11: a message upload was read whole into memory. It is streamed to DATA_DIR/tmp/uploads within
 * UPLOAD_MAX_MB per file and UPLOAD_TOTAL_MAX_MB per request, moved into the media store, and nothing is
 * left behind whether the request succeeds, is too large or breaks off.
 */

let t: TestApp;
let tenant: Awaited<ReturnType<typeof buildTenant>>;
let ticketId: number;
let seq = 0;
const MB = 1024 * 1024;
beforeAll(async () => {
  t = await createTestApp({ UPLOAD_MAX_MB: "1", UPLOAD_TOTAL_MAX_MB: "1.5" });
  tenant = await buildTenant(t.app);
  const db = t.ctx.database.db;
  const [connection] = await db
    .insert(connections)
    .values({ companyId: tenant.company.id, name: "Conexão", isDefault: true, status: "CONNECTED" })
    .returning();
  const [contact] = await db.insert(contacts).values({ companyId: tenant.company.id, name: "Cliente", number: "5511987652222" }).returning();
  const [ticket] = await db
    .insert(tickets)
    .values({ companyId: tenant.company.id, contactId: contact!.id, connectionId: connection!.id, status: "open", userId: tenant.admin.id })
    .returning();
  ticketId = ticket!.id;
});
afterAll(() => t.close());

const tmpDir = () => path.join(t.config.dataDir, "tmp", "uploads");
const leftovers = () => (existsSync(tmpDir()) ? readdirSync(tmpDir()) : []);
const boundary = "----balcao-stream";
function multipart(files: { name: string; data: Buffer; type: string }[], body = "segue"): Buffer {
  const chunks: Buffer[] = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\n${body}\r\n`)];
  for (const f of files) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`),
      f.data,
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}
const upload = (payload: Buffer) =>
  t.app.inject({
    method: "POST",
    url: `/api/messages/${ticketId}`,
    headers: { ...tenant.adminSession.headers, "content-type": `multipart/form-data; boundary=${boundary}`, "idempotency-key": `up-${++seq}` },
    payload,
  });
const pdf = (size: number) => Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(size - 9)]);
const messageCount = async () => (await t.ctx.database.db.select({ id: messages.id }).from(messages).where(eq(messages.ticketId, ticketId))).length;

describe("message uploads", () => {
  it("are stored byte for byte through a temporary file that does not stay", async () => {
    const data = pdf(900 * 1024);
    const res = await upload(multipart([{ name: "nota.pdf", data, type: "application/pdf" }]));
    // The connection is not live in this process: the message is kept (failed, retryable) with its file.
    expect([201, 400]).toContain(res.statusCode);
    const listed = (await t.app.inject({ method: "GET", url: `/api/messages/${ticketId}`, headers: tenant.adminSession.headers })).json() as {
      messages: { mediaUrl: string | null; mediaName: string | null; mimeType: string | null }[];
    };
    const stored = listed.messages.find((m) => m.mediaName === "nota.pdf")!;
    expect(stored.mimeType).toBe("application/pdf");
    const file = await t.app.inject({ method: "GET", url: stored.mediaUrl!, headers: tenant.adminSession.headers });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(data)).toBe(true);
    expect(leftovers()).toEqual([]);
  });

  it("a traversal file name keeps only its base name, and a page declared as an image is served as what it is, sandboxed", async () => {
    const page = Buffer.from("<!doctype html><html><body><script>window.__xss=1</script></body></html>");
    const res = await upload(multipart([{ name: "../../../../etc/cron.d/foto.png", data: page, type: "image/png" }]));
    expect([201, 400]).toContain(res.statusCode);
    const listed = (await t.app.inject({ method: "GET", url: `/api/messages/${ticketId}`, headers: tenant.adminSession.headers })).json() as {
      messages: { mediaUrl: string | null; mediaName: string | null; mimeType: string | null }[];
    };
    const stored = listed.messages.find((m) => m.mediaName === "foto.png")!;
    expect(stored).toBeTruthy();
    expect(stored.mimeType).not.toBe("image/png");
    const file = await t.app.inject({ method: "GET", url: stored.mediaUrl!, headers: tenant.adminSession.headers });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).not.toMatch(/^(image|text\/html)/);
    expect(file.headers["x-content-type-options"]).toBe("nosniff");
    expect(file.headers["content-security-policy"]).toContain("sandbox");
    expect(file.rawPayload.equals(page)).toBe(true);
    // Nothing was written outside the media store.
    expect(existsSync(path.join(t.config.dataDir, "etc"))).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  it("refuse a file over UPLOAD_MAX_MB with 413, storing nothing and leaving nothing", async () => {
    const before = await messageCount();
    const res = await upload(multipart([{ name: "grande.pdf", data: pdf(Math.round(1.2 * MB)), type: "application/pdf" }]));
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe("ERR_PAYLOAD_TOO_LARGE");
    expect(await messageCount()).toBe(before);
    expect(leftovers()).toEqual([]);
  });

  it("refuse files over UPLOAD_TOTAL_MAX_MB together, though each fits", async () => {
    const before = await messageCount();
    const res = await upload(
      multipart([
        { name: "a.pdf", data: pdf(900 * 1024), type: "application/pdf" },
        { name: "b.pdf", data: pdf(900 * 1024), type: "application/pdf" },
      ]),
    );
    expect(res.statusCode).toBe(413);
    expect(await messageCount()).toBe(before);
    expect(leftovers()).toEqual([]);
  });

  it("text fields are checked against the shared form schema: a caption over the limit is a 400, storing nothing and leaving nothing", async () => {
    const before = await messageCount();
    const res = await upload(multipart([{ name: "a.pdf", data: pdf(1024), type: "application/pdf" }], "x".repeat(MESSAGE_BODY_MAX + 1)));
    expect(res.statusCode).toBe(400);
    // The validation answer of the JSON form for the same caption.
    expect(res.json().error).toContain(String(MESSAGE_BODY_MAX));
    expect(await messageCount()).toBe(before);
    expect(leftovers()).toEqual([]);
  });

  it("a body that breaks off mid-file is a 400 and leaves no partial file", async () => {
    const whole = multipart([{ name: "cortado.pdf", data: pdf(600 * 1024), type: "application/pdf" }]);
    const res = await upload(whole.subarray(0, 300 * 1024));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_INVALID_UPLOAD");
    expect(leftovers()).toEqual([]);
  });
});
