import { z } from "zod";
import { wireError } from "../errors";
import { blankAsUnset } from "./common";

/** Spec §9: the period choices of the dashboard filter, in days. */
export const DASHBOARD_PERIODS = [3, 7, 15, 30, 60, 90] as const;
/** Spec §9: ratings are 1 to 3. */
export const RATING_MAX = 3;

/** A calendar day yyyy-MM-dd that exists (2026-02-30 does not). */
const calendarDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Invalid date")
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v && d.getUTCFullYear() >= 2000;
  }, "Invalid date");

const periodFields = {
  days: blankAsUnset(z.coerce.number({ error: "Invalid number" }).int().min(1).max(3660)),
  date_from: blankAsUnset(calendarDay),
  date_to: blankAsUnset(calendarDay),
};

type PeriodFields = { days?: number; date_from?: string; date_to?: string };

/** Spec §5: at least one of days, start date, end date, else 'Parametrize o filtro'; and a start before the end. */
const periodChecks = <T extends z.ZodType<PeriodFields>>(schema: T) =>
  schema
    .refine((q) => q.days !== undefined || q.date_from !== undefined || q.date_to !== undefined, {
      message: wireError("ERR_DASHBOARD_FILTER_REQUIRED"),
    })
    .refine((q) => q.days !== undefined || !q.date_from || !q.date_to || q.date_from <= q.date_to, {
      message: "ERR_INVALID_DATE_RANGE",
      path: ["date_to"],
    });

/**
 * GET /dashboard and the reports (spec §7): the last `days` calendar days including today, or the days
 * date_from..date_to (either end may be open), in the company's time zone. `days` wins over the dates.
 */
export const dashboardQuery = periodChecks(z.object(periodFields));
export type DashboardQuery = z.input<typeof dashboardQuery>;

export const REPORT_TABLES = ["queues", "attendants"] as const;
export type ReportTable = (typeof REPORT_TABLES)[number];
export const REPORT_LANGUAGES = ["pt", "en", "es"] as const;
export type ReportLanguage = (typeof REPORT_LANGUAGES)[number];

/** GET /dashboard/reports/export: the period, the format, the table (a CSV holds one, an XLSX all) and the headings' language. */
export const reportExportQuery = periodChecks(
  z.object({
    ...periodFields,
    format: z.enum(["csv", "xlsx"]),
    table: blankAsUnset(z.enum(REPORT_TABLES)),
    lang: blankAsUnset(z.enum(REPORT_LANGUAGES)),
  }),
);
export type ReportExportQuery = z.input<typeof reportExportQuery>;

export const transcriptQuery = z.object({ lang: blankAsUnset(z.enum(REPORT_LANGUAGES)) });

/** The resolved period: local calendar days (null = open end) and the company's time zone. */
export const dashboardPeriodDto = z.object({
  from: z.string().nullable(),
  to: z.string().nullable(),
  timeZone: z.string(),
});
export type DashboardPeriodDTO = z.infer<typeof dashboardPeriodDto>;

/** Spec §3 counters; times are minutes (null when no cycle qualifies). Definitions in docs/decisions.md. */
export const dashboardCountersDto = z.object({
  supportPending: z.number(),
  supportHappening: z.number(),
  supportFinished: z.number(),
  leads: z.number(),
  avgSupportTime: z.number().nullable(),
  avgWaitTime: z.number().nullable(),
});
export type DashboardCountersDTO = z.infer<typeof dashboardCountersDto>;

export const dashboardAttendantDto = z.object({
  id: z.number(),
  name: z.string(),
  /** Average of the 1–3 ratings of the cycles they finished in the period, null without ratings. */
  rating: z.number().nullable(),
  ratings: z.number(),
  /** Minutes. */
  avgSupportTime: z.number().nullable(),
  /** Attendance cycles they finished in the period. */
  tickets: z.number(),
  online: z.boolean(),
});
export type DashboardAttendantDTO = z.infer<typeof dashboardAttendantDto>;

export const dashboardResponse = z.object({
  counters: dashboardCountersDto,
  attendants: z.array(dashboardAttendantDto),
  period: dashboardPeriodDto,
  /** 'Atendimentos hoje': attendance cycles begun today (company time zone), by local hour 0–23. */
  today: z.object({ date: z.string(), total: z.number(), hours: z.array(z.number()) }),
  company: z.object({ dueDate: z.string().nullable() }),
});
export type DashboardResponse = z.infer<typeof dashboardResponse>;

/** One row of the per-queue or per-attendant report; `id` null is 'no queue' / a deleted attendant. */
export const reportRowDto = z.object({
  id: z.number().nullable(),
  name: z.string().nullable(),
  color: z.string().nullable().optional(),
  tickets: z.number(),
  avgWaitTime: z.number().nullable(),
  avgFirstResponse: z.number().nullable(),
  avgSupportTime: z.number().nullable(),
  rating: z.number().nullable(),
  ratings: z.number(),
});
export type ReportRowDTO = z.infer<typeof reportRowDto>;

export const reportsResponse = z.object({
  period: dashboardPeriodDto,
  queues: z.array(reportRowDto),
  attendants: z.array(reportRowDto),
});
export type ReportsResponse = z.infer<typeof reportsResponse>;
