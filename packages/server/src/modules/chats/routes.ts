import { chatCreateBody, chatListQuery, chatMessageBody, chatMessagesQuery, chatReadBody, chatUpdateBody, idParams } from "@balcao/shared";
import type { App } from "../../app";
import { actorOf } from "../../http/auth";
import { ChatsService } from "./service";

/** Internal staff chat (spec §7 "Internal chat"): every signed-in user, in the chats they belong to. */
export function registerChatRoutes(app: App): void {
  const chats = new ChatsService(app.ctx);
  const auth = { preHandler: app.authenticate };
  const tags = ["chats"];

  app.get("/chats", { ...auth, schema: { querystring: chatListQuery, tags } }, (request) => chats.list(actorOf(request), request.query));
  app.post("/chats", { ...auth, schema: { body: chatCreateBody, tags } }, async (request, reply) =>
    reply.status(201).send(await chats.create(actorOf(request), request.body)),
  );
  app.get("/chats/:id", { ...auth, schema: { params: idParams, tags } }, (request) => chats.show(actorOf(request), request.params.id));
  app.put("/chats/:id", { ...auth, schema: { params: idParams, body: chatUpdateBody, tags } }, (request) =>
    chats.update(actorOf(request), request.params.id, request.body),
  );
  app.delete("/chats/:id", { ...auth, schema: { params: idParams, tags } }, async (request, reply) => {
    await chats.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
  app.get("/chats/:id/messages", { ...auth, schema: { params: idParams, querystring: chatMessagesQuery, tags } }, (request) =>
    chats.messages(actorOf(request), request.params.id, request.query),
  );
  app.post("/chats/:id/messages", { ...auth, schema: { params: idParams, body: chatMessageBody, tags } }, async (request, reply) =>
    reply.status(201).send(await chats.send(actorOf(request), request.params.id, request.body)),
  );
  app.post("/chats/:id/read", { ...auth, schema: { params: idParams, body: chatReadBody, tags } }, (request) =>
    chats.markRead(actorOf(request), request.params.id),
  );
}
