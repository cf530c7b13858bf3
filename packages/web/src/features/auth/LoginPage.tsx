import { isBillingOnly } from "@balcao/shared";
import { format } from "date-fns";
import { Box, TextField } from "@mui/material";
import { enqueueSnackbar } from "notistack";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ApiError } from "../../api/client";
import { useZodForm } from "../../components/form/useZodForm";
import { toastError } from "../../components/toastError";
import { AuthActions, AuthLayout } from "./AuthLayout";
import { useSession } from "./SessionProvider";
import { subscriptionDaysLeft } from "./subscriptionWarning";
import { formatDate } from "../../app/format";

// The form shows before zod's schema code, which follows right after (issue 20).
const loadLoginBody = () => import("./loginSchema").then((module) => module.loginBody);

export default function LoginPage() {
  const { t } = useTranslation();
  const { login } = useSession();
  const navigate = useNavigate();
  const form = useZodForm(loadLoginBody, { defaultValues: { email: "", password: "" } });

  const onSubmit = form.submit(
    async (values) => {
      const user = await login(values);
      // An expired company's admin may still log in, to pay (issue 13).
      if (isBillingOnly(user, format(new Date(), "yyyy-MM-dd"))) {
        enqueueSnackbar(t("billing.expired.loginToast", { date: formatDate(user.company.dueDate!) }), { variant: "warning" });
        navigate("/financeiro", { replace: true });
        return;
      }
      const daysLeft = subscriptionDaysLeft(user);
      if (daysLeft !== null) enqueueSnackbar(t("auth.subscriptionEnding", { count: daysLeft }), { variant: "warning" });
      navigate("/", { replace: true });
    },
    {
      toast: (err) => {
        if (err instanceof ApiError && err.code === "ERR_SUBSCRIPTION_EXPIRED") {
          const dueDate = err.body.meta?.dueDate;
          enqueueSnackbar(t("auth.subscriptionExpired", { date: dueDate ? formatDate(String(dueDate)) : "" }), { variant: "error" });
        } else toastError(err);
      },
    },
  );

  return (
    <AuthLayout title={t("login.title")}>
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ width: "100%", mt: 1 }}>
        <TextField {...form.field("email")} label={t("login.form.email")} type="email" autoComplete="email" autoFocus fullWidth margin="normal" />
        <TextField
          {...form.field("password")}
          label={t("login.form.password")}
          type="password"
          autoComplete="current-password"
          fullWidth
          margin="normal"
        />
        <AuthActions busy={form.busy} submitLabel={t("login.buttons.submit")} linkTo="/signup" linkLabel={t("login.buttons.register")} />
      </Box>
    </AuthLayout>
  );
}
