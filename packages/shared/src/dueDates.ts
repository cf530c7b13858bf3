import { daysUntil } from "./format";

/**
 * Due-date helpers of the super user's companies list (spec §2, §5, §9). The recurrence arithmetic behind
 * '+ Vencimento' is `addRecurrence` in billing.ts, shared with billing.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written yyyy-MM-dd (2026-02-30 is not one). */
export function isCalendarDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < 1900 || year > 9999 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Spec §5: a company due date that is empty or invalid is sent as null. Takes yyyy-MM-dd or a full ISO timestamp. */
export function dueDateOrNull(value: string | null | undefined): string | null {
  if (!value) return null;
  const datePart = value.trim().slice(0, 10);
  return isCalendarDate(datePart) ? datePart : null;
}

/** Days from `today` to the due date (negative once past), or null when the company has none. */
export function daysToDue(dueDate: string | null | undefined, today: string): number | null {
  if (!dueDate || !isCalendarDate(dueDate)) return null;
  return daysUntil(dueDate, today);
}

/** Row colour by days to the due date, exactly as spec §2/§9 list it: 5 yellow; −3 to 4 orange; −4 red; else none. */
export type DueDateTone = "yellow" | "orange" | "red";

export function dueDateTone(days: number | null | undefined): DueDateTone | null {
  if (days === null || days === undefined || !Number.isInteger(days)) return null;
  if (days === 5) return "yellow";
  if (days >= -3 && days <= 4) return "orange";
  if (days === -4) return "red";
  return null;
}
