import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HelpDTO, HelpListResponse } from "@balcao/shared";
import { videoCodeOf } from "@balcao/shared";
import { helps } from "../../db/schema";
import { buildCompany, buildTenant, buildUser, login, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";

let t: TestApp;
let a: Awaited<ReturnType<typeof buildTenant>>;
let b: Awaited<ReturnType<typeof buildTenant>>;
let superSession: Session;

beforeAll(async () => {
  t = await createTestApp();
  a = await buildTenant(t.app);
  b = await buildTenant(t.app);
  const platform = await buildCompany(t.ctx, { dueDate: null });
  const root = await buildUser(t.ctx, platform.id, { profile: "admin", super: true });
  superSession = await login(t.app, root.email);
});
afterAll(() => t.close());

const call = (session: Session | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: session ? session.headers : {}, ...(payload ? { payload } : {}) });

const buildHelp = async (overrides: Partial<typeof helps.$inferInsert> = {}) => {
  const [row] = await t.ctx.database.db
    .insert(helps)
    .values({ title: `Ajuda ${Math.random().toString(36).slice(2, 8)}`, description: "Como fazer", video: "dQw4w9WgXcQ", ...overrides })
    .returning();
  return row!;
};

describe("helps permission matrix", () => {
  it.each([
    ["GET", "/helps", 200, 200],
    ["GET", "/helps/list", 200, 200],
    ["GET", "/helps/:help", 200, 200],
    ["POST", "/helps", 201, 403],
    ["PUT", "/helps/:help", 200, 403],
    ["DELETE", "/helps/:help", 204, 403],
  ] as const)("%s %s → super %i; company admin and attendant %i; anonymous 401", async (method, path, superStatus, othersStatus) => {
    for (const [role, session, expected] of [
      ["admin", a.adminSession, othersStatus],
      ["user", a.userSession, othersStatus],
      ["other company's admin", b.adminSession, othersStatus],
      ["anonymous", null, 401],
      ["super", superSession, superStatus],
    ] as const) {
      const help = await buildHelp();
      const body = method === "POST" ? { title: "Primeiros passos", video: "abcdef123" } : method === "PUT" ? { title: "Novo título" } : undefined;
      const res = await call(session, method, path.replace(":help", String(help.id)), body);
      expect({ role, status: res.statusCode }).toEqual({ role, status: expected });
      if (expected === 403) expect(res.json()).toEqual({ error: "ERR_NO_PERMISSION" });
    }
  });
});

describe("helps CRUD", () => {
  it("stores the video code, also when given a YouTube link; every company reads the same helps", async () => {
    const created = await call(superSession, "POST", "/helps", {
      title: "Conectando o WhatsApp",
      description: "Leia o QR code pelo celular.",
      video: "https://www.youtube.com/watch?v=M7lc1UVf-VE&t=10s",
    });
    expect(created.statusCode).toBe(201);
    const help = created.json() as HelpDTO;
    expect(help).toMatchObject({ title: "Conectando o WhatsApp", description: "Leia o QR code pelo celular.", video: "M7lc1UVf-VE" });
    for (const session of [a.userSession, b.adminSession]) {
      const list = (await call(session, "GET", "/helps/list")).json() as HelpDTO[];
      expect(list.find((h) => h.id === help.id)).toEqual(help);
    }
    const updated = await call(superSession, "PUT", `/helps/${help.id}`, { video: "https://youtu.be/abcDEF12345" });
    expect(updated.json()).toMatchObject({ id: help.id, title: "Conectando o WhatsApp", video: "abcDEF12345" });
    expect((await call(superSession, "DELETE", `/helps/${help.id}`)).statusCode).toBe(204);
    expect((await call(a.userSession, "GET", `/helps/${help.id}`)).json()).toEqual({ error: "ERR_NO_HELP_FOUND" });
    expect((await call(superSession, "PUT", `/helps/${help.id}`, { title: "Nada" })).statusCode).toBe(404);
    expect((await call(superSession, "DELETE", `/helps/${help.id}`)).statusCode).toBe(404);
  });

  it.each([
    [{ title: "", video: "abcdef123" }],
    [{ title: "Título", video: "" }],
    [{ title: "Título", video: "https://example.com/watch?v=abcdef123" }],
    [{ title: "Título", video: "<script>" }],
    [{ title: "x".repeat(201), video: "abcdef123" }],
    [{ title: "Título", video: "abcdef123", description: "x".repeat(5001) }],
  ])("refuses %j with 400", async (body) => {
    expect((await call(superSession, "POST", "/helps", body)).statusCode).toBe(400);
  });

  it("GET /helps pages by title with search", async () => {
    for (let i = 0; i < 21; i++) await buildHelp({ title: `Relatório ${String(i).padStart(2, "0")}` });
    const page1 = (await call(a.userSession, "GET", "/helps?searchParam=relatorio")).json() as HelpListResponse;
    expect(page1.records).toHaveLength(20);
    expect(page1.hasMore).toBe(true);
    const page2 = (await call(a.userSession, "GET", "/helps?searchParam=relatorio&pageNumber=2")).json() as HelpListResponse;
    expect(page2.records.map((h) => h.title)).toEqual(["Relatório 20"]);
  });
});

describe("videoCodeOf", () => {
  it("accepts codes and the usual YouTube links, nothing else", () => {
    expect(videoCodeOf("dQw4w9WgXcQ")).toBe("dQw4w9WgXcQ");
    expect(videoCodeOf("https://youtu.be/dQw4w9WgXcQ?si=x")).toBe("dQw4w9WgXcQ");
    expect(videoCodeOf("https://m.youtube.com/watch?v=dQw4w9WgXcQ")).toBe("dQw4w9WgXcQ");
    expect(videoCodeOf("https://www.youtube.com/embed/dQw4w9WgXcQ")).toBe("dQw4w9WgXcQ");
    expect(videoCodeOf("https://www.youtube.com/shorts/dQw4w9WgXcQ")).toBe("dQw4w9WgXcQ");
    expect(videoCodeOf("https://evil.com/embed/dQw4w9WgXcQ")).toBeNull();
    expect(videoCodeOf("javascript:alert(1)")).toBeNull();
    expect(videoCodeOf("abc")).toBeNull();
  });
});
