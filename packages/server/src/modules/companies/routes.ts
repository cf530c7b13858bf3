import { signupBody } from "@balcao/shared";
import type { App } from "../../app";
import { RateLimiter } from "../../http/rateLimit";
import { CompaniesService } from "./service";

const HOUR = 60 * 60 * 1000;

export function registerCompanyRoutes(app: App): void {
  const companies = new CompaniesService(app.ctx);
  const signupLimiter = new RateLimiter(app.ctx.config.signupRateLimit, HOUR);

  app.post("/companies/cadastro", { schema: { body: signupBody, tags: ["companies"] } }, async (request, reply) => {
    signupLimiter.check(request.ip);
    signupLimiter.hit(request.ip);
    return reply.status(201).send(await companies.signup(request.body));
  });
}
