import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import multipart from "@fastify/multipart";
import { ERROR_CODES } from "@balcao/shared";
import Fastify from "fastify";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/testApp";
import { ROUTE_ACCESS } from "./access";
import { receiveMultipart, type MultipartForm } from "./uploads";

/** Issue 19: request bodies of the multipart routes and the error answers in the OpenAPI document. */

interface Schema {
  type?: string;
  format?: string;
  items?: Schema;
  required?: string[];
  properties?: Record<string, Schema>;
  "x-max-bytes"?: number;
  "x-error-codes"?: string[];
}
interface Operation {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
}

let t: TestApp;
let spec: { paths: Record<string, Record<string, Operation>> };

beforeAll(async () => {
  t = await createTestApp({ UPLOAD_MAX_MB: "7", UPLOAD_TOTAL_MAX_MB: "9" });
  spec = t.app.swagger() as typeof spec;
});
afterAll(() => t.close());

const operationOf = (key: string) => {
  const [method, route] = key.split(" ") as [string, string];
  return spec.paths[route]?.[method.toLowerCase()];
};

describe("multipart request bodies", () => {
  it("every route that reads multipart (its declared form) documents a multipart/form-data body: fields, binary file(s), required, limits", () => {
    const routes = [...t.app.multipartRoutes];
    // The four upload routes and the send API at least (the list itself comes from the route definitions).
    expect(routes.map(([key]) => key)).toEqual(
      expect.arrayContaining([
        "POST /messages/{ticketId}",
        "POST /messages/send",
        "POST /campaigns/{id}/media-upload",
        "POST /announcements/{id}/media-upload",
        "POST /contact-lists/{id}/upload",
      ]),
    );
    const wrong: string[] = [];
    for (const [key, form] of routes) {
      const schema = operationOf(key)?.requestBody?.content?.["multipart/form-data"]?.schema;
      const file = schema?.properties?.[form.file.name];
      const binary = form.limits.files > 1 ? file?.items : file;
      const required = [
        ...Object.entries(form.fields.shape)
          .filter(([, f]) => !(f as z.ZodType).safeParse(undefined).success)
          .map(([n]) => n),
        ...(form.file.required ? [form.file.name] : []),
      ];
      if (
        !schema ||
        binary?.type !== "string" ||
        binary.format !== "binary" ||
        file?.["x-max-bytes"] !== form.limits.fileBytes ||
        Object.keys(form.fields.shape).some((field) => schema.properties?.[field]?.type !== "string") ||
        [...(schema.required ?? [])].sort().join() !== required.sort().join()
      )
        wrong.push(key);
    }
    expect(wrong).toEqual([]);
  });

  it("the limits shown are the configured ones; the JSON form sits beside the multipart one where the route takes both", () => {
    const send = operationOf("POST /messages/{ticketId}")?.requestBody?.content;
    expect(Object.keys(send ?? {}).sort()).toEqual(["application/json", "multipart/form-data"]);
    const medias = send?.["multipart/form-data"]?.schema?.properties?.medias;
    expect(medias?.type).toBe("array");
    expect(medias?.["x-max-bytes"]).toBe(7 * 1024 * 1024);
    expect(send?.["application/json"]?.schema?.properties).toHaveProperty("body");
    const api = operationOf("POST /messages/send")?.requestBody?.content?.["multipart/form-data"]?.schema;
    expect(api?.required).toEqual(["number"]);
    const upload = operationOf("POST /campaigns/{id}/media-upload")?.requestBody?.content;
    expect(Object.keys(upload ?? {})).toEqual(["multipart/form-data"]);
    expect(upload?.["multipart/form-data"]?.schema?.properties?.file).toMatchObject({ type: "string", format: "binary" });
    expect(upload?.["multipart/form-data"]?.schema?.required).toEqual(["file"]);
  });

  it("the Cloud API webhook, read raw for its signature, documents Meta's envelope as its JSON body", () => {
    const body = operationOf("POST /cloudapi/{connectionId}/webhook")?.requestBody?.content?.["application/json"]?.schema;
    expect(body?.properties).toHaveProperty("entry");
  });

  it("no code reads multipart parts except receiveMultipart, which needs the route's declared form", () => {
    const root = path.resolve(__dirname, "..");
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"));
    const readers = files.filter((file) => {
      const source = readFileSync(path.join(root, file), "utf8");
      return /\.(parts|file|files|saveRequestFiles)\(|attachFieldsToBody/.test(source);
    });
    expect(readers).toEqual([path.join("http", "uploads.ts")]);
  });

  it("receiveMultipart refuses to read for a route that declares no form, and reads within a declared one", async () => {
    const app = Fastify();
    await app.register(multipart);
    const dir = path.join(t.config.dataDir, "tmp", "openapi-test");
    const form: MultipartForm = {
      description: "test",
      fields: z.object({}),
      file: { name: "file", description: "a file", required: true },
      limits: { fileBytes: 100, totalBytes: 100, files: 1, fields: 1, fieldBytes: 10 },
    };
    const handler = async (request: Parameters<typeof receiveMultipart>[0]) => {
      const received = await receiveMultipart(request, dir);
      await received.cleanup();
      return { files: received.files.length };
    };
    app.post("/undeclared", handler);
    app.post("/declared", { config: { multipart: form } }, handler);
    const boundary = "----b";
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
    const headers = { "content-type": `multipart/form-data; boundary=${boundary}` };
    const undeclared = await app.inject({ method: "POST", url: "/undeclared", headers, payload });
    expect(undeclared.statusCode).toBe(500);
    expect(undeclared.json().message).toMatch(/without declaring its form/);
    const declared = await app.inject({ method: "POST", url: "/declared", headers, payload });
    expect(declared.json()).toEqual({ files: 1 });
    await app.close();
  });
});

describe("error answers", () => {
  const codesOf = (key: string, status: number) =>
    operationOf(key)?.responses?.[String(status)]?.content?.["application/json"]?.schema?.["x-error-codes"];

  it("every route lists its error statuses by access level with codes of the closed catalogue", () => {
    const known = new Set<string>(ERROR_CODES);
    const problems: string[] = [];
    for (const [key, access] of Object.entries(ROUTE_ACCESS)) {
      const operation = operationOf(key);
      if (!operation) continue;
      const expected = access === "public" ? [] : [401, 403];
      if (/\{\w+\}/.test(key)) expected.push(404);
      for (const status of expected) if (!operation.responses?.[String(status)]) problems.push(`${key} ${status} missing`);
      for (const [status, answer] of Object.entries(operation.responses ?? {})) {
        if (!/^4\d\d$/.test(status)) continue;
        const codes = answer.content?.["application/json"]?.schema?.["x-error-codes"] ?? [];
        if (codes.length === 0) problems.push(`${key} ${status} without codes`);
        for (const code of codes) if (!known.has(code)) problems.push(`${key} ${status} ${code} not in the catalogue`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("names the codes known per route: uploads, the send API, login", () => {
    expect(codesOf("POST /campaigns/{id}/media-upload", 400)).toEqual(expect.arrayContaining(["ERR_VALIDATION", "ERR_INVALID_UPLOAD"]));
    expect(codesOf("POST /campaigns/{id}/media-upload", 413)).toEqual(["ERR_PAYLOAD_TOO_LARGE"]);
    expect(codesOf("POST /campaigns/{id}/media-upload", 403)).toEqual(["ERR_NO_PERMISSION", "ERR_TOKEN_EXPIRED"]);
    expect(codesOf("POST /messages/send", 401)).toEqual(["ERR_INVALID_API_TOKEN"]);
    expect(codesOf("POST /messages/send", 409)).toEqual(["ERR_WAPP_NOT_CONNECTED"]);
    expect(codesOf("POST /messages/send", 429)).toEqual(["ERR_TOO_MANY_ATTEMPTS"]);
    expect(codesOf("POST /auth/login", 429)).toEqual(["ERR_TOO_MANY_ATTEMPTS"]);
    // A public route has no session to refuse; the billing shell stays reachable when the subscription is overdue.
    expect(operationOf("POST /auth/login")?.responses?.["403"]).toBeUndefined();
    expect(operationOf("GET /auth/me")?.responses?.["402"]).toBeUndefined();
    expect(codesOf("GET /tags/{id}", 402)).toEqual(["ERR_SUBSCRIPTION_EXPIRED"]);
  });
});
