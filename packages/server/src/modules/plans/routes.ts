import { idParams, planCreateBody, planUpdateBody } from "@balcao/shared";
import type { App } from "../../app";
import { actorOf } from "../../http/auth";
import { PlansService } from "./service";

export { presentPlan } from "./presenter";

export function registerPlanRoutes(app: App): void {
  const plans = new PlansService(app.ctx);
  const auth = { preHandler: app.authenticate };

  // Public: the sign-up page needs the plans before anyone is logged in.
  app.get("/plans/list", { schema: { tags: ["plans"] } }, () => plans.listPublic());
  // Super users: the Plans tab, with how many companies use each plan.
  app.get("/plans/all", { ...auth, schema: { tags: ["plans"] } }, (request) => plans.listAll(actorOf(request)));
  app.get("/plans/:id", { ...auth, schema: { params: idParams, tags: ["plans"] } }, (request) => plans.show(actorOf(request), request.params.id));
  app.post("/plans", { ...auth, schema: { body: planCreateBody, tags: ["plans"] } }, async (request, reply) =>
    reply.status(201).send(await plans.create(actorOf(request), request.body)),
  );
  app.put("/plans/:id", { ...auth, schema: { params: idParams, body: planUpdateBody, tags: ["plans"] } }, (request) =>
    plans.update(actorOf(request), request.params.id, request.body),
  );
  app.delete("/plans/:id", { ...auth, schema: { params: idParams, tags: ["plans"] } }, async (request, reply) => {
    await plans.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
}
