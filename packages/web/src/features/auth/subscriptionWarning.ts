import { SUBSCRIPTION_WARNING_DAYS, daysUntil, type UserDTO } from "@balcao/shared";
import { localIsoDate } from "../../app/localDate";

/** Days left when the company's due date is fewer than 5 days away (spec §5), else null. */
export function subscriptionDaysLeft(user: Pick<UserDTO, "company">, today: Date = new Date()): number | null {
  const dueDate = user.company?.dueDate;
  if (!dueDate) return null;
  const days = daysUntil(dueDate, localIsoDate(today));
  return days < SUBSCRIPTION_WARNING_DAYS ? days : null;
}
