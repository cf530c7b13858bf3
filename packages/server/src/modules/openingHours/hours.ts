import { dateTimeFormat, WEEKDAYS_EN, type WeekdayEn } from "@balcao/shared";

export interface Slot {
  weekdayEn: string;
  startTime: string;
  endTime: string;
}

/** Weekday key and minutes since midnight of an instant, on the wall clock of a time zone. */
export function localClock(at: Date, timeZone: string): { weekday: WeekdayEn; minutes: number; hour: number } {
  const parts = dateTimeFormat("en-US", { timeZone, weekday: "long", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const weekday = get("weekday").toLowerCase() as WeekdayEn;
  const hour = Number(get("hour")) % 24;
  return { weekday: WEEKDAYS_EN.includes(weekday) ? weekday : "monday", minutes: hour * 60 + Number(get("minute")), hour };
}

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether a weekly schedule is open at an instant (docs/api.md "Opening hours"): a day that is missing
 * or has empty times is open all day; start = end is closed all day; start < end is open from start
 * (inclusive) to end (exclusive); start > end is an overnight span (open from start, and before end).
 */
export function isOpen(schedules: readonly Slot[], at: Date, timeZone: string): boolean {
  const { weekday, minutes } = localClock(at, timeZone);
  const slot = schedules.find((s) => s.weekdayEn === weekday);
  if (!slot || !slot.startTime || !slot.endTime) return true;
  const start = toMinutes(slot.startTime);
  const end = toMinutes(slot.endTime);
  if (start === end) return false;
  if (start < end) return minutes >= start && minutes < end;
  return minutes >= start || minutes < end;
}
