import { describe, expect, it } from "vitest";
import { addRecurrence } from "./billing";
import { daysToDue, dueDateOrNull, dueDateTone, isCalendarDate } from "./dueDates";

describe("dueDateTone (spec §9 company row colours)", () => {
  it.each([
    [6, null],
    [5, "yellow"],
    [4, "orange"],
    [0, "orange"],
    [-3, "orange"],
    [-4, "red"],
    [-5, null],
    [30, null],
  ] as const)("%i days → %s", (days, tone) => {
    expect(dueDateTone(days)).toBe(tone);
  });

  it("no due date, no colour", () => {
    expect(dueDateTone(null)).toBeNull();
    expect(dueDateTone(undefined)).toBeNull();
    expect(dueDateTone(1.5)).toBeNull();
  });
});

describe("daysToDue", () => {
  it("counts calendar days across month ends and leap days", () => {
    expect(daysToDue("2028-03-01", "2028-02-28")).toBe(2);
    expect(daysToDue("2026-03-01", "2026-02-28")).toBe(1);
    expect(daysToDue("2026-02-24", "2026-02-28")).toBe(-4);
    expect(dueDateTone(daysToDue("2026-03-05", "2026-02-28"))).toBe("yellow");
    expect(daysToDue(null, "2026-02-28")).toBeNull();
    expect(daysToDue("31/12/2026", "2026-02-28")).toBeNull();
  });
});

describe("dueDateOrNull (spec §5)", () => {
  it("keeps a real date, turns empty or invalid into null", () => {
    expect(dueDateOrNull("2026-07-31")).toBe("2026-07-31");
    expect(dueDateOrNull("2026-07-31T03:00:00.000Z")).toBe("2026-07-31");
    expect(dueDateOrNull("")).toBeNull();
    expect(dueDateOrNull(null)).toBeNull();
    expect(dueDateOrNull("2026-02-30")).toBeNull();
    expect(dueDateOrNull("2027-02-29")).toBeNull();
    expect(dueDateOrNull("2028-02-29")).toBe("2028-02-29");
    expect(dueDateOrNull("Invalid date")).toBeNull();
    expect(isCalendarDate("2026-13-01")).toBe(false);
  });
});

describe("'+ Vencimento' through the shared addRecurrence", () => {
  it("extends an expired company by its recurrence, month ends and leap years handled", () => {
    expect(addRecurrence("2028-01-31", "MENSAL")).toBe("2028-02-29");
    expect(addRecurrence("2029-01-31", "MENSAL")).toBe("2029-02-28");
    expect(addRecurrence("2028-02-29", "ANUAL")).toBe("2029-02-28");
    expect(addRecurrence("2026-08-31", "SEMESTRAL")).toBe("2027-02-28");
  });
});
