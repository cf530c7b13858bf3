import { helpCreateBody, helpUpdateBody, idParams, listQuery } from "@balcao/shared";
import type { App } from "../../app";
import { actorOf } from "../../http/auth";
import { HelpsService } from "./service";

export function registerHelpRoutes(app: App): void {
  const helps = new HelpsService(app.ctx);
  const auth = { preHandler: app.authenticate };

  // Reading: every signed-in user (the help page). Writing: super users only (spec §6).
  for (const url of ["/helps", "/helps/"])
    app.get(url, { ...auth, schema: { querystring: listQuery, tags: ["helps"] } }, (request) => helps.list(request.query));
  app.get("/helps/list", { ...auth, schema: { tags: ["helps"] } }, () => helps.listAll());
  app.get("/helps/:id", { ...auth, schema: { params: idParams, tags: ["helps"] } }, (request) => helps.show(request.params.id));
  app.post("/helps", { ...auth, schema: { body: helpCreateBody, tags: ["helps"] } }, async (request, reply) =>
    reply.status(201).send(await helps.create(actorOf(request), request.body)),
  );
  app.put("/helps/:id", { ...auth, schema: { params: idParams, body: helpUpdateBody, tags: ["helps"] } }, (request) =>
    helps.update(actorOf(request), request.params.id, request.body),
  );
  app.delete("/helps/:id", { ...auth, schema: { params: idParams, tags: ["helps"] } }, async (request, reply) => {
    await helps.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
}
