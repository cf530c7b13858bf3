import { describe, expect, it } from "vitest";
import { addDays, can, dateTimeFormat, daysUntil, formatBRL, formatDateBR, signupBody, todayIn, userUpdateBody } from "./index";

describe("permissions", () => {
  it("gives admins the spec's admin permissions and users none", () => {
    expect(can({ profile: "admin" }, "tickets-manager:showall")).toBe(true);
    expect(can({ profile: "admin" }, "user-modal:editQueues")).toBe(true);
    expect(can({ profile: "user" }, "tickets-manager:showall")).toBe(false);
    expect(can({ profile: "user" }, "contacts-page:deleteContact")).toBe(false);
    expect(can({ profile: "supervisor" }, "dashboard:view")).toBe(false);
    expect(can({ profile: "supervisor" }, "tickets-manager:showall")).toBe(true);
    expect(can({ profile: "supervisor" }, "tag-modal:kanban")).toBe(true);
    expect(can({ profile: "supervisor" }, "tickets:filterByUser")).toBe(false);
    expect(can({ profile: "supervisor" }, "user-modal:editProfile")).toBe(false);
    expect(can({ profile: "user" }, "tag-modal:kanban")).toBe(false);
    expect(can(null, "dashboard:view")).toBe(false);
  });
});

describe("dates and money", () => {
  it("formats pt-BR and counts days across month ends", () => {
    expect(formatDateBR("2026-03-05")).toBe("05/03/2026");
    expect(addDays("2026-02-27", 3)).toBe("2026-03-02");
    expect(daysUntil("2026-03-02", "2026-02-27")).toBe(3);
    expect(daysUntil("2026-02-26", "2026-02-27")).toBe(-1);
    expect(formatBRL(1234.5)).toMatch(/R\$\s1\.234,50/);
  });

  it("computes today in the company time zone, not the server's", () => {
    const lateNightUtc = new Date("2026-11-22T02:00:00Z");
    expect(todayIn("America/Sao_Paulo", lateNightUtc)).toBe("2026-11-21");
    expect(todayIn("UTC", lateNightUtc)).toBe("2026-11-22");
    // Alternating zones through the cached formats keeps each its own.
    expect(todayIn("America/Sao_Paulo", lateNightUtc)).toBe("2026-11-21");
  });

  it("keeps a zone's date for the minute asked in only: the next minute may be the next day", () => {
    // São Paulo's midnight is 03:00 UTC; Kathmandu's (UTC+05:45) is 18:15 UTC.
    expect(todayIn("America/Sao_Paulo", new Date("2026-11-22T02:59:00.000Z"))).toBe("2026-11-21");
    expect(todayIn("America/Sao_Paulo", new Date("2026-11-22T02:59:59.999Z"))).toBe("2026-11-21");
    expect(todayIn("America/Sao_Paulo", new Date("2026-11-22T03:00:00.000Z"))).toBe("2026-11-22");
    expect(todayIn("Asia/Kathmandu", new Date("2026-11-22T18:14:59.999Z"))).toBe("2026-11-22");
    expect(todayIn("Asia/Kathmandu", new Date("2026-11-22T18:15:00.000Z"))).toBe("2026-11-23");
    // Back to an earlier minute (a clock set back, a test's fixed time): answered for that minute, not the last.
    expect(todayIn("America/Sao_Paulo", new Date("2026-11-22T02:59:30.000Z"))).toBe("2026-11-21");
  });

  it("builds one date format per locale and options, and tells options apart", () => {
    const a = dateTimeFormat("pt-BR", { timeZone: "America/Sao_Paulo", hour: "2-digit", minute: "2-digit" });
    expect(dateTimeFormat("pt-BR", { timeZone: "America/Sao_Paulo", hour: "2-digit", minute: "2-digit" })).toBe(a);
    expect(dateTimeFormat("pt-BR", { timeZone: "UTC", hour: "2-digit", minute: "2-digit" })).not.toBe(a);
    expect(dateTimeFormat("en-US", { timeZone: "America/Sao_Paulo", hour: "2-digit", minute: "2-digit" })).not.toBe(a);
    expect(a.format(new Date("2026-11-22T02:05:00Z"))).toBe("23:05");
  });
});

describe("schemas", () => {
  it("sign-up: lower-cases the email and strips fields the server decides", () => {
    const parsed = signupBody.parse({ name: " Loja ", email: "A@B.CO", password: "12345", planId: "2", dueDate: "2099-01-01", status: false });
    expect(parsed).toEqual({ name: "Loja", email: "a@b.co", phone: "", password: "12345", planId: 2 });
  });

  it("user update: a blank password means keep the current one", () => {
    expect(userUpdateBody.parse({ password: "" }).password).toBeUndefined();
    expect(userUpdateBody.safeParse({ password: "123" }).success).toBe(false);
    expect(userUpdateBody.parse({ allTicket: "enabled" }).allTicket).toBe("enable");
  });
});
