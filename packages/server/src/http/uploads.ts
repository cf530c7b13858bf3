import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { MultipartFile } from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
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
 * failure the files written so far are removed before the error propagates.
 */
export async function receiveMultipart(request: FastifyRequest, dir: string, limits: UploadLimits): Promise<ReceivedMultipart> {
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
      await pipeline(file.file, meter, createWriteStream(target, { mode: 0o600 }));
      if (file.file.truncated) throw new AppError("ERR_PAYLOAD_TOO_LARGE", 413);
      if (size > 0) files.push({ path: target, size, fileName: file.filename, mimeType: file.mimetype });
    }
    assertCleanText(fields, "body");
  } catch (err) {
    await cleanup();
    throw asUploadError(err);
  }
  return { fields, files, cleanup };
}
