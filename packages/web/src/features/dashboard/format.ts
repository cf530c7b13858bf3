import type { TFunction } from "i18next";

const LOCALES: Record<string, string> = { pt: "pt-BR", en: "en-US", es: "es-ES" };
export const localeOf = (language: string) => LOCALES[language.slice(0, 2)] ?? "pt-BR";

/** Minutes as the cards show them: "12,5 min" below an hour, "1 h 5 min" from there; "—" without data. */
export function formatMinutes(t: TFunction, language: string, minutes: number | null | undefined): string {
  if (minutes === null || minutes === undefined) return t("dashboard.time.none");
  if (minutes < 60) return t("dashboard.time.minutes", { value: minutes.toLocaleString(localeOf(language), { maximumFractionDigits: 1 }) });
  const whole = Math.round(minutes);
  return t("dashboard.time.hours", { hours: Math.floor(whole / 60), minutes: whole % 60 });
}

export function formatDecimal(language: string, value: number): string {
  return value.toLocaleString(localeOf(language), { maximumFractionDigits: 1 });
}

/** yyyy-MM-dd of the first day of `today`'s month (spec §9: the default start of the filter). */
export function firstOfMonth(today: string): string {
  return `${today.slice(0, 8)}01`;
}

/** The browser's local calendar date, yyyy-MM-dd. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
