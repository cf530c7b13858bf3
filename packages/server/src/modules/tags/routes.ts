import { idParams, tagCreateBody, tagListQuery, tagSyncBody, tagUpdateBody, ticketTagParams, ticketTagsParams } from "@balcao/shared";
import type { App } from "../../app";
import { actorOf } from "../../http/auth";
import { TagsService } from "./service";

export function registerTagRoutes(app: App): void {
  const tags = new TagsService(app.ctx);
  const auth = { preHandler: app.authenticate };

  // The spec writes GET /tags/; GET /tags answers the same.
  for (const url of ["/tags/", "/tags"])
    app.get(url, { ...auth, schema: { querystring: tagListQuery, tags: ["tags"] } }, (request) => tags.list(actorOf(request), request.query));
  app.get("/tags/list", { ...auth, schema: { tags: ["tags"] } }, (request) => tags.listSimple(actorOf(request)));
  app.get("/tags/kanban", { ...auth, schema: { tags: ["tags"] } }, (request) => tags.kanban(actorOf(request)));
  app.post("/tags/sync", { ...auth, schema: { body: tagSyncBody, tags: ["tags"] } }, (request) =>
    tags.sync(
      actorOf(request),
      request.body.ticketId,
      request.body.tags.map((t) => t.id),
    ),
  );
  app.get("/tags/:id", { ...auth, schema: { params: idParams, tags: ["tags"] } }, (request) => tags.show(actorOf(request), request.params.id));
  app.post("/tags", { ...auth, schema: { body: tagCreateBody, tags: ["tags"] } }, async (request, reply) =>
    reply.status(201).send(await tags.create(actorOf(request), request.body)),
  );
  app.put("/tags/:id", { ...auth, schema: { params: idParams, body: tagUpdateBody, tags: ["tags"] } }, (request) =>
    tags.update(actorOf(request), request.params.id, request.body),
  );
  app.delete("/tags/:id", { ...auth, schema: { params: idParams, tags: ["tags"] } }, async (request, reply) => {
    await tags.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
  app.delete("/ticket-tags/:ticketId", { ...auth, schema: { params: ticketTagsParams, tags: ["tags"] } }, (request) =>
    tags.clear(actorOf(request), request.params.ticketId),
  );
  app.put("/ticket-tags/:ticketId/:tagId", { ...auth, schema: { params: ticketTagParams, tags: ["tags"] } }, (request) =>
    tags.add(actorOf(request), request.params.ticketId, request.params.tagId),
  );
}
