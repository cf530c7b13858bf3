import { idParams, quickMessageBody, quickMessageListQuery, quickMessageListSimpleQuery, quickMessageUpdateBody } from "@balcao/shared";
import type { App } from "../../app";
import { actorOf } from "../../http/auth";
import { QuickMessagesService } from "./service";

export function registerQuickMessageRoutes(app: App): void {
  const quick = new QuickMessagesService(app.ctx);
  const auth = { preHandler: app.authenticate };

  app.get("/quick-messages", { ...auth, schema: { querystring: quickMessageListQuery, tags: ["quick-messages"] } }, (request) =>
    quick.list(actorOf(request), request.query),
  );
  app.get("/quick-messages/list", { ...auth, schema: { querystring: quickMessageListSimpleQuery, tags: ["quick-messages"] } }, (request) =>
    quick.listSimple(actorOf(request), request.query.companyId),
  );
  app.get("/quick-messages/:id", { ...auth, schema: { params: idParams, tags: ["quick-messages"] } }, (request) =>
    quick.show(actorOf(request), request.params.id),
  );
  app.post("/quick-messages", { ...auth, schema: { body: quickMessageBody, tags: ["quick-messages"] } }, async (request, reply) =>
    reply.status(201).send(await quick.create(actorOf(request), request.body)),
  );
  app.put("/quick-messages/:id", { ...auth, schema: { params: idParams, body: quickMessageUpdateBody, tags: ["quick-messages"] } }, (request) =>
    quick.update(actorOf(request), request.params.id, request.body),
  );
  app.delete("/quick-messages/:id", { ...auth, schema: { params: idParams, tags: ["quick-messages"] } }, async (request, reply) => {
    await quick.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
}
