import { and, asc, eq, ne, notInArray, notLike } from "drizzle-orm";
import { SECRET_SETTING_KEYS, SETTING_VALUES, type SettingDTO } from "@balcao/shared";
import type { AppContext } from "../../context";
import type { DbOrTx } from "../../db/client";
import { companies, settings } from "../../db/schema";
import { AppError, notFound } from "../../http/errors";

/** A company's settings by key; integration credentials only when `withSecrets` (admins, super users). */
export function listCompanySettings(db: DbOrTx, companyId: number, withSecrets: boolean): Promise<SettingDTO[]> {
  return db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(
      and(
        eq(settings.companyId, companyId),
        withSecrets ? undefined : notInArray(settings.key, [...SECRET_SETTING_KEYS]),
        // Rows with their own routes (issue 21): the SMTP setting (its password is write-only) and the bell's
        // per-user read markers.
        ne(settings.key, "smtp"),
        notLike(settings.key, "notificationsRead:%"),
      ),
    )
    .orderBy(asc(settings.key));
}

/**
 * Saves one setting of a company with the rules of PUT /settings/:key: only the keys of spec §3/§9 exist
 * (404 otherwise), each with its allowed values (400 otherwise); a missing row is created. Emits
 * `settings.updated` so the company's open screens follow.
 */
export async function saveCompanySetting(ctx: AppContext, companyId: number, key: string, rawValue: string): Promise<SettingDTO> {
  if (!Object.prototype.hasOwnProperty.call(SETTING_VALUES, key)) throw notFound("ERR_NO_SETTING_FOUND");
  const allowed = SETTING_VALUES[key];
  const value = allowed ? rawValue.trim() : rawValue;
  if (allowed && !allowed.includes(value)) throw new AppError("ERR_INVALID_SETTING_VALUE", 400, { key, allowed: allowed.join("|") });
  const [row] = await ctx.database.db
    .insert(settings)
    .values({ companyId, key, value })
    .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value, updatedAt: new Date() } })
    .returning({ key: settings.key, value: settings.value });
  if (!row) throw notFound("ERR_NO_SETTING_FOUND");
  // campaignsEnabled lives on the company row too (plan flag and menus read it there): keep both in step.
  if (key === "campaignsEnabled")
    await ctx.database.db
      .update(companies)
      .set({ campaignsEnabled: row.value === "true", updatedAt: new Date() })
      .where(eq(companies.id, companyId));
  ctx.events.publish({ type: "settings.updated", companyId, setting: row });
  return row;
}
