import { parseIsoDate } from "@balcao/shared";

/** A calendar date (yyyy-MM-dd or ISO) in a BCP 47 locale: 31/12/2026 (pt-BR), 12/31/2026 (en-US). No i18next (app/loginShell.tsx). */
export function formatCalendarDate(isoDate: string | Date, locale: string): string {
  const date = typeof isoDate === "string" ? parseIsoDate(isoDate) : isoDate;
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(locale, { day: "2-digit", month: "2-digit", year: "numeric", timeZone: "UTC" }).format(date);
}
