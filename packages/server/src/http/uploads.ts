import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { MultipartFile } from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodObject, ZodType } from "zod";
import { accessKey } from "./access";
import { AppError } from "./errors";
import { assertCleanText } from "./inputGuard";
import { asUploadError } from "./multipart";

export interface UploadLimits {
  /** Bytes per file. */
  fileBytes: number;
  /** Bytes of all files of one request together. */
  totalBytes: number;
  files: number;
  fields: number;
  /** Bytes per text field. */
  fieldBytes: number;
}

/**
 * What a multipart route reads (issue 19): declared next to the route as `config: { multipart: form }`.
 * receiveMultipart enforces `limits` and refuses to read for a route without a form, so every route that
 * accepts multipart/form-data declares one, and the OpenAPI document (http/openapi.ts) describes it from
 * here: its text fields, its file field (`format: binary`) and the size limits.
 */
export interface MultipartForm {
  description: string;
  /** The text fields, a zod object from @balcao/shared: receiveMultipart validates them (400) and the document shows them. */
  fields: ZodObject;
  /** The file part(s); `limits.files` above 1 makes it an array. */
  file: { name: string; description: string; required: boolean };
  limits: UploadLimits;
  /** The route's JSON body when it takes JSON as well (the handler parses it: the route declares no body schema). */
  json?: ZodType;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route reads multipart/form-data with this form (http/uploads.ts). */
    multipart?: MultipartForm;
  }
}

/** The form the request's route declares; a route reading multipart without one is a programming error. */
export function formOf(request: FastifyRequest): MultipartForm {
  const form = request.routeOptions.config?.multipart;
  if (!form)
    throw new Error(`${request.method} ${request.routeOptions.url ?? ""} reads multipart/form-data without declaring its form (config.multipart)`);
  return form;
}

/**
 * Records, as routes are added, each route that declares a multipart form, by its access-table key
 * (`POST /campaigns/{id}/media-upload`): the OpenAPI test checks every one of them is documented.
 */
export function trackMultipartRoutes(app: FastifyInstance): ReadonlyMap<string, MultipartForm> {
  const routes = new Map<string, MultipartForm>();
  app.addHook("onRoute", (route) => {
    const form = route.config?.multipart;
    if (!form) return;
    for (const method of Array.isArray(route.method) ? route.method : [route.method])
      if (method !== "HEAD") routes.set(accessKey(method, route.url), form);
  });
  return routes;
}

/** A file part written to disk as it arrived; `path` is a temporary file the caller moves or removes. */
export interface UploadedFile {
  path: string;
  size: number;
  fileName: string;
  mimeType: string;
}

export interface ReceivedMultipart {
  fields: Record<string, string>;
  files: UploadedFile[];
  /** Removes the temporary files still in place (call it in a finally). */
  cleanup(): Promise<void>;
}

/**
 * Reads a multipart body with every file streamed to `dir` (never whole in memory: issue 11), within
 * per-file, per-request and count limits (413 ERR_PAYLOAD_TOO_LARGE), with text fields held to the input
 * guard's rule (400 ERR_INVALID_CHARACTERS) and a broken body answered 400 ERR_INVALID_UPLOAD. On any
 * failure the files written so far are removed before the error propagates. The limits are those of the
 * route's declared form (`config.multipart`), the same the OpenAPI document shows.
 */
export async function receiveMultipart(request: FastifyRequest, dir: string): Promise<ReceivedMultipart> {
  const form = formOf(request);
  const { limits } = form;
  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  const written: string[] = [];
  const cleanup = async () => {
    await Promise.all(written.map((file) => rm(file, { force: true })));
  };
  let total = 0;
  try {
    await mkdir(dir, { recursive: true });
    const parts = request.parts({
      limits: { fileSize: limits.fileBytes, files: limits.files, fields: limits.fields, fieldSize: limits.fieldBytes },
    });
    for await (const part of parts) {
      if (part.type !== "file") {
        fields[part.fieldname] = String(part.value ?? "");
        continue;
      }
      const file = part as MultipartFile;
      assertCleanText(file.filename, "filename");
      const target = path.join(dir, randomUUID());
      written.push(target);
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          total += chunk.length;
          if (total > limits.totalBytes) done(new AppError("ERR_PAYLOAD_TOO_LARGE", 413));
          else done(null, chunk);
        },
      });
      const out = createWriteStream(target, { mode: 0o600 });
      // Created before anything can fail: a stream destroyed while its open() is in flight still creates the
      // file afterwards, past the cleanup of a body that broke off (a partial file left behind).
      await once(out, "open");
      await pipeline(file.file, meter, out);
      if (file.file.truncated) throw new AppError("ERR_PAYLOAD_TOO_LARGE", 413);
      if (size > 0) files.push({ path: target, size, fileName: file.filename, mimeType: file.mimetype });
    }
    assertCleanText(fields, "body");
  } catch (err) {
    await cleanup();
    throw asUploadError(err);
  }
  const parsed = form.fields.safeParse(fields);
  if (!parsed.success) {
    await cleanup();
    throw parsed.error;
  }
  return { fields: parsed.data as Record<string, string>, files, cleanup };
}
