import { isSameDay } from "date-fns";
import { formatLocalDate, formatTime } from "../../app/format";

/** Ticket row time (spec §2): the time when it is today, otherwise the date — both in the active locale (issue 16). */
export function formatTicketTime(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return isSameDay(date, now) ? formatTime(date) : formatLocalDate(date);
}
