import { connectionCreateBody, connectionListQuery, connectionShowQuery, connectionUpdateBody, idParams, pairingCodeBody } from "@balcao/shared";
import type { App } from "../../app";
import { actorOf } from "../../http/auth";
import { ConnectionsService } from "./service";

export function registerConnectionRoutes(app: App): void {
  const service = new ConnectionsService(app.ctx);
  const auth = { preHandler: app.authenticate };
  const tags = ["connections"];

  // The channel manager's sessions, timers and leases end with the app (tests build and close many).
  app.addHook("onClose", async () => {
    await app.ctx.channels.stop();
  });

  for (const url of ["/whatsapp/", "/whatsapp"])
    app.get(url, { ...auth, schema: { querystring: connectionListQuery, tags } }, (request) =>
      service.list(actorOf(request), request.query.companyId),
    );
  app.get("/whatsapp/:id", { ...auth, schema: { params: idParams, querystring: connectionShowQuery, tags } }, (request) =>
    service.show(actorOf(request), request.params.id),
  );
  app.post("/whatsapp", { ...auth, schema: { body: connectionCreateBody, tags } }, async (request, reply) =>
    reply.status(201).send(await service.create(actorOf(request), request.body)),
  );
  app.put("/whatsapp/:id", { ...auth, schema: { params: idParams, body: connectionUpdateBody, tags } }, (request) =>
    service.update(actorOf(request), request.params.id, request.body),
  );
  app.delete("/whatsapp/:id", { ...auth, schema: { params: idParams, tags } }, async (request, reply) => {
    await service.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });

  // Send API token (issue 19; docs/decisions.md): a new one, the old one revoked.
  app.post("/whatsapp/:id/token", { ...auth, schema: { params: idParams, tags } }, (request) =>
    service.regenerateToken(actorOf(request), request.params.id),
  );

  // Health center (issue 21): status timeline with reasons, time connected, messages in/out, last error.
  app.get("/whatsapp/:id/health", { ...auth, schema: { params: idParams, tags } }, (request) => service.health(actorOf(request), request.params.id));
  // Pairing by phone code (issue 21): the 8-character code to type on the phone instead of scanning the QR.
  app.post("/whatsappsession/:id/pairing-code", { ...auth, schema: { params: idParams, body: pairingCodeBody, tags } }, (request) =>
    service.pairingCode(actorOf(request), request.params.id, request.body.phoneNumber),
  );

  app.post("/whatsappsession/:id", { ...auth, schema: { params: idParams, tags } }, (request) =>
    service.session(actorOf(request), request.params.id, "start"),
  );
  app.put("/whatsappsession/:id", { ...auth, schema: { params: idParams, tags } }, (request) =>
    service.session(actorOf(request), request.params.id, "newqr"),
  );
  app.delete("/whatsappsession/:id", { ...auth, schema: { params: idParams, tags } }, (request) =>
    service.session(actorOf(request), request.params.id, "stop"),
  );
}
