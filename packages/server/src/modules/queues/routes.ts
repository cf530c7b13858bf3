import {
  idParams,
  queueCreateBody,
  queueListQuery,
  queueOptionCreateBody,
  queueOptionListQuery,
  queueOptionUpdateBody,
  queueUpdateBody,
} from "@balcao/shared";
import type { App } from "../../app";
import { actorOf } from "../../http/auth";
import { QueueOptionsService } from "./options";
import { QueuesService } from "./service";

/** Queues (GET/POST /queue, GET/PUT/DELETE /queue/:id) and their option trees (/queue-options). */
export function registerQueueRoutes(app: App): void {
  const queues = new QueuesService(app.ctx);
  const options = new QueueOptionsService(app.ctx);
  const auth = { preHandler: app.authenticate };
  const tags = ["queues"];

  for (const url of ["/queue", "/queue/"])
    app.get(url, { ...auth, schema: { querystring: queueListQuery, tags } }, (request) => queues.list(actorOf(request), request.query.companyId));
  app.get("/queue/:id", { ...auth, schema: { params: idParams, tags } }, (request) => queues.show(actorOf(request), request.params.id));
  app.post("/queue", { ...auth, schema: { body: queueCreateBody, tags } }, async (request, reply) =>
    reply.status(201).send(await queues.create(actorOf(request), request.body)),
  );
  app.put("/queue/:id", { ...auth, schema: { params: idParams, body: queueUpdateBody, tags } }, (request) =>
    queues.update(actorOf(request), request.params.id, request.body),
  );
  app.delete("/queue/:id", { ...auth, schema: { params: idParams, tags } }, async (request, reply) => {
    await queues.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });

  for (const url of ["/queue-options", "/queue-options/"])
    app.get(url, { ...auth, schema: { querystring: queueOptionListQuery, tags } }, (request) =>
      options.list(actorOf(request), request.query.queueId, request.query.parentId),
    );
  app.get("/queue-options/:id", { ...auth, schema: { params: idParams, tags } }, (request) => options.show(actorOf(request), request.params.id));
  app.post("/queue-options", { ...auth, schema: { body: queueOptionCreateBody, tags } }, async (request, reply) =>
    reply.status(201).send(await options.create(actorOf(request), request.body)),
  );
  app.put("/queue-options/:id", { ...auth, schema: { params: idParams, body: queueOptionUpdateBody, tags } }, (request) =>
    options.update(actorOf(request), request.params.id, request.body),
  );
  app.delete("/queue-options/:id", { ...auth, schema: { params: idParams, tags } }, async (request, reply) => {
    await options.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
}
