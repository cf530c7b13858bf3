import { idParams, webhookBody, webhookDeliveriesQuery } from "@balcao/shared";
import type { App } from "../../app";
import { actorOf } from "../../http/auth";
import { WebhooksService } from "./service";

/** Outgoing webhooks (issue 19), admins of the company only. */
export function registerWebhookRoutes(app: App): void {
  const service = new WebhooksService(app.ctx);
  const auth = { preHandler: app.authenticate };
  const tags = ["webhooks"];

  app.get("/webhooks", { ...auth, schema: { tags } }, (request) => service.list(actorOf(request)));
  app.post("/webhooks", { ...auth, schema: { body: webhookBody, tags } }, async (request, reply) =>
    reply.status(201).send(await service.create(actorOf(request), request.body)),
  );
  app.put("/webhooks/:id", { ...auth, schema: { params: idParams, body: webhookBody, tags } }, (request) =>
    service.update(actorOf(request), request.params.id, request.body),
  );
  app.delete("/webhooks/:id", { ...auth, schema: { params: idParams, tags } }, async (request, reply) => {
    await service.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
  app.get("/webhooks/:id/deliveries", { ...auth, schema: { params: idParams, querystring: webhookDeliveriesQuery, tags } }, (request) =>
    service.deliveries(actorOf(request), request.params.id, request.query.pageNumber),
  );
  app.post("/webhooks/deliveries/:id/resend", { ...auth, schema: { params: idParams, tags } }, (request) =>
    service.resend(actorOf(request), request.params.id),
  );
}
