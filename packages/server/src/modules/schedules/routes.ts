import { idParams, scheduleCreateBody, scheduleListQuery, scheduleUpdateBody } from "@balcao/shared";
import type { App } from "../../app";
import { actorOf } from "../../http/auth";
import { senderFor } from "./sender";
import { SchedulesService } from "./service";

export function registerScheduleRoutes(app: App): void {
  const schedules = new SchedulesService(app.ctx, senderFor(app.ctx));
  const auth = { preHandler: app.authenticate };
  const tags = ["schedules"];

  app.get("/schedules", { ...auth, schema: { querystring: scheduleListQuery, tags } }, (request) => schedules.list(actorOf(request), request.query));
  app.get("/schedules/:id", { ...auth, schema: { params: idParams, tags } }, (request) => schedules.show(actorOf(request), request.params.id));
  app.post("/schedules", { ...auth, schema: { body: scheduleCreateBody, tags } }, async (request, reply) =>
    reply.status(201).send(await schedules.create(actorOf(request), request.body)),
  );
  app.put("/schedules/:id", { ...auth, schema: { params: idParams, body: scheduleUpdateBody, tags } }, (request) =>
    schedules.update(actorOf(request), request.params.id, request.body),
  );
  app.post("/schedules/:id/retry", { ...auth, schema: { params: idParams, tags } }, (request) =>
    schedules.retry(actorOf(request), request.params.id),
  );
  app.delete("/schedules/:id", { ...auth, schema: { params: idParams, tags } }, async (request, reply) => {
    await schedules.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
}
