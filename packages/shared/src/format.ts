/** pt-BR formatting helpers used by server messages and the web app. */
export function formatDateBR(isoDate: string | Date): string {
  const d = typeof isoDate === "string" ? parseIsoDate(isoDate) : isoDate;
  const dd = String(d.getUTCDate()).padStart(2, "0");
  const mm = String(d.getUTCMonth() + 1).padStart(2, "0");
  return `${dd}/${mm}/${d.getUTCFullYear()}`;
}

/** Parses yyyy-MM-dd (or a full ISO timestamp) as a UTC calendar date. */
export function parseIsoDate(value: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return new Date(NaN);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
}

/** Whole days from `today` to `dueDate` (both yyyy-MM-dd); negative when past. */
export function daysUntil(dueDate: string, today: string): number {
  return Math.round((parseIsoDate(dueDate).getTime() - parseIsoDate(today).getTime()) / 86_400_000);
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * One Intl.DateTimeFormat per locale and options: building one costs ~0.1 ms (the time zone and locale data
 * are resolved each time), and the server formats on every request and every inbound message.
 */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    // Bounded: one entry per time zone in use and format; a flood of distinct zones only rebuilds.
    if (dateTimeFormats.size >= 500) dateTimeFormats.clear();
    dateTimeFormats.set(key, format);
  }
  return format;
}

const MINUTE_MS = 60_000;
/** Per time zone, the date of the last minute asked about (UTC minute start → date). */
const lastDates = new Map<string, { minute: number; date: string }>();

/**
 * Today's calendar date (yyyy-MM-dd) in an IANA time zone. Every signed-in request asks it (the subscription's
 * due date): the answer is kept for the UTC minute it was asked in, since every zone's day starts on a whole
 * minute, so formatting runs once a minute per zone instead of per request (issue 20).
 */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const minute = Math.floor(now.getTime() / MINUTE_MS);
  const last = lastDates.get(timeZone);
  if (last?.minute === minute) return last.date;
  const date = dateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
  if (lastDates.size >= 500) lastDates.clear();
  lastDates.set(timeZone, { minute, date });
  return date;
}

export function addDays(isoDate: string, days: number): string {
  const d = parseIsoDate(isoDate);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function formatBRL(value: number): string {
  return new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" }).format(value);
}
