import { formatCalendarDate } from "./calendarDate";
import { currentLocale } from "./i18n";

/**
 * Dates, numbers and money in the active language's locale (issue 16: pt → pt-BR, en → en-US, es → es-ES).
 * Components calling these re-render on a language change through useTranslation.
 * Money stays in reais (the platform bills in BRL); only its notation follows the locale.
 */

/** A calendar date (yyyy-MM-dd or ISO): 31/12/2026, 12/31/2026, 31/12/2026. */
export function formatDate(isoDate: string | Date): string {
  return formatCalendarDate(isoDate, currentLocale());
}

function formatInstant(value: string | Date, options: Intl.DateTimeFormatOptions): string {
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(currentLocale(), options).format(date);
}

/** The local calendar day of an instant: 24/11/2026, 11/24/2026. */
export function formatLocalDate(value: string | Date): string {
  return formatInstant(value, { day: "2-digit", month: "2-digit", year: "numeric" });
}

/** Hours and minutes of an instant in the browser's time zone: 14:05, 02:05 PM. */
export function formatTime(value: string | Date): string {
  return formatInstant(value, { hour: "2-digit", minute: "2-digit" });
}

/** Date and time of an instant, as "24/11/2026 14:05" (pt), "11/24/2026 02:05 PM" (en). */
export function formatDateTime(value: string | Date): string {
  const date = formatLocalDate(value);
  return date && `${date} ${formatTime(value)}`;
}

export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(currentLocale(), options).format(value);
}

/** An amount in reais: R$ 1.234,50 (pt), R$1,234.50 (en), 1234,50 R$ (es). */
export function formatMoney(value: number, currency = "BRL"): string {
  return new Intl.NumberFormat(currentLocale(), { style: "currency", currency }).format(value);
}
