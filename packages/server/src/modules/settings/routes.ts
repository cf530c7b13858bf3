import { isAdmin, settingKeyParams, settingUpdateBody } from "@balcao/shared";
import type { App } from "../../app";
import { actorOf, requireAdmin } from "../../http/auth";
import { AppError } from "../../http/errors";
import { listCompanySettings, saveCompanySetting } from "./service";

export function registerSettingRoutes(app: App): void {
  const db = app.ctx.database.db;
  const auth = { preHandler: app.authenticate };

  for (const url of ["/settings", "/settings/"])
    app.get(url, { ...auth, schema: { tags: ["settings"] } }, (request) => {
      const actor = actorOf(request);
      // Integration credentials are shown to admins only (reference defect 10).
      return listCompanySettings(db, actor.companyId, isAdmin(actor));
    });

  app.put("/settings/:key", { ...auth, schema: { params: settingKeyParams, body: settingUpdateBody, tags: ["settings"] } }, async (request) => {
    const actor = actorOf(request);
    requireAdmin(actor);
    // userCreation opens or closes the platform's public sign-up: a platform decision, not a company admin's.
    if (request.params.key === "userCreation" && !actor.super) throw new AppError("ERR_NO_PERMISSION");
    return saveCompanySetting(app.ctx, actor.companyId, request.params.key, request.body.value);
  });
}
