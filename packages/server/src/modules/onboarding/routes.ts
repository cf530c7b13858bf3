import { z } from "zod";
import type { App } from "../../app";
import { actorOf, requireAdmin } from "../../http/auth";
import { OnboardingService } from "./service";

/** PUT /onboarding: hide the checklist (`dismissed: true`) or bring it back. */
export const onboardingUpdateBody = z.object({ dismissed: z.boolean() });

/** The first-run checklist of a company's admins (issue 16): GET its steps, PUT its dismissal. */
export function registerOnboardingRoutes(app: App): void {
  const service = new OnboardingService(app.ctx);
  const auth = { preHandler: app.authenticate };
  const tags = ["onboarding"];

  app.get("/onboarding", { ...auth, schema: { tags } }, (request) => {
    const actor = actorOf(request);
    requireAdmin(actor);
    return service.state(actor.companyId);
  });

  app.put("/onboarding", { ...auth, schema: { body: onboardingUpdateBody, tags } }, (request) => {
    const actor = actorOf(request);
    requireAdmin(actor);
    return service.setDismissed(actor.companyId, request.body.dismissed);
  });
}
