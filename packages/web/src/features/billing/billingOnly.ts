import { isBillingOnly } from "@balcao/shared";
import { localIsoDate } from "../../app/localDate";
import { useSession } from "../auth/SessionProvider";

/** The pages an expired company's admin can reach (everything else answers 402 on the server). */
export const BILLING_ONLY_PATHS = ["/financeiro", "/subscription"];

/** True while the session is billing-only: the company's due date passed and the user is its admin. */
export function useBillingOnly(): boolean {
  const { user } = useSession();
  return isBillingOnly(user, localIsoDate(new Date()));
}
