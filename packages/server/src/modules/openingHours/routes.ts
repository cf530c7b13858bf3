import { eq } from "drizzle-orm";
import { companySchedulesBody, idParams, WEEKDAY_LABELS, WEEKDAYS_EN, type CompanySchedulesDTO, type WeeklySlotDTO } from "@balcao/shared";
import type { App } from "../../app";
import type { DbOrTx } from "../../db/client";
import { companySchedules } from "../../db/schema";
import { actorOf } from "../../http/auth";
import { forbidden, notFound } from "../../http/errors";
import type { Actor } from "../auth/service";
import { queuePolicy } from "../queues/policy";

/** The company's seven weekdays, Monday first; a day never saved has empty times (open all day). */
export async function loadCompanySchedules(db: DbOrTx, companyId: number): Promise<WeeklySlotDTO[]> {
  const rows = await db
    .select({
      weekday: companySchedules.weekday,
      weekdayEn: companySchedules.weekdayEn,
      startTime: companySchedules.startTime,
      endTime: companySchedules.endTime,
    })
    .from(companySchedules)
    .where(eq(companySchedules.companyId, companyId));
  const byDay = new Map(rows.map((r) => [r.weekdayEn, r]));
  return WEEKDAYS_EN.map((weekdayEn) => {
    const r = byDay.get(weekdayEn);
    return { weekday: r?.weekday || WEEKDAY_LABELS[weekdayEn], weekdayEn, startTime: r?.startTime ?? "", endTime: r?.endTime ?? "" };
  });
}

/** Only the caller's own company exists for these routes: another id answers 404 like a missing one. */
function ownCompany(actor: Actor, id: number): number {
  if (id !== actor.companyId) throw notFound("ERR_NO_COMPANY_FOUND");
  return id;
}

/** Company opening hours (settings tab Horários; used when the setting scheduleType is 'company'). */
export function registerOpeningHoursRoutes(app: App): void {
  const db = app.ctx.database.db;
  const auth = { preHandler: app.authenticate };
  const tags = ["companies"];

  app.get("/companies/:id/schedules", { ...auth, schema: { params: idParams, tags } }, async (request): Promise<CompanySchedulesDTO> => {
    const companyId = ownCompany(actorOf(request), request.params.id);
    return { companyId, schedules: await loadCompanySchedules(db, companyId) };
  });

  app.put(
    "/companies/:id/schedules",
    { ...auth, schema: { params: idParams, body: companySchedulesBody, tags } },
    async (request): Promise<CompanySchedulesDTO> => {
      const actor = actorOf(request);
      const companyId = ownCompany(actor, request.params.id);
      if (!queuePolicy.write(actor)) throw forbidden();
      const schedules = await db.transaction(async (tx) => {
        // The body is the whole week: days left out are cleared (open all day).
        await tx.delete(companySchedules).where(eq(companySchedules.companyId, companyId));
        if (request.body.schedules.length) await tx.insert(companySchedules).values(request.body.schedules.map((s) => ({ companyId, ...s })));
        return loadCompanySchedules(tx, companyId);
      });
      return { companyId, schedules };
    },
  );
}
