import { and, asc, eq, notInArray } from "drizzle-orm";
import { INVALID_SETTING_VALUE, isAdmin, SECRET_SETTING_KEYS, SETTING_VALUES, settingKeyParams, settingUpdateBody, type SettingDTO } from "@balcao/shared";
import type { App } from "../../app";
import { settings } from "../../db/schema";
import { actorOf, requireAdmin } from "../../http/auth";
import { AppError, notFound } from "../../http/errors";

export function registerSettingRoutes(app: App): void {
  const db = app.ctx.database.db;
  const auth = { preHandler: app.authenticate };

  /** Integration credentials are shown to admins only (reference defect 10). */
  const list = async (companyId: number, withSecrets: boolean): Promise<SettingDTO[]> =>
    db
      .select({ key: settings.key, value: settings.value })
      .from(settings)
      .where(and(eq(settings.companyId, companyId), withSecrets ? undefined : notInArray(settings.key, [...SECRET_SETTING_KEYS])))
      .orderBy(asc(settings.key));

  for (const url of ["/settings", "/settings/"])
    app.get(url, { ...auth, schema: { tags: ["settings"] } }, (request) => {
      const actor = actorOf(request);
      return list(actor.companyId, isAdmin(actor));
    });

  app.put("/settings/:key", { ...auth, schema: { params: settingKeyParams, body: settingUpdateBody, tags: ["settings"] } }, async (request) => {
    const actor = actorOf(request);
    requireAdmin(actor);
    // Only the keys of spec §3/§9 exist (404 otherwise), each with its allowed values (400 otherwise).
    const key = request.params.key;
    if (!Object.prototype.hasOwnProperty.call(SETTING_VALUES, key)) throw notFound("ERR_NO_SETTING_FOUND");
    const allowed = SETTING_VALUES[key];
    const value = allowed ? request.body.value.trim() : request.body.value;
    if (allowed && !allowed.includes(value)) throw new AppError(INVALID_SETTING_VALUE, 400, { key, allowed: allowed.join("|") });
    // A company created before a key existed gets the row on its first save.
    const [row] = await db
      .insert(settings)
      .values({ companyId: actor.companyId, key, value })
      .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value, updatedAt: new Date() } })
      .returning({ key: settings.key, value: settings.value });
    if (!row) throw notFound("ERR_NO_SETTING_FOUND");
    app.ctx.events.publish({ type: "settings.updated", companyId: actor.companyId, setting: row });
    return row;
  });
}
