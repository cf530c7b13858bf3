import { idParams, userCreateBody, userListQuery, userListSimpleQuery, userUpdateBody } from "@balcao/shared";
import type { App } from "../../app";
import { actorOf } from "../../http/auth";

export function registerUserRoutes(app: App): void {
  const { users } = app;
  const auth = { preHandler: app.authenticate };

  app.get("/users/", { ...auth, schema: { querystring: userListQuery, tags: ["users"] } }, (request) => users.list(actorOf(request), request.query));
  app.get("/users/list", { ...auth, schema: { querystring: userListSimpleQuery, tags: ["users"] } }, (request) =>
    users.listSimple(actorOf(request), request.query.companyId),
  );
  app.get("/users/:id", { ...auth, schema: { params: idParams, tags: ["users"] } }, (request) => users.show(actorOf(request), request.params.id));
  app.post("/users", { ...auth, schema: { body: userCreateBody, tags: ["users"] } }, async (request, reply) =>
    reply.status(201).send(await users.create(actorOf(request), request.body)),
  );
  app.put("/users/:id", { ...auth, schema: { params: idParams, body: userUpdateBody, tags: ["users"] } }, (request) =>
    users.update(actorOf(request), request.params.id, request.body),
  );
  app.delete("/users/:id", { ...auth, schema: { params: idParams, tags: ["users"] } }, async (request, reply) => {
    await users.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
}
