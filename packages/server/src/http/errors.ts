import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { ZodError } from "zod";
import { ERRORS, wireError, type ApiErrorBody, type ErrorCode } from "@balcao/shared";
import { isInputDataError, serializeError } from "./logSafe";
import { isMalformedMultipart } from "./multipart";

/**
 * A failure the client is meant to see: a code of the closed catalogue (packages/shared/src/errors.ts), its
 * HTTP status (the catalogue's unless a route has a reason to differ) and optional data for the text.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    status?: number,
    readonly meta?: Record<string, string | number>,
  ) {
    super(code);
    // A code smuggled past the type checker (untyped JS, a cast) is a server bug: answer 500, never crash.
    this.status = status ?? (ERRORS as Record<string, { status: number } | undefined>)[code]?.status ?? 500;
  }
}

export const notFound = (code: ErrorCode = "ERR_NOT_FOUND") => new AppError(code, 404);
export const forbidden = () => new AppError("ERR_NO_PERMISSION", 403);

function validationBody(issues: { path: string; message: string }[]): ApiErrorBody {
  return { error: issues[0]?.message ?? "ERR_VALIDATION", issues };
}

/** Maps every failure to the JSON envelope of docs/api.md; never leaks stacks or SQL. */
export function registerErrorHandling(app: FastifyInstance): void {
  // Who was refused: a 4xx log line names the user and company (never the body), for abuse and support.
  app.addHook("onResponse", async (request, reply) => {
    if (reply.statusCode >= 400 && reply.statusCode < 500)
      request.log.info(
        { statusCode: reply.statusCode, route: request.routeOptions.url, userId: request.actor?.id, companyId: request.actor?.companyId },
        "request refused",
      );
  });
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      const body: ApiErrorBody = { error: wireError(err.code) };
      if (err.meta) body.meta = err.meta;
      if (err.status === 429 && err.meta?.retryAfter) reply.header("Retry-After", String(err.meta.retryAfter));
      return reply.status(err.status).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      return reply.status(400).send(
        validationBody(
          err.validation.map((v) => ({
            path: (v.instancePath || "").replace(/^\//, "").replace(/\//g, "."),
            message: v.message ?? "ERR_VALIDATION",
          })),
        ),
      );
    }
    if (err instanceof ZodError) {
      return reply.status(400).send(validationBody(err.issues.map((i) => ({ path: i.path.join("."), message: i.message }))));
    }
    if (request.isMultipart?.() && isMalformedMultipart(err)) {
      // A truncated or malformed upload, whichever route read it (issue 11).
      return reply.status(400).send({ error: "ERR_INVALID_UPLOAD" } satisfies ApiErrorBody);
    }
    if (isInputDataError(err)) {
      // A value PostgreSQL refused (class 22) that validation let through: the request's fault (issue 11).
      request.log.info({ err: serializeError(err), userId: request.actor?.id, companyId: request.actor?.companyId }, "database refused a value");
      return reply.status(400).send({ error: "ERR_VALIDATION" } satisfies ApiErrorBody);
    }
    const status = err.statusCode ?? 500;
    if (status < 500) {
      // Fastify's own 4xx (bad JSON, body too large, unsupported media type): keep the status, generic code.
      const code = status === 413 ? "ERR_PAYLOAD_TOO_LARGE" : status === 415 ? "ERR_UNSUPPORTED_MEDIA_TYPE" : "ERR_VALIDATION";
      return reply.status(status).send({ error: code } satisfies ApiErrorBody);
    }
    // Never the failed query's parameters: they can be password hashes or customer text (logSafe.ts).
    request.log.error({ err: serializeError(err), userId: request.actor?.id, companyId: request.actor?.companyId }, "unhandled error");
    return reply.status(500).send({ error: "ERR_INTERNAL" } satisfies ApiErrorBody);
  });
}
