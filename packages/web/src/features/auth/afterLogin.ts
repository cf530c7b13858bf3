import { isBillingOnly, type UserDTO } from "@balcao/shared";
import { localIsoDate } from "../../app/localDate";
import { formatDate } from "../../app/format";
import { subscriptionDaysLeft } from "./subscriptionWarning";

export interface Landing {
  /** Where the user goes: the finance page for an expired company's admin (issue 13), else home. */
  path: "/" | "/financeiro";
  /** The warning toast that goes with it, if any. */
  warning?: string;
}

/** Where a login leads and what it says on the way (spec §5), for the app's login route and the login shell alike. */
export function landingAfterLogin(user: UserDTO, t: (key: string, values?: Record<string, unknown>) => string): Landing {
  // An expired company's admin may still log in, to pay (issue 13).
  if (isBillingOnly(user, localIsoDate(new Date()))) {
    return { path: "/financeiro", warning: t("billing.expired.loginToast", { date: formatDate(user.company.dueDate!) }) };
  }
  const daysLeft = subscriptionDaysLeft(user);
  return { path: "/", warning: daysLeft === null ? undefined : t("auth.subscriptionEnding", { count: daysLeft }) };
}
