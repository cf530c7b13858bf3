import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { ZodError } from "zod";
import type { ApiErrorBody, ErrorCode } from "@balcao/shared";

/** A failure the client is meant to see: a spec error code (or spec text), an HTTP status, optional data. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode | string,
    readonly status = 400,
    readonly meta?: Record<string, string | number>,
  ) {
    super(code);
  }
}

export const notFound = (code: ErrorCode = "ERR_NOT_FOUND") => new AppError(code, 404);
export const forbidden = () => new AppError("ERR_NO_PERMISSION", 403);

function validationBody(issues: { path: string; message: string }[]): ApiErrorBody {
  return { error: issues[0]?.message ?? "ERR_VALIDATION", issues };
}

/** Maps every failure to the JSON envelope of docs/api.md; never leaks stacks or SQL. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      const body: ApiErrorBody = { error: err.code };
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
    const status = err.statusCode ?? 500;
    if (status < 500) {
      // Fastify's own 4xx (bad JSON, body too large, unsupported media type): keep the status, generic code.
      const code = status === 413 ? "ERR_PAYLOAD_TOO_LARGE" : status === 415 ? "ERR_UNSUPPORTED_MEDIA_TYPE" : "ERR_VALIDATION";
      return reply.status(status).send({ error: code } satisfies ApiErrorBody);
    }
    request.log.error({ err }, "unhandled error");
    return reply.status(500).send({ error: "ERR_INTERNAL" } satisfies ApiErrorBody);
  });
}
