import { idParams, MESSAGE_BODY_MAX, messageListQuery, messageSendBody, ticketIdParams } from "@balcao/shared";
import type { MultipartFile } from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app";
import { actorOf } from "../../http/auth";
import { AppError } from "../../http/errors";
import type { MessagesService, OutgoingFile, SendInput } from "./service";

export const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;
const MAX_FILES = 10;

/** Reads a multipart send: files `medias` (or `medias[]`), text fields body and quotedMsg. */
async function readMultipart(request: FastifyRequest): Promise<SendInput> {
  const files: OutgoingFile[] = [];
  const fields: Record<string, string> = {};
  for await (const part of request.parts({ limits: { fileSize: MAX_UPLOAD_BYTES, files: MAX_FILES, fields: 20, fieldSize: MESSAGE_BODY_MAX * 4 } })) {
    if (part.type === "file") {
      const file = part as MultipartFile;
      const data = await file.toBuffer();
      if (file.file.truncated) throw new AppError("ERR_PAYLOAD_TOO_LARGE", 413);
      if (data.length > 0) files.push({ data, fileName: file.filename, mimeType: file.mimetype });
    } else fields[part.fieldname] = String(part.value ?? "");
  }
  if (files.length === 0 && !fields.body) throw new AppError("ERR_CREATING_MESSAGE", 400);
  const body = (fields.body ?? "").slice(0, MESSAGE_BODY_MAX);
  const quoted = Number(fields.quotedMsg);
  return { body, files, quotedMsgId: Number.isInteger(quoted) && quoted > 0 ? quoted : null, voice: fields.voice === "true" };
}

export function registerMessageRoutes(app: App, service: MessagesService): void {
  const auth = { preHandler: app.authenticate };

  app.get("/messages/:ticketId", { ...auth, schema: { params: ticketIdParams, querystring: messageListQuery, tags: ["messages"] } }, (request) =>
    service.list(actorOf(request), request.params.ticketId, request.query.pageNumber, request.query.beforeId),
  );

  app.post("/messages/:ticketId", { ...auth, schema: { params: ticketIdParams, tags: ["messages"] } }, async (request, reply) => {
    const idempotencyKey = typeof request.headers["idempotency-key"] === "string" ? request.headers["idempotency-key"].slice(0, 100) : undefined;
    let input: SendInput;
    if (request.isMultipart()) input = await readMultipart(request);
    else {
      const body = messageSendBody.parse(request.body ?? {});
      input = { body: body.body, quotedMsgId: body.quotedMsg ?? null };
    }
    const sent = await service.send(actorOf(request), request.params.ticketId, { ...input, idempotencyKey });
    return reply.status(201).send(sent);
  });

  app.post("/messages/:id/retry", { ...auth, schema: { params: idParams, tags: ["messages"] } }, (request) =>
    service.retry(actorOf(request), request.params.id),
  );

  app.delete("/messages/:id", { ...auth, schema: { params: idParams, tags: ["messages"] } }, (request) =>
    service.remove(actorOf(request), request.params.id),
  );
}
