import { campaignBody, campaignListQuery, campaignSettingsBody, campaignShippingQuery, idParams } from "@balcao/shared";
import path from "node:path";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { App } from "../../app";
import { actorOf } from "../../http/auth";
import { AppError } from "../../http/errors";
import { receiveMultipart, type MultipartForm, type UploadedFile } from "../../http/uploads";
import { dispatcherFor } from "./dispatcher";
import { CampaignsService } from "./service";

/** A campaign's attachment (image, video, audio or document sent with the message). */
export const CAMPAIGN_MEDIA_MAX_BYTES = 16 * 1024 * 1024;

/** The campaign's attachment: one file within CAMPAIGN_MEDIA_MAX_BYTES. */
const mediaForm: MultipartForm = {
  description: "The campaign's attachment, sent with its message (replaces the previous one).",
  fields: z.object({}),
  file: { name: "file", description: "The file (image, video, audio or document; any file field name is taken)", required: true },
  limits: { fileBytes: CAMPAIGN_MEDIA_MAX_BYTES, totalBytes: CAMPAIGN_MEDIA_MAX_BYTES, files: 1, fields: 5, fieldBytes: 1000 },
};

/** Routes of spec §7 (see packages/shared/src/schemas/campaigns.ts for the payloads). Admins only. */
export function registerCampaignRoutes(app: App): void {
  const campaigns = new CampaignsService(app.ctx, dispatcherFor(app.ctx));
  const tags = ["campaigns"];
  // Every route: signed in, admin, campaigns on for the company — checked before the body or file is read.
  const guarded = {
    preHandler: [app.authenticate, async (request: FastifyRequest) => campaigns.guard(actorOf(request))],
  };

  app.get("/campaigns", { ...guarded, schema: { querystring: campaignListQuery, tags } }, (request) =>
    campaigns.list(actorOf(request), request.query),
  );
  app.get("/campaigns/:id", { ...guarded, schema: { params: idParams, tags } }, (request) => campaigns.show(actorOf(request), request.params.id));
  app.get("/campaigns/:id/shipping", { ...guarded, schema: { params: idParams, querystring: campaignShippingQuery, tags } }, (request) =>
    campaigns.shipping(actorOf(request), request.params.id, request.query),
  );
  app.get("/campaigns/:id/export", { ...guarded, schema: { params: idParams, tags } }, async (request, reply) => {
    const { name, csv } = await campaigns.exportCsv(actorOf(request), request.params.id);
    const fileName = `campanha-${request.params.id}-${name
      .normalize("NFD")
      .replace(/[^\w-]+/g, "_")
      .slice(0, 40)}.csv`;
    return reply
      .type("text/csv; charset=utf-8")
      .header("Cache-Control", "no-store")
      .header("Content-Disposition", `attachment; filename="${fileName}"`)
      .send(csv);
  });
  app.post("/campaigns", { ...guarded, schema: { body: campaignBody, tags } }, async (request, reply) =>
    reply.status(201).send(await campaigns.create(actorOf(request), request.body)),
  );
  app.put("/campaigns/:id", { ...guarded, schema: { params: idParams, body: campaignBody, tags } }, (request) =>
    campaigns.update(actorOf(request), request.params.id, request.body),
  );
  app.delete("/campaigns/:id", { ...guarded, schema: { params: idParams, tags } }, async (request, reply) => {
    await campaigns.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
  app.post("/campaigns/:id/cancel", { ...guarded, schema: { params: idParams, tags } }, (request) =>
    campaigns.cancel(actorOf(request), request.params.id),
  );
  app.post("/campaigns/:id/restart", { ...guarded, schema: { params: idParams, tags } }, (request) =>
    campaigns.restart(actorOf(request), request.params.id),
  );

  // Multipart, one file (field `file` as the spec's client sends it; any field name is taken).
  app.post("/campaigns/:id/media-upload", { ...guarded, config: { multipart: mediaForm }, schema: { params: idParams, tags } }, async (request) => {
    if (!request.isMultipart()) throw new AppError("ERR_VALIDATION", 400);
    // Streamed to a temporary file within the limit (http/uploads.ts), never whole in memory (issue 11).
    const received = await receiveMultipart(request, path.join(app.ctx.config.dataDir, "tmp", "uploads"));
    try {
      const upload: UploadedFile | undefined = received.files[0];
      if (!upload) throw new AppError("ERR_VALIDATION", 400);
      return await campaigns.uploadMedia(actorOf(request), request.params.id, upload);
    } finally {
      // A file moved into the media store is gone from the temporary folder; this removes the rest.
      await received.cleanup();
    }
  });
  app.delete("/campaigns/:id/media-upload", { ...guarded, schema: { params: idParams, tags } }, (request) =>
    campaigns.removeMedia(actorOf(request), request.params.id),
  );

  const settingsTags = ["campaign-settings"];
  app.get("/campaign-settings", { ...guarded, schema: { tags: settingsTags } }, (request) => campaigns.settings(actorOf(request)));
  app.post("/campaign-settings", { ...guarded, schema: { body: campaignSettingsBody, tags: settingsTags } }, (request) =>
    campaigns.saveSettings(actorOf(request), request.body),
  );
}
