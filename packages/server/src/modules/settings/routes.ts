import { and, asc, eq } from "drizzle-orm";
import { settingKeyParams, settingUpdateBody, type SettingDTO } from "@balcao/shared";
import type { App } from "../../app";
import { settings } from "../../db/schema";
import { actorOf, requireAdmin } from "../../http/auth";
import { notFound } from "../../http/errors";

export function registerSettingRoutes(app: App): void {
  const db = app.ctx.database.db;
  const auth = { preHandler: app.authenticate };

  const list = async (companyId: number): Promise<SettingDTO[]> =>
    db
      .select({ key: settings.key, value: settings.value })
      .from(settings)
      .where(eq(settings.companyId, companyId))
      .orderBy(asc(settings.key));

  app.get("/settings", { ...auth, schema: { tags: ["settings"] } }, (request) => list(actorOf(request).companyId));

  app.put("/settings/:key", { ...auth, schema: { params: settingKeyParams, body: settingUpdateBody, tags: ["settings"] } }, async (request) => {
    const actor = actorOf(request);
    requireAdmin(actor);
    const [row] = await db
      .update(settings)
      .set({ value: request.body.value, updatedAt: new Date() })
      .where(and(eq(settings.companyId, actor.companyId), eq(settings.key, request.params.key)))
      .returning({ key: settings.key, value: settings.value });
    if (!row) throw notFound("ERR_NO_SETTING_FOUND");
    app.ctx.events.publish({ type: "settings.updated", companyId: actor.companyId, setting: row });
    return row;
  });
}
