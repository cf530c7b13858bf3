/**
 * The local calendar day of `date` as yyyy-MM-dd, what date-fns' format(date, "yyyy-MM-dd") gives: the session,
 * the layout and the subscription banner compare it with a company's due date. Here rather than date-fns, which
 * brought its formatters and English locale (6 KB gzipped) into every logged-in page (issue 20).
 */
export function localIsoDate(date: Date): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Whether `date` falls on the local calendar day of `now` (date-fns' isToday). */
export function isLocalToday(date: Date, now = new Date()): boolean {
  return localIsoDate(date) === localIsoDate(now);
}
