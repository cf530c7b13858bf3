import { idParams, ticketCreateBody, ticketListQuery, ticketUpdateBody, ticketUuidParams } from "@balcao/shared";
import type { App } from "../../app";
import { actorOf } from "../../http/auth";
import { TicketsService } from "./service";

export function registerTicketRoutes(app: App): void {
  const service = new TicketsService(app.ctx);
  const auth = { preHandler: app.authenticate };

  app.get("/tickets", { ...auth, schema: { querystring: ticketListQuery, tags: ["tickets"] } }, (request) =>
    service.list(actorOf(request), request.query),
  );
  app.get("/tickets/u/:uuid", { ...auth, schema: { params: ticketUuidParams, tags: ["tickets"] } }, (request) =>
    service.showByUuid(actorOf(request), request.params.uuid),
  );
  app.get("/tickets/:id", { ...auth, schema: { params: idParams, tags: ["tickets"] } }, (request) =>
    service.show(actorOf(request), request.params.id),
  );
  app.post("/tickets", { ...auth, schema: { body: ticketCreateBody, tags: ["tickets"] } }, async (request, reply) =>
    reply.status(201).send(await service.create(actorOf(request), request.body)),
  );
  app.put("/tickets/:id", { ...auth, schema: { params: idParams, body: ticketUpdateBody, tags: ["tickets"] } }, (request) =>
    service.update(actorOf(request), request.params.id, request.body),
  );
  app.delete("/tickets/:id", { ...auth, schema: { params: idParams, tags: ["tickets"] } }, async (request, reply) => {
    await service.remove(actorOf(request), request.params.id);
    return reply.status(200).send({ message: "Ticket deleted sucessfully." });
  });
  app.post("/tickets/:id/read", { ...auth, schema: { params: idParams, tags: ["tickets"] } }, async (request, reply) => {
    await service.markRead(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
}
