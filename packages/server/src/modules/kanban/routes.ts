import { kanbanMoveBody, kanbanMoveParams, kanbanQuery } from "@balcao/shared";
import type { App } from "../../app";
import { actorOf } from "../../http/auth";
import { KanbanService } from "./service";

export function registerKanbanRoutes(app: App): void {
  const kanban = new KanbanService(app.ctx);
  const auth = { preHandler: app.authenticate };
  const tags = ["kanban"];

  // Spec §7 writes GET /ticket/kanban (singular "ticket").
  app.get("/ticket/kanban", { ...auth, schema: { querystring: kanbanQuery, tags } }, (request) =>
    kanban.board(actorOf(request), request.query.queueIds),
  );
  app.put("/ticket/kanban/:ticketId", { ...auth, schema: { params: kanbanMoveParams, body: kanbanMoveBody, tags } }, (request) =>
    kanban.move(actorOf(request), request.params.ticketId, request.body),
  );
}
