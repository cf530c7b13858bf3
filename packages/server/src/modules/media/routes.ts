import { z } from "zod";
import type { App } from "../../app";
import { actorOf } from "../../http/auth";
import { MediaStore } from "./service";
import { INLINE_TYPES } from "./sniff";

const mediaParams = z.object({ id: z.string().uuid() });

export function registerMediaRoutes(app: App): void {
  const store = new MediaStore(app.ctx);
  // Only users of the owning company get a file; another company's id is a 404 like a missing one.
  app.get("/media/:id", { preHandler: app.authenticate, schema: { params: mediaParams, tags: ["media"] } }, async (request, reply) => {
    const { record, data } = await store.load(actorOf(request).companyId, request.params.id);
    const inline = INLINE_TYPES.has(record.mimeType);
    return reply
      .header("Content-Type", record.mimeType)
      .header("X-Content-Type-Options", "nosniff")
      .header("Content-Security-Policy", "sandbox; default-src 'none'")
      .header("Cache-Control", "private, max-age=3600")
      .header("Content-Disposition", `${inline ? "inline" : "attachment"}; filename*=UTF-8''${encodeURIComponent(record.originalName)}`)
      .send(data);
  });
}
