import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANNOUNCEMENT_MEDIA_MAX_BYTES, type AnnouncementDTO, type AnnouncementEvent, type AnnouncementListResponse } from "@balcao/shared";
import { announcements, mediaFiles } from "../../db/schema";
import {
  buildCompany,
  buildTenant,
  buildUser,
  collectEvents,
  connectSocket as openSocket,
  login,
  nextEventWhere,
  type Session,
} from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

let t: TestApp;
let a: Awaited<ReturnType<typeof buildTenant>>;
let b: Awaited<ReturnType<typeof buildTenant>>;
let platformId: number;
let superSession: Session;

beforeAll(async () => {
  t = await createTestApp();
  a = await buildTenant(t.app);
  b = await buildTenant(t.app);
  const platform = await buildCompany(t.ctx, { dueDate: null });
  platformId = platform.id;
  const root = await buildUser(t.ctx, platform.id, { profile: "admin", super: true });
  superSession = await login(t.app, root.email);
});
const sockets: Awaited<ReturnType<typeof openSocket>>[] = [];
const connectSocket = async (...args: Parameters<typeof openSocket>) => {
  const socket = await openSocket(...args);
  sockets.push(socket);
  return socket;
};
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.close();
});

const call = (session: Session | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session ? session.headers : {}, ...(payload ? { payload } : {}) });

const PNG = Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), Buffer.alloc(64, 7)]);
const JPEG = Buffer.concat([Buffer.from("ffd8ffe000104a464946", "hex"), Buffer.alloc(64, 3)]);

/** A multipart body with one file part, as a browser's FormData sends it. */
function upload(session: Session | null, id: number, fileName: string, data: Buffer, contentType = "image/png") {
  const boundary = `----balcao${Math.random().toString(16).slice(2)}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: "POST",
    url: `/api/announcements/${id}/media-upload`,
    headers: { ...(session ? session.headers : {}), "content-type": `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
}

let seq = 0;
const buildAnnouncement = async (overrides: Partial<typeof announcements.$inferInsert> = {}) => {
  const [row] = await t.ctx.database.db
    .insert(announcements)
    .values({ companyId: platformId, title: `Aviso ${++seq}`, text: "Manutenção programada", ...overrides })
    .returning();
  return row!;
};

describe("announcements permission matrix", () => {
  it.each([
    ["GET", "/announcements/", 200, 200],
    ["GET", "/announcements/:id", 200, 200],
    ["POST", "/announcements", 201, 403],
    ["PUT", "/announcements/:id", 200, 403],
    ["DELETE", "/announcements/:id", 204, 403],
    ["POST", "/announcements/:id/media-upload", 200, 403],
    ["DELETE", "/announcements/:id/media-upload", 200, 403],
    ["POST", "/announcements/:id/read", 200, 200],
  ] as const)("%s %s → super %i; company admin and attendant %i; anonymous 401", async (method, path, superStatus, othersStatus) => {
    for (const [role, session, expected] of [
      ["admin", a.adminSession, othersStatus],
      ["user", a.userSession, othersStatus],
      ["anonymous", null, 401],
      ["super", superSession, superStatus],
    ] as const) {
      const row = await buildAnnouncement();
      const url = path.replace(":id", String(row.id));
      const res =
        path.endsWith("media-upload") && method === "POST"
          ? await upload(session, row.id, "aviso.png", PNG)
          : await call(
              session,
              method,
              url,
              method === "POST" && path === "/announcements" ? { title: "Novo", text: "Texto" } : method === "PUT" ? { title: "Editado" } : undefined,
            );
      expect({ role, status: res.statusCode }).toEqual({ role, status: expected });
      if (expected === 403) expect(res.json()).toEqual({ error: "ERR_NO_PERMISSION" });
    }
  });
});

describe("writing", () => {
  it("new announcements are low priority (3) and active by default; priority and status can be set", async () => {
    const created = await call(superSession, "POST", "/announcements", { title: "  Bem-vindos  ", text: "Novidades da plataforma" });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      title: "Bem-vindos",
      text: "Novidades da plataforma",
      priority: 3,
      status: true,
      mediaPath: null,
      mediaName: null,
    });
    const high = (
      await call(superSession, "POST", "/announcements", { title: "Urgente", text: "Instabilidade", priority: "1", status: false })
    ).json() as AnnouncementDTO;
    expect(high).toMatchObject({ priority: 1, status: false });
    const edited = await call(superSession, "PUT", `/announcements/${high.id}`, { priority: 2, status: true });
    expect(edited.json()).toMatchObject({ id: high.id, title: "Urgente", priority: 2, status: true });
  });

  it("title and text are required ('Obrigatório'); priority is 1, 2 or 3", async () => {
    const missing = await call(superSession, "POST", "/announcements", { title: " ", text: "" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().issues).toEqual([
      { path: "title", message: "Obrigatório" },
      { path: "text", message: "Obrigatório" },
    ]);
    for (const priority of [0, 4, "alta", 1.5])
      expect((await call(superSession, "POST", "/announcements", { title: "T", text: "X", priority })).statusCode).toBe(400);
    expect((await call(superSession, "PUT", "/announcements/999999", { title: "T" })).json()).toEqual({ error: "ERR_NO_ANNOUNCEMENT_FOUND" });
  });
});

describe("reading", () => {
  it("companies see active ones only (an inactive one is 404); super users see all; newest first; search", async () => {
    const active = await buildAnnouncement({ title: "Feriado nacional" });
    const draft = await buildAnnouncement({ title: "Rascunho de feriado", status: false });
    const forUser = (await call(b.userSession, "GET", "/announcements/?searchParam=FERIADO")).json() as AnnouncementListResponse;
    expect(forUser.records.map((r) => r.id)).toEqual([active.id]);
    expect((await call(b.userSession, "GET", `/announcements/${draft.id}`)).json()).toEqual({ error: "ERR_NO_ANNOUNCEMENT_FOUND" });
    const forSuper = (await call(superSession, "GET", "/announcements/?searchParam=feriado")).json() as AnnouncementListResponse;
    expect(forSuper.records.map((r) => r.id)).toEqual([draft.id, active.id]);
  });

  it("pages of 20 with hasMore", async () => {
    for (let i = 0; i < 21; i++) await buildAnnouncement({ title: `Paginado ${i}` });
    const page1 = (await call(a.userSession, "GET", "/announcements/?searchParam=paginado")).json() as AnnouncementListResponse;
    expect(page1.records).toHaveLength(20);
    expect(page1.hasMore).toBe(true);
    expect(page1.records[0]!.title).toBe("Paginado 20");
    const page2 = (await call(a.userSession, "GET", "/announcements/?searchParam=paginado&pageNumber=2")).json() as AnnouncementListResponse;
    expect(page2.records.map((r) => r.title)).toEqual(["Paginado 0"]);
    expect(page2.hasMore).toBe(false);
  });

  it("the unread mark is per user: opening one marks it for that user only", async () => {
    const notice = await buildAnnouncement({ title: "Leia-me" });
    const before = (await call(a.userSession, "GET", "/announcements/")).json() as AnnouncementListResponse;
    expect(before.records.find((r) => r.id === notice.id)?.read).toBe(false);
    const otherBefore = ((await call(b.adminSession, "GET", "/announcements/")).json() as AnnouncementListResponse).unreadCount;
    const read = await call(a.userSession, "POST", `/announcements/${notice.id}/read`);
    expect(read.json()).toMatchObject({ id: notice.id, read: true });
    expect((await call(a.userSession, "POST", `/announcements/${notice.id}/read`)).statusCode).toBe(200);
    const after = (await call(a.userSession, "GET", "/announcements/")).json() as AnnouncementListResponse;
    expect(after.records.find((r) => r.id === notice.id)?.read).toBe(true);
    expect(after.unreadCount).toBe(before.unreadCount - 1);
    expect((await call(a.userSession, "GET", `/announcements/${notice.id}`)).json()).toMatchObject({ read: true });
    // The admin of the same company and the other company's users still have it unread.
    expect(((await call(a.adminSession, "GET", `/announcements/${notice.id}`)).json() as AnnouncementDTO).read).toBe(false);
    expect(((await call(b.adminSession, "GET", "/announcements/")).json() as AnnouncementListResponse).unreadCount).toBe(otherBefore);
    const draft = await buildAnnouncement({ status: false });
    expect((await call(a.userSession, "POST", `/announcements/${draft.id}/read`)).statusCode).toBe(404);
  });
});

describe("live `announcement` events reach every company", () => {
  it("create, update and delete go to sockets of all companies; drafts stay quiet until published", async () => {
    const socketA = await connectSocket(t.app, a.adminSession.token);
    const socketB = await connectSocket(t.app, b.userSession.token);
    const seenB = collectEvents<AnnouncementEvent>(socketB, "announcement");

    const createdA = nextEventWhere<AnnouncementEvent>(socketA, "announcement", (e) => e.action === "create" && e.record.title === "Ao vivo");
    const createdB = nextEventWhere<AnnouncementEvent>(socketB, "announcement", (e) => e.action === "create" && e.record.title === "Ao vivo");
    const created = (
      await call(superSession, "POST", "/announcements", { title: "Ao vivo", text: "Chegou agora", priority: 1 })
    ).json() as AnnouncementDTO;
    expect(await createdA).toEqual({ action: "create", record: { ...created, read: undefined } });
    await createdB;

    const draft = (
      await call(superSession, "POST", "/announcements", { title: "Rascunho ao vivo", text: "Ainda não", status: false })
    ).json() as AnnouncementDTO;
    const published = nextEventWhere<AnnouncementEvent>(socketB, "announcement", (e) => e.action === "update" && e.record.id === draft.id);
    await call(superSession, "PUT", `/announcements/${draft.id}`, { status: true });
    expect(await published).toMatchObject({ action: "update", record: { id: draft.id, status: true } });
    const hidden = nextEventWhere<AnnouncementEvent>(
      socketB,
      "announcement",
      (e) => e.action === "update" && e.record.id === draft.id && !e.record.status,
    );
    await call(superSession, "PUT", `/announcements/${draft.id}`, { status: false });
    await hidden;

    const deleted = nextEventWhere<AnnouncementEvent>(socketB, "announcement", (e) => e.action === "delete" && e.id === created.id);
    expect((await call(superSession, "DELETE", `/announcements/${created.id}`)).statusCode).toBe(204);
    await deleted;
    expect(seenB.filter((e) => e.action === "create" && e.record.id === draft.id)).toEqual([]);
  });
});

describe("attachments (.png, .jpg, .jpeg, checked by their bytes)", () => {
  it("stores an image, serves it to users of any company, replaces and removes it", async () => {
    const notice = await buildAnnouncement();
    const res = await upload(superSession, notice.id, "Cartaz Promo.PNG", PNG);
    expect(res.statusCode).toBe(200);
    const withMedia = res.json() as AnnouncementDTO;
    expect(withMedia.mediaName).toBe("Cartaz Promo.PNG");
    expect(withMedia.mediaPath).toMatch(new RegExp(`^/api/announcements/${notice.id}/media/[0-9a-f-]{36}$`));
    for (const session of [a.userSession, b.adminSession]) {
      const file = await t.app.inject({ method: "GET", url: withMedia.mediaPath!, headers: session.headers });
      expect(file.statusCode).toBe(200);
      expect(file.headers["content-type"]).toBe("image/png");
      expect(file.rawPayload.equals(PNG)).toBe(true);
    }
    expect((await t.app.inject({ method: "GET", url: withMedia.mediaPath! })).statusCode).toBe(401);

    const replaced = (await upload(superSession, notice.id, "foto.jpeg", JPEG, "image/jpeg")).json() as AnnouncementDTO;
    expect(replaced.mediaName).toBe("foto.jpeg");
    expect((await t.app.inject({ method: "GET", url: withMedia.mediaPath!, headers: a.userSession.headers })).statusCode).toBe(404);
    const jpeg = await t.app.inject({ method: "GET", url: replaced.mediaPath!, headers: a.userSession.headers });
    expect(jpeg.headers["content-type"]).toBe("image/jpeg");
    const mediaId = replaced.mediaPath!.split("/").pop()!;
    const [stored] = await t.ctx.database.db.select().from(mediaFiles).where(eq(mediaFiles.id, mediaId));
    const onDisk = path.join(t.config.dataDir, "media", stored!.storageKey);
    expect(existsSync(onDisk)).toBe(true);

    const cleared = await call(superSession, "DELETE", `/announcements/${notice.id}/media-upload`);
    expect(cleared.json()).toMatchObject({ mediaPath: null, mediaName: null });
    expect(existsSync(onDisk)).toBe(false);
    expect((await t.app.inject({ method: "GET", url: replaced.mediaPath!, headers: a.userSession.headers })).statusCode).toBe(404);
  });

  it("refuses files whose bytes are not PNG or JPEG, other extensions, empty and oversized files", async () => {
    const notice = await buildAnnouncement();
    const html = Buffer.from("<html><script>alert(1)</script></html>");
    const gif = Buffer.concat([Buffer.from("GIF89a"), Buffer.alloc(32)]);
    for (const [name, data] of [
      ["disfarce.png", html],
      ["animado.jpg", gif],
      ["imagem.gif", PNG],
      ["semextensao", PNG],
      ["pagina.svg", PNG],
    ] as const) {
      const res = await upload(superSession, notice.id, name, data);
      expect({ name, status: res.statusCode }).toEqual({ name, status: 415 });
      expect(res.json()).toMatchObject({ error: "ERR_UNSUPPORTED_MEDIA_TYPE" });
    }
    expect((await upload(superSession, notice.id, "vazio.png", Buffer.alloc(0))).statusCode).toBe(400);
    const big = Buffer.concat([PNG, Buffer.alloc(ANNOUNCEMENT_MEDIA_MAX_BYTES)]);
    const tooBig = await upload(superSession, notice.id, "grande.png", big);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toMatchObject({ error: "ERR_PAYLOAD_TOO_LARGE" });
    expect((await call(superSession, "GET", `/announcements/${notice.id}`)).json()).toMatchObject({ mediaPath: null });
    const nonMultipart = await call(superSession, "POST", `/announcements/${notice.id}/media-upload`, { file: "x" });
    expect(nonMultipart.statusCode).toBe(400);
    // Every upload above was streamed to a temporary file (never held whole in memory) and none is left behind.
    expect(readdirSync(path.join(t.config.dataDir, "tmp", "uploads"))).toEqual([]);
  });

  it("an accepted attachment is moved from the temporary upload folder into the media store, byte for byte", async () => {
    const notice = await buildAnnouncement();
    expect((await upload(superSession, notice.id, "foto.png", PNG, "image/png")).statusCode).toBe(200);
    const [row] = await t.ctx.database.db.select({ mediaPath: announcements.mediaPath }).from(announcements).where(eq(announcements.id, notice.id));
    const [record] = await t.ctx.database.db.select().from(mediaFiles).where(eq(mediaFiles.id, row!.mediaPath!));
    expect(record).toMatchObject({ mimeType: "image/png", size: PNG.length });
    expect(readFileSync(path.join(t.config.dataDir, "media", record!.storageKey)).equals(PNG)).toBe(true);
    expect(readdirSync(path.join(t.config.dataDir, "tmp", "uploads"))).toEqual([]);
  });

  it("deleting an announcement deletes its file; a draft's file is not served to companies", async () => {
    const notice = await buildAnnouncement();
    const withMedia = (await upload(superSession, notice.id, "a.jpg", JPEG, "image/jpeg")).json() as AnnouncementDTO;
    await call(superSession, "PUT", `/announcements/${notice.id}`, { status: false });
    expect((await t.app.inject({ method: "GET", url: withMedia.mediaPath!, headers: a.userSession.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: withMedia.mediaPath!, headers: superSession.headers })).statusCode).toBe(200);
    const mediaId = withMedia.mediaPath!.split("/").pop()!;
    await call(superSession, "DELETE", `/announcements/${notice.id}`);
    expect(await t.ctx.database.db.select().from(mediaFiles).where(eq(mediaFiles.id, mediaId))).toHaveLength(0);
  });
});
