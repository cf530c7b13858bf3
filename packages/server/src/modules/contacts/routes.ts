import { contactCreateBody, contactListQuery, contactListSimpleQuery, contactUpdateBody, idParams } from "@balcao/shared";
import type { App } from "../../app";
import { actorOf } from "../../http/auth";
import { ContactsService } from "./service";

export function registerContactRoutes(app: App): void {
  const contacts = new ContactsService(app.ctx);
  const auth = { preHandler: app.authenticate };

  app.get("/contacts", { ...auth, schema: { querystring: contactListQuery, tags: ["contacts"] } }, (request) =>
    contacts.list(actorOf(request), request.query),
  );
  app.get("/contacts/list", { ...auth, schema: { querystring: contactListSimpleQuery, tags: ["contacts"] } }, (request) =>
    contacts.listSimple(actorOf(request), request.query.companyId),
  );
  app.post("/contacts/import", { ...auth, schema: { tags: ["contacts"] } }, (request) => contacts.importFromDefaultConnection(actorOf(request)));
  app.get("/contacts/:id", { ...auth, schema: { params: idParams, tags: ["contacts"] } }, (request) =>
    contacts.show(actorOf(request), request.params.id),
  );
  app.post("/contacts", { ...auth, schema: { body: contactCreateBody, tags: ["contacts"] } }, async (request, reply) =>
    reply.status(201).send(await contacts.create(actorOf(request), request.body)),
  );
  app.put("/contacts/:id", { ...auth, schema: { params: idParams, body: contactUpdateBody, tags: ["contacts"] } }, (request) =>
    contacts.update(actorOf(request), request.params.id, request.body),
  );
  app.delete("/contacts/:id", { ...auth, schema: { params: idParams, tags: ["contacts"] } }, async (request, reply) => {
    await contacts.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
}
