import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestApp, type TestApp } from "../test/testApp";
import { routeTable } from "../test/security/routes";
import { ROUTE_ACCESS } from "./access";
import { registerResponseSchemas } from "./responses";
import { ROUTE_RESPONSES } from "./responseTable";

/** Issue 19: the OpenAPI document's response schemas, and the interactive reference at /api/docs. */

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  security?: unknown[];
  requestBody?: { content?: Record<string, unknown> };
}

let t: TestApp;
let spec: { paths: Record<string, Record<string, Operation>>; components?: { securitySchemes?: Record<string, unknown> } };

beforeAll(async () => {
  t = await createTestApp();
  spec = t.app.swagger() as typeof spec;
});
afterAll(() => t.close());

describe("response schemas in the OpenAPI document", () => {
  it("every documented route exists, and the document shows its documented statuses with a JSON schema", () => {
    const served = new Set(routeTable(t.app).map((route) => `${route.method} ${route.path}`));
    expect(Object.keys(ROUTE_RESPONSES).filter((key) => !served.has(key))).toEqual([]);
    const missing: string[] = [];
    for (const [key, responses] of Object.entries(ROUTE_RESPONSES)) {
      const [method, path] = key.split(" ") as [string, string];
      const operation = spec.paths[path]?.[method.toLowerCase()];
      for (const status of Object.keys(responses)) {
        if (status === "204") {
          if (!operation?.responses?.[status]) missing.push(`${key} ${status}`);
        } else {
          // JSON answers, or a file's own content types (downloads, exports, the transcript).
          const content = operation?.responses?.[status]?.content ?? {};
          if (!Object.values(content).some((entry) => entry.schema)) missing.push(`${key} ${status}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("the access table (access.ts) and the response table (responseTable.ts) list exactly the same routes", () => {
    const access = Object.keys(ROUTE_ACCESS);
    const responses = Object.keys(ROUTE_RESPONSES);
    expect({
      onlyAccess: access.filter((key) => !(key in ROUTE_RESPONSES)),
      onlyResponses: responses.filter((key) => !(key in ROUTE_ACCESS)),
    }).toEqual({
      onlyAccess: [],
      onlyResponses: [],
    });
  });

  it("every route of the document declares its success answer with a schema (a new route without one fails)", () => {
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(spec.paths))
      for (const [method, operation] of Object.entries(operations)) {
        const success = Object.entries(operation.responses ?? {}).filter(([status]) => /^2\d\d$/.test(status));
        const described = success.some(([status, answer]) => status === "204" || Object.values(answer.content ?? {}).some((entry) => entry.schema));
        if (!described) missing.push(`${method.toUpperCase()} ${path}`);
      }
    expect(missing).toEqual([]);
  });

  it("describes the send API for integrators: its token, JSON and multipart bodies, and its answer", () => {
    const send = spec.paths["/messages/send"]?.post;
    expect(send?.security).toEqual([{ connectionToken: [] }]);
    expect(Object.keys(send?.requestBody?.content ?? {}).sort()).toEqual(["application/json", "multipart/form-data"]);
    const answer = send?.responses?.["200"]?.content?.["application/json"]?.schema as { properties?: Record<string, unknown> };
    expect(Object.keys(answer.properties ?? {})).toEqual(expect.arrayContaining(["mensagem", "contactId", "ticketId", "messages"]));
    expect(spec.components?.securitySchemes).toHaveProperty("connectionToken");
    // Public routes need no session; the rest take the access token (the document's default).
    expect(spec.paths["/auth/login"]?.post?.security).toEqual([]);
    expect(spec.paths["/tags/"]?.get?.security).toBeUndefined();
  });
});

describe("the interactive reference at /api/docs", () => {
  it("serves the UI page with its scripts from this server (no CDN) and the JSON document", async () => {
    const page = await t.app.inject({ method: "GET", url: "/api/docs/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    const scripts = [...page.body.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src).not.toMatch(/^(https?:)?\/\//);
      const asset = await t.app.inject({ method: "GET", url: new URL(src, "http://local/api/docs/").pathname });
      expect(asset.statusCode, src).toBe(200);
    }
    // Under the app's CSP (script-src 'self'): no inline script the browser would block.
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>\s*\S/);
    expect(String(page.headers["content-security-policy"])).toMatch(/script-src 'self'/);
    const json = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(json.statusCode).toBe(200);
    expect(json.json().paths["/tags/"].get.responses["200"].content["application/json"].schema.properties.tags.type).toBe("array");
  });
});

describe("response serialization", () => {
  async function server(check: boolean) {
    const app = Fastify();
    registerResponseSchemas(app, check);
    // A route of the table answering with a field of the wrong type, one with an extra field, one with an undocumented status.
    app.get("/api/tags/:id", async (request) =>
      (request.params as { id: string }).id === "1"
        ? { id: "one", name: "x" }
        : { id: 2, companyId: 1, name: "x", color: "#fff", kanban: 0, userId: null, createdAt: "a", updatedAt: "b", extra: true },
    );
    app.get("/api/tags/list", async (_request, reply) => reply.status(202).send([]));
    await app.ready();
    return app;
  }

  it("in tests, an answer that breaks its documented schema or status fails; fields are never stripped", async () => {
    const app = await server(true);
    expect((await app.inject({ method: "GET", url: "/api/tags/1" })).statusCode).toBe(500);
    const good = await app.inject({ method: "GET", url: "/api/tags/2" });
    expect(good.statusCode).toBe(200);
    expect(good.json().extra).toBe(true);
    expect((await app.inject({ method: "GET", url: "/api/tags/list" })).statusCode).toBe(500);
    await app.close();
  });

  it("outside tests, the answer is sent as the handler returned it, whatever the schema says", async () => {
    const app = await server(false);
    const res = await app.inject({ method: "GET", url: "/api/tags/1" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: "one", name: "x" });
    expect((await app.inject({ method: "GET", url: "/api/tags/list" })).statusCode).toBe(202);
    await app.close();
  });

  it("the schemas are plain zod schemas the document can render", () => {
    for (const responses of Object.values(ROUTE_RESPONSES))
      for (const answer of Object.values(responses)) {
        const schemas = answer && "content" in answer ? Object.values(answer.content).map((entry) => entry.schema) : [answer!];
        for (const schema of schemas) expect(() => z.toJSONSchema(schema, { io: "output", unrepresentable: "any" })).not.toThrow();
      }
  });
});
