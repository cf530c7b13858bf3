import path from "node:path";
import {
  idParams,
  MESSAGE_BODY_MAX,
  messageFormFields,
  messageListQuery,
  messageSendBody,
  sendApiBody,
  sendApiFormFields,
  ticketIdParams,
} from "@balcao/shared";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app";
import type { Config } from "../../config/env";
import { actorOf } from "../../http/auth";
import { AppError } from "../../http/errors";
import { receiveMultipart, type MultipartForm, type UploadLimits } from "../../http/uploads";
import type { MessagesService, SendInput } from "./service";

const MAX_FILES = 10;

/** A message send's files: UPLOAD_MAX_MB each, UPLOAD_TOTAL_MAX_MB together, at most MAX_FILES. */
const sendLimits = (config: Config): UploadLimits => ({
  fileBytes: config.uploads.fileBytes,
  totalBytes: config.uploads.totalBytes,
  files: MAX_FILES,
  fields: 20,
  fieldBytes: MESSAGE_BODY_MAX * 4,
});

/** The files of a multipart send, one message each. */
const MEDIAS = { name: "medias", description: "Files, one message each (also accepted as `medias[]`)", required: false };

/** `POST /messages/:ticketId` as multipart (the JSON form is messageSendBody). */
export const messageForm = (config: Config): MultipartForm => ({
  description: "Files with an optional caption; at least a file or a body.",
  fields: messageFormFields,
  file: MEDIAS,
  limits: sendLimits(config),
  json: messageSendBody,
});

/** `POST /messages/send` as multipart (the send API; its JSON form is sendApiBody). */
export const sendApiForm = (config: Config): MultipartForm => ({
  description: "The number and files with an optional caption; at least a file or a body.",
  fields: sendApiFormFields,
  file: MEDIAS,
  limits: sendLimits(config),
  json: sendApiBody,
});

/**
 * Reads a multipart send (messageForm, sendApiForm): files `medias` (or `medias[]`), text fields body and
 * quotedMsg. Files are streamed to DATA_DIR/tmp/uploads within the form's limits, then moved into the media
 * store; `cleanup` removes whatever was not moved. `fields` has every text field (the send API reads its
 * `number` there).
 */
export async function readMultipart(
  request: FastifyRequest,
  config: Config,
): Promise<{ input: SendInput; fields: Record<string, string>; cleanup: () => Promise<void> }> {
  const { fields, files, cleanup } = await receiveMultipart(request, path.join(config.dataDir, "tmp", "uploads"));
  if (files.length === 0 && !fields.body) {
    await cleanup();
    throw new AppError("ERR_CREATING_MESSAGE", 400);
  }
  const body = (fields.body ?? "").slice(0, MESSAGE_BODY_MAX);
  const quoted = Number(fields.quotedMsg);
  return {
    input: {
      body,
      files: files.map((f) => ({ path: f.path, size: f.size, fileName: f.fileName, mimeType: f.mimeType })),
      quotedMsgId: Number.isInteger(quoted) && quoted > 0 ? quoted : null,
      voice: fields.voice === "true",
    },
    fields,
    cleanup,
  };
}

export function registerMessageRoutes(app: App, service: MessagesService): void {
  const auth = { preHandler: app.authenticate };

  app.get("/messages/:ticketId", { ...auth, schema: { params: ticketIdParams, querystring: messageListQuery, tags: ["messages"] } }, (request) =>
    service.list(actorOf(request), request.params.ticketId, request.query.pageNumber, request.query.beforeId),
  );

  const config = { multipart: messageForm(app.ctx.config) };
  app.post("/messages/:ticketId", { ...auth, config, schema: { params: ticketIdParams, tags: ["messages"] } }, async (request, reply) => {
    const idempotencyKey = typeof request.headers["idempotency-key"] === "string" ? request.headers["idempotency-key"].slice(0, 100) : undefined;
    let input: SendInput;
    let cleanup = async (): Promise<void> => undefined;
    if (request.isMultipart()) ({ input, cleanup } = await readMultipart(request, app.ctx.config));
    else {
      const body = messageSendBody.parse(request.body ?? {});
      input = { body: body.body, quotedMsgId: body.quotedMsg ?? null };
    }
    try {
      const sent = await service.send(actorOf(request), request.params.ticketId, { ...input, idempotencyKey });
      return reply.status(201).send(sent);
    } finally {
      // Files moved into the media store are gone from the temporary folder; this removes the rest.
      await cleanup();
    }
  });

  app.post("/messages/:id/retry", { ...auth, schema: { params: idParams, tags: ["messages"] } }, (request) =>
    service.retry(actorOf(request), request.params.id),
  );

  app.delete("/messages/:id", { ...auth, schema: { params: idParams, tags: ["messages"] } }, (request) =>
    service.remove(actorOf(request), request.params.id),
  );
}
