/**
 * Send times on the company's clock (spec §2: DD/MM/YYYY HH:mm:ss), whatever the browser's time zone: an
 * attendant travelling or a misconfigured computer still schedules for the company's 9 o'clock.
 */
export const DEFAULT_TIME_ZONE = "America/Sao_Paulo";

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function wallClock(date: Date, timeZone: string): WallClock {
  const parts = formatterFor(timeZone).formatToParts(date);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { year: get("year"), month: get("month"), day: get("day"), hour: get("hour"), minute: get("minute"), second: get("second") };
}

const pad = (n: number, size = 2) => String(n).padStart(size, "0");

/** "DD/MM/YYYY HH:mm:ss" in the company's time zone. */
export function formatScheduleTime(iso: string, timeZone: string): string {
  const c = wallClock(new Date(iso), timeZone);
  return `${pad(c.day)}/${pad(c.month)}/${c.year} ${pad(c.hour)}:${pad(c.minute)}:${pad(c.second)}`;
}

/** The value of an <input type="datetime-local"> showing `date` on the company's clock ("YYYY-MM-DDTHH:mm"). */
export function toLocalInput(date: Date, timeZone: string): string {
  const c = wallClock(date, timeZone);
  return `${c.year}-${pad(c.month)}-${pad(c.day)}T${pad(c.hour)}:${pad(c.minute)}`;
}

/** The instant a datetime-local value means on the company's clock; null when it is not a valid time. */
export function fromLocalInput(value: string, timeZone: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second = "0"] = m.slice(1).map((v) => v ?? "0");
  const asUtc = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  if (Number.isNaN(asUtc)) return null;
  // The zone's offset at that moment, applied twice to settle across a daylight-saving change.
  const offsetAt = (instant: number) => {
    const c = wallClock(new Date(instant), timeZone);
    return Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second) - instant;
  };
  let instant = asUtc - offsetAt(asUtc);
  instant = asUtc - offsetAt(instant);
  return new Date(instant);
}
