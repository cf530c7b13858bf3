import type { FastifyDynamicSwaggerOptions } from "@fastify/swagger";
import type { ErrorCode } from "@balcao/shared";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { z } from "zod";
import { accessKey, ROUTE_ACCESS, type Access } from "./access";
import { refusesBillingOnly } from "./auth";
import type { MultipartForm } from "./uploads";

declare module "fastify" {
  interface FastifyContextConfig {
    /** A JSON body the handler reads raw (its signature covers the bytes) and then validates with this schema. */
    signedJsonBody?: z.ZodType;
  }
}

type Transform = NonNullable<FastifyDynamicSwaggerOptions["transform"]>;
type JsonSchema = Record<string, unknown>;

/**
 * `POST /messages/send` reads its body itself (JSON or multipart, docs/decisions.md), so the route declares
 * no body schema; both forms come from its declared form (sendApiForm) like every multipart route's.
 */
const SEND_API_DOC = {
  summary: "Send a message with a connection's token",
  description: [
    "Sends a WhatsApp message through the connection whose token is the bearer (`Authorization: Bearer <token>`,",
    "shown on the Messages API page and regenerated from the connection's dialog). The number is written without",
    "mask (country code, area code, number) and normalised like a contact's; the contact and its ticket are",
    "created or reused as for an attendant's message.",
    "",
    "JSON `{ number, body }`, or `multipart/form-data` with the fields `number`, `body` and files `medias`",
    "(one message per file, the body as the first file's caption).",
    "",
    "`Idempotency-Key` (at most 200 characters): a repeated key within 24 hours answers the first request's",
    "response again with the header `idempotent-replayed: true` and sends nothing.",
    "",
    "Errors: 401 unknown or revoked token; 409 `ERR_WAPP_NOT_CONNECTED` when the connection is not connected",
    "(with its status); 400 `ERR_WAPP_INVALID_CONTACT` when the number has no WhatsApp; 429 past the token's",
    "rate limit (`Retry-After`).",
  ].join("\n"),
  security: [{ connectionToken: [] }],
};

const MB = 1024 * 1024;
const size = (bytes: number) => (bytes % MB === 0 ? `${bytes / MB} MB` : `${bytes} bytes`);

/** A zod body as the document's JSON Schema (what the client sends). */
function inputSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  return json;
}

/** The multipart/form-data schema of a declared form: text fields, the file(s) as binary, the limits. */
export function multipartSchema(form: MultipartForm): JsonSchema {
  const { limits } = form;
  const fields = inputSchema(form.fields);
  const properties: Record<string, JsonSchema> = { ...((fields.properties as Record<string, JsonSchema> | undefined) ?? {}) };
  const binary = { type: "string", format: "binary" };
  const limit =
    limits.files > 1
      ? `At most ${limits.files} files, ${size(limits.fileBytes)} each and ${size(limits.totalBytes)} together (413 ERR_PAYLOAD_TOO_LARGE).`
      : `At most ${size(limits.fileBytes)} (413 ERR_PAYLOAD_TOO_LARGE).`;
  properties[form.file.name] = {
    ...(limits.files > 1 ? { type: "array", items: binary, maxItems: limits.files } : binary),
    description: `${form.file.description}. ${limit}`,
    "x-max-bytes": limits.fileBytes,
    "x-max-total-bytes": limits.totalBytes,
  };
  const required = [...((fields.required as string[] | undefined) ?? [])];
  if (form.file.required) required.push(form.file.name);
  return { type: "object", description: form.description, properties, ...(required.length ? { required } : {}) };
}

/** Codes some routes are known to answer besides the generic ones of their access level. */
const ROUTE_ERRORS: Record<string, Partial<Record<number, ErrorCode[]>>> = {
  "POST /auth/login": { 401: ["ERR_INVALID_CREDENTIALS"], 429: ["ERR_TOO_MANY_ATTEMPTS"] },
  "POST /auth/refresh_token": { 401: ["ERR_SESSION_EXPIRED"] },
  "POST /companies/cadastro": { 429: ["ERR_TOO_MANY_ATTEMPTS"] },
  "POST /messages/{ticketId}": { 400: ["ERR_CREATING_MESSAGE"] },
  "POST /messages/send": {
    400: ["ERR_CREATING_MESSAGE", "ERR_WAPP_INVALID_CONTACT"],
    401: ["ERR_INVALID_API_TOKEN"],
    402: ["ERR_SUBSCRIPTION_EXPIRED"],
    409: ["ERR_WAPP_NOT_CONNECTED"],
    429: ["ERR_TOO_MANY_ATTEMPTS"],
  },
};

const STATUS_TEXT: Record<number, string> = {
  400: "The request was refused: its input failed validation or the action broke a rule",
  401: "No valid credentials",
  402: "The company's subscription is overdue (only billing and the app shell answer)",
  403: "The access token expired (refresh once), or the caller's profile may not do this",
  404: "No such record in the caller's company (another company's id answers the same)",
  409: "The resource's state does not allow this now",
  413: "A file or the whole upload is over its limit",
  429: "Too many attempts: wait for Retry-After seconds",
};

const LEVEL_TEXT: Record<Access, string> = {
  public: "",
  member: " (besides the route's own rules: another's ticket, a chat one is not in…)",
  supervisor: ": supervisors and admins only",
  admin: ": the company's admins only",
  super: ": the platform's super user only",
};

/** The error envelope of docs/api.md with the codes this answer is known to carry. */
function errorAnswer(status: number, codes: string[], extra = ""): JsonSchema {
  return {
    description: `${STATUS_TEXT[status] ?? "Error"}${extra}. \`error\`: ${codes.map((code) => `\`${code}\``).join(", ")}.`,
    type: "object",
    required: ["error"],
    properties: {
      error: {
        type: "string",
        description:
          status === 400
            ? "A code of the closed catalogue (packages/shared/src/errors.ts); a validation failure carries its first issue's message"
            : "A code of the closed catalogue (packages/shared/src/errors.ts)",
      },
      issues: {
        type: "array",
        items: { type: "object", properties: { path: { type: "string" }, message: { type: "string" } } },
      },
      meta: { type: "object", description: "Data some errors carry (status, dueDate, retryAfter…)" },
    },
    "x-error-codes": codes,
  };
}

/**
 * The error answers a route can give, generically from its access level and inputs plus what ROUTE_ERRORS
 * knows: 400 (validation; multipart's upload errors), 401/402/403 for signed-in routes, 404 for a route with
 * a path parameter, 413 for uploads, 429 for rate-limited routes.
 */
export function errorAnswers(
  key: string,
  access: Access | undefined,
  schema: JsonSchema,
  route: { url: string; config?: { allowExpiredSubscription?: boolean; multipart?: MultipartForm } },
): Record<string, JsonSchema> {
  const codes = new Map<number, Set<string>>();
  const add = (status: number, ...list: string[]) => {
    const set = codes.get(status) ?? new Set<string>();
    for (const code of list) set.add(code);
    codes.set(status, set);
  };
  const form = route.config?.multipart;
  if (schema.params || schema.querystring || schema.body || form) add(400, "ERR_VALIDATION", "ERR_INVALID_CHARACTERS");
  if (form) {
    add(400, "ERR_INVALID_UPLOAD");
    add(413, "ERR_PAYLOAD_TOO_LARGE");
  }
  if (access && access !== "public") {
    add(401, "ERR_SESSION_EXPIRED");
    if (refusesBillingOnly(route.url, route.config)) add(402, "ERR_SUBSCRIPTION_EXPIRED");
    // An expired access token is 403 ERR_TOKEN_EXPIRED (the client refreshes once), docs/api.md.
    add(403, "ERR_NO_PERMISSION", "ERR_TOKEN_EXPIRED");
  }
  if (/\{\w+\}/.test(key)) add(404, "ERR_NOT_FOUND");
  for (const [status, list] of Object.entries(ROUTE_ERRORS[key] ?? {})) add(Number(status), ...(list ?? []));
  return Object.fromEntries(
    [...codes].map(([status, set]) => [String(status), errorAnswer(status, [...set], status === 403 && access ? LEVEL_TEXT[access] : "")]),
  );
}

/**
 * jsonSchemaTransform (zod → JSON Schema) plus each route's security from the access table, the request body
 * of a multipart route from its declared form (`config.multipart`, http/uploads.ts) and its error answers.
 */
const transform: Transform = (input) => {
  const result = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]) as { schema: JsonSchema; url: string };
  const method = Array.isArray(input.route.method) ? input.route.method[0] : input.route.method;
  const key = accessKey(String(method), input.url);
  const access = ROUTE_ACCESS[key];
  const schema: JsonSchema = { ...result.schema };
  const config = input.route.config as { allowExpiredSubscription?: boolean; multipart?: MultipartForm; signedJsonBody?: z.ZodType } | undefined;
  if (access === "public") schema.security = [];
  if (key === "POST /messages/send") Object.assign(schema, SEND_API_DOC);
  // A body the handler reads raw to check its signature, then validates against this schema.
  if (config?.signedJsonBody) schema.body = { content: { "application/json": { schema: inputSchema(config.signedJsonBody) } } };
  const form = config?.multipart;
  if (form) {
    const json = form.json ? inputSchema(form.json) : (schema.body as JsonSchema | undefined);
    schema.body = {
      content: {
        "multipart/form-data": { schema: multipartSchema(form) },
        ...(json ? { "application/json": { schema: json } } : {}),
      },
    };
  }
  const response = (schema.response as JsonSchema | undefined) ?? {};
  const errors = Object.entries(errorAnswers(key, access, schema, { url: input.url, config })).filter(([status]) => !(status in response));
  schema.response = { ...response, ...Object.fromEntries(errors) };
  return { ...result, schema } as ReturnType<Transform>;
};

/** @fastify/swagger's options: the OpenAPI document served at /api/docs/json (and its UI at /api/docs). */
export function openApiOptions(): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      info: {
        title: "Balcão API",
        version: "0.1.0",
        description:
          "Every route of the Balcão server with its request and response schemas (the zod schemas of @balcao/shared). " +
          "Signed-in routes take the access token of POST /auth/login as `Authorization: Bearer`; the send API takes a " +
          'connection\'s token. Errors answer `{ "error": "ERR_…" }` (the closed catalogue, docs/api.md); each route lists ' +
          "the error statuses it can give and the codes known for them (x-error-codes).",
      },
      servers: [{ url: "/api" }],
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "Access token of POST /auth/login" },
          connectionToken: { type: "http", scheme: "bearer", description: "A connection's API token (Messages API page)" },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    transform,
    // Schemas registered with an id (the recursive queue option) become components the routes reference.
    transformObject: jsonSchemaTransformObject,
  };
}
