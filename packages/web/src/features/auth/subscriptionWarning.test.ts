import { describe, expect, it } from "vitest";
import { makeUser } from "../../test/utils";
import { subscriptionDaysLeft } from "./subscriptionWarning";

const withDue = (dueDate: string | null) => makeUser({ company: { ...makeUser().company, dueDate } });

describe("subscriptionDaysLeft", () => {
  const today = new Date(2025, 5, 10); // 10 June 2025, local time
  it("warns only under 5 days", () => {
    expect(subscriptionDaysLeft(withDue("2025-06-14"), today)).toBe(4);
    expect(subscriptionDaysLeft(withDue("2025-06-15"), today)).toBeNull();
    expect(subscriptionDaysLeft(withDue("2025-06-10"), today)).toBe(0);
    expect(subscriptionDaysLeft(withDue(null), today)).toBeNull();
  });
});
