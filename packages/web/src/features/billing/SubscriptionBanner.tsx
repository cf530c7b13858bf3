import { daysUntil, isAdmin, SUBSCRIPTION_WARNING_DAYS } from "@balcao/shared";
import { Alert, Button } from "@mui/material";
import { localIsoDate } from "../../app/localDate";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useLocation } from "react-router";
import { useSession } from "../auth/SessionProvider";

/** Admins see this from 5 days before the due date until it is paid (then the due date moves and it goes). */
export function SubscriptionBanner() {
  const { t } = useTranslation();
  const { user } = useSession();
  const location = useLocation();
  const [dismissed, setDismissed] = useState(false);
  const dueDate = user?.company?.dueDate;
  if (!isAdmin(user) || user?.super || !dueDate || dismissed || location.pathname === "/financeiro") return null;
  const days = daysUntil(dueDate, localIsoDate(new Date()));
  if (days < 0 || days > SUBSCRIPTION_WARNING_DAYS) return null;
  return (
    <Alert
      severity="warning"
      data-testid="subscription-banner"
      onClose={() => setDismissed(true)}
      action={
        <Button color="inherit" size="small" component={RouterLink} to="/financeiro">
          {t("billing.banner.action")}
        </Button>
      }
      sx={{ mb: 2, alignItems: "center" }}
    >
      {days === 0 ? t("billing.banner.dueToday") : t("billing.banner.dueSoon", { count: days })}
    </Alert>
  );
}
