import { format, isToday } from "date-fns";
import { describe, expect, it } from "vitest";
import { isLocalToday, localIsoDate } from "./localDate";

describe("localIsoDate and isLocalToday", () => {
  it("give what date-fns' format(date, 'yyyy-MM-dd') and isToday give", () => {
    const now = new Date();
    const dates = [
      now,
      new Date(2026, 0, 1, 0, 0, 0),
      new Date(2026, 11, 31, 23, 59, 59, 999),
      new Date(2024, 1, 29, 12),
      new Date(now.getFullYear(), now.getMonth(), now.getDate(), 0, 0, 0),
      new Date(now.getFullYear(), now.getMonth(), now.getDate(), 23, 59, 59),
      new Date(now.getTime() - 86_400_000),
      new Date(now.getTime() + 86_400_000),
      new Date("2026-03-08T02:30:00Z"),
    ];
    for (const date of dates) {
      expect(localIsoDate(date)).toBe(format(date, "yyyy-MM-dd"));
      expect(isLocalToday(date)).toBe(isToday(date));
    }
    expect(isLocalToday(new Date("not a date"))).toBe(false);
  });
});
