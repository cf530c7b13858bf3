import { dashboardQuery, idParams, reportExportQuery, transcriptQuery } from "@balcao/shared";
import type { App } from "../../app";
import { actorOf, requireAdmin } from "../../http/auth";
import { exportFileName, reportCsv, reportXlsx } from "./export";
import { DashboardService } from "./service";
import { buildTranscript } from "./transcript";

/** Dashboard and reports are admin only (spec §6); the transcript follows the ticket's visibility. */
export function registerDashboardRoutes(app: App): void {
  const service = new DashboardService(app.ctx);
  const auth = { preHandler: app.authenticate };

  app.get("/dashboard", { ...auth, schema: { querystring: dashboardQuery, tags: ["dashboard"] } }, (request) => {
    const actor = actorOf(request);
    requireAdmin(actor);
    return service.dashboard(actor.companyId, request.query);
  });

  app.get("/dashboard/reports", { ...auth, schema: { querystring: dashboardQuery, tags: ["dashboard"] } }, (request) => {
    const actor = actorOf(request);
    requireAdmin(actor);
    return service.reports(actor.companyId, request.query);
  });

  app.get("/dashboard/reports/export", { ...auth, schema: { querystring: reportExportQuery, tags: ["dashboard"] } }, async (request, reply) => {
    const actor = actorOf(request);
    requireAdmin(actor);
    const q = request.query;
    const lang = q.lang ?? "pt";
    const report = await service.reports(actor.companyId, q);
    reply.header("Cache-Control", "no-store");
    if (q.format === "csv") {
      const table = q.table ?? "queues";
      return reply
        .type("text/csv; charset=utf-8")
        .header("Content-Disposition", `attachment; filename="${exportFileName(report, "csv", table)}"`)
        .send(reportCsv(report, table, lang));
    }
    return reply
      .type("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
      .header("Content-Disposition", `attachment; filename="${exportFileName(report, "xlsx")}"`)
      .send(reportXlsx(report, lang));
  });

  app.get(
    "/tickets/:id/transcript",
    { ...auth, schema: { params: idParams, querystring: transcriptQuery, tags: ["tickets"] } },
    async (request, reply) => {
      const html = await buildTranscript(app.ctx.database.db, actorOf(request), request.params.id, request.query.lang ?? "pt");
      return reply.type("text/html; charset=utf-8").header("Cache-Control", "no-store").send(html);
    },
  );
}
