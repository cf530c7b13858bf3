import { addDays, format } from "date-fns";
import { describe, expect, it } from "vitest";
import { formatDate } from "../../app/format";
import i18n from "../../app/i18n";
import { makeUser } from "../../test/utils";
import { landingAfterLogin } from "./afterLogin";

const t = (key: string, values?: Record<string, unknown>) => i18n.t(key, values);
const due = (days: number) => format(addDays(new Date(), days), "yyyy-MM-dd");
const withDue = (dueDate: string, profile: "admin" | "user" = "admin") => makeUser({ profile, company: { ...makeUser().company, dueDate } });

describe("landingAfterLogin", () => {
  it("leads home without a word while the subscription has 5 days or more", () => {
    expect(landingAfterLogin(withDue(due(30)), t)).toEqual({ path: "/", warning: undefined });
  });

  it("leads home with the warning when fewer than 5 days remain", () => {
    expect(landingAfterLogin(withDue(due(2)), t)).toEqual({ path: "/", warning: "Sua assinatura vence em 2 dia(s)" });
  });

  it("leads an expired company's admin to the finance page with the billing warning", () => {
    expect(landingAfterLogin(withDue(due(-3)), t)).toEqual({
      path: "/financeiro",
      warning: `Sua assinatura venceu em ${formatDate(due(-3))}. Pague a fatura para reativar o acesso.`,
    });
  });
});
