import { companyCreateBody, companyListQuery, companyUpdateBody, idParams, settingKeyParams, settingUpdateBody, signupBody } from "@balcao/shared";
import type { App } from "../../app";
import { actorOf } from "../../http/auth";
import { RateLimiter } from "../../http/rateLimit";
import { CompaniesService } from "./service";

const HOUR = 60 * 60 * 1000;
const companySettingParams = idParams.extend(settingKeyParams.shape);

export function registerCompanyRoutes(app: App): void {
  const companies = new CompaniesService(app.ctx);
  const signupLimiter = new RateLimiter(app.ctx.config.signupRateLimit, HOUR);
  const auth = { preHandler: app.authenticate };

  app.post("/companies/cadastro", { schema: { body: signupBody, tags: ["companies"] } }, async (request, reply) => {
    signupLimiter.check(request.ip);
    signupLimiter.hit(request.ip);
    return reply.status(201).send(await companies.signup(request.body));
  });

  // Everything below is the platform super user's (spec §6): anyone else gets 403 ERR_NO_PERMISSION.
  for (const url of ["/companies", "/companies/"])
    app.get(url, { ...auth, schema: { querystring: companyListQuery, tags: ["companies"] } }, (request) =>
      companies.list(actorOf(request), request.query),
    );
  app.get("/companies/list", { ...auth, schema: { tags: ["companies"] } }, (request) => companies.listAll(actorOf(request)));
  app.get("/companies/:id", { ...auth, schema: { params: idParams, tags: ["companies"] } }, (request) =>
    companies.show(actorOf(request), request.params.id),
  );
  app.post("/companies", { ...auth, schema: { body: companyCreateBody, tags: ["companies"] } }, async (request, reply) =>
    reply.status(201).send(await companies.create(actorOf(request), request.body)),
  );
  app.put("/companies/:id", { ...auth, schema: { params: idParams, body: companyUpdateBody, tags: ["companies"] } }, (request) =>
    companies.update(actorOf(request), request.params.id, request.body),
  );
  app.delete("/companies/:id", { ...auth, schema: { params: idParams, tags: ["companies"] } }, async (request, reply) => {
    await companies.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
  app.get("/companies/:id/settings", { ...auth, schema: { params: idParams, tags: ["companies"] } }, (request) =>
    companies.settings(actorOf(request), request.params.id),
  );
  app.put(
    "/companies/:id/settings/:key",
    { ...auth, schema: { params: companySettingParams, body: settingUpdateBody, tags: ["companies"] } },
    (request) => companies.saveSetting(actorOf(request), request.params.id, request.params.key, request.body.value),
  );
}
