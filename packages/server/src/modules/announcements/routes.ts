import { ANNOUNCEMENT_MEDIA_MAX_BYTES, announcementCreateBody, announcementUpdateBody, idParams, listQuery } from "@balcao/shared";
import path from "node:path";
import { z } from "zod";
import type { App } from "../../app";
import { actorOf, requireSuper } from "../../http/auth";
import { AppError } from "../../http/errors";
import { receiveMultipart, type MultipartForm } from "../../http/uploads";
import { INLINE_TYPES } from "../media/sniff";
import { AnnouncementsService, type UploadedFile } from "./service";

const mediaParams = idParams.extend({ mediaId: z.string().uuid() });

/** The announcement's attachment: one file within ANNOUNCEMENT_MEDIA_MAX_BYTES. */
const mediaForm: MultipartForm = {
  description: "The announcement's attachment (replaces the previous one).",
  fields: z.object({}),
  file: { name: "file", description: "The image: .png, .jpg or .jpeg, its bytes checked (any file field name is taken)", required: true },
  limits: { fileBytes: ANNOUNCEMENT_MEDIA_MAX_BYTES, totalBytes: ANNOUNCEMENT_MEDIA_MAX_BYTES, files: 1, fields: 5, fieldBytes: 1000 },
};

export function registerAnnouncementRoutes(app: App): void {
  const announcements = new AnnouncementsService(app.ctx);
  const auth = { preHandler: app.authenticate };

  // Reading: every signed-in user (active ones; super users see all). Writing: super users (spec §6).
  for (const url of ["/announcements", "/announcements/"])
    app.get(url, { ...auth, schema: { querystring: listQuery, tags: ["announcements"] } }, (request) =>
      announcements.list(actorOf(request), request.query),
    );
  app.get("/announcements/:id", { ...auth, schema: { params: idParams, tags: ["announcements"] } }, (request) =>
    announcements.show(actorOf(request), request.params.id),
  );
  for (const url of ["/announcements", "/announcements/"])
    app.post(url, { ...auth, schema: { body: announcementCreateBody, tags: ["announcements"] } }, async (request, reply) =>
      reply.status(201).send(await announcements.create(actorOf(request), request.body)),
    );
  app.put("/announcements/:id", { ...auth, schema: { params: idParams, body: announcementUpdateBody, tags: ["announcements"] } }, (request) =>
    announcements.update(actorOf(request), request.params.id, request.body),
  );
  app.delete("/announcements/:id", { ...auth, schema: { params: idParams, tags: ["announcements"] } }, async (request, reply) => {
    await announcements.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
  app.post("/announcements/:id/read", { ...auth, schema: { params: idParams, tags: ["announcements"] } }, (request) =>
    announcements.markRead(actorOf(request), request.params.id),
  );

  // Multipart, one file (field `file`, as the reference client sends it; any field name is taken).
  app.post(
    "/announcements/:id/media-upload",
    { ...auth, config: { multipart: mediaForm }, schema: { params: idParams, tags: ["announcements"] } },
    async (request) => {
      const actor = actorOf(request);
      // Before reading any bytes: only super users upload.
      requireSuper(actor);
      if (!request.isMultipart()) throw new AppError("ERR_VALIDATION", 400);
      // Streamed to a temporary file within the route's limit (http/uploads.ts), never whole in memory.
      const received = await receiveMultipart(request, path.join(app.ctx.config.dataDir, "tmp", "uploads"));
      try {
        const upload: UploadedFile | undefined = received.files[0];
        if (!upload) throw new AppError("ERR_VALIDATION", 400);
        return await announcements.uploadMedia(actor, request.params.id, upload);
      } finally {
        // A file moved into the media store is gone from the temporary folder; this removes the rest.
        await received.cleanup();
      }
    },
  );
  app.delete("/announcements/:id/media-upload", { ...auth, schema: { params: idParams, tags: ["announcements"] } }, (request) =>
    announcements.removeMedia(actorOf(request), request.params.id),
  );

  // The attachment, for any signed-in user of any company (announcements are platform-wide).
  app.get("/announcements/:id/media/:mediaId", { ...auth, schema: { params: mediaParams, tags: ["announcements"] } }, async (request, reply) => {
    const { record, data } = await announcements.loadMedia(actorOf(request), request.params.id, request.params.mediaId);
    return reply
      .header("Content-Type", INLINE_TYPES.has(record.mimeType) ? record.mimeType : "application/octet-stream")
      .header("X-Content-Type-Options", "nosniff")
      .header("Content-Security-Policy", "sandbox; default-src 'none'")
      .header("Cache-Control", "private, max-age=3600")
      .header("Content-Disposition", `inline; filename*=UTF-8''${encodeURIComponent(record.originalName)}`)
      .send(data);
  });
}
