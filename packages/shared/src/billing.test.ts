import { describe, expect, it } from "vitest";
import { addMonths, addRecurrence, invoiceDisplayStatus, isRecurrence } from "./billing";

describe("addRecurrence", () => {
  it("adds each recurrence's months", () => {
    expect(addRecurrence("2026-01-15", "MENSAL")).toBe("2026-02-15");
    expect(addRecurrence("2026-01-15", "BIMESTRAL")).toBe("2026-03-15");
    expect(addRecurrence("2026-01-15", "TRIMESTRAL")).toBe("2026-04-15");
    expect(addRecurrence("2026-01-15", "SEMESTRAL")).toBe("2026-07-15");
    expect(addRecurrence("2026-01-15", "ANUAL")).toBe("2027-01-15");
  });

  it("clamps to the last day of shorter months, leap years included", () => {
    expect(addRecurrence("2026-01-31", "MENSAL")).toBe("2026-02-28");
    expect(addRecurrence("2028-01-31", "MENSAL")).toBe("2028-02-29");
    expect(addRecurrence("2026-03-31", "MENSAL")).toBe("2026-04-30");
    expect(addRecurrence("2026-08-31", "SEMESTRAL")).toBe("2027-02-28");
    expect(addRecurrence("2026-12-31", "BIMESTRAL")).toBe("2027-02-28");
    expect(addRecurrence("2028-02-29", "ANUAL")).toBe("2029-02-28");
    expect(addRecurrence("2027-11-30", "TRIMESTRAL")).toBe("2028-02-29");
  });

  it("crosses year ends", () => {
    expect(addRecurrence("2026-12-15", "MENSAL")).toBe("2027-01-15");
    expect(addRecurrence("2026-11-30", "TRIMESTRAL")).toBe("2027-02-28");
    expect(addMonths("2026-12-31", 14)).toBe("2028-02-29");
  });

  it("treats an unknown recurrence as MENSAL and refuses a non-date", () => {
    expect(addRecurrence("2026-05-10", "SEMANAL")).toBe("2026-06-10");
    expect(isRecurrence("ANUAL")).toBe(true);
    expect(isRecurrence("anual")).toBe(false);
    expect(() => addRecurrence("10/05/2026", "MENSAL")).toThrow(RangeError);
  });
});

describe("invoiceDisplayStatus", () => {
  it("paid wins; unpaid before today is overdue; due today is still open", () => {
    expect(invoiceDisplayStatus({ status: "paid", dueDate: "2020-01-01" }, "2026-05-10")).toBe("paid");
    expect(invoiceDisplayStatus({ status: "open", dueDate: "2026-05-09" }, "2026-05-10")).toBe("overdue");
    expect(invoiceDisplayStatus({ status: "open", dueDate: "2026-05-10" }, "2026-05-10")).toBe("open");
    expect(invoiceDisplayStatus({ status: "open", dueDate: "2026-06-10" }, "2026-05-10")).toBe("open");
  });
});
