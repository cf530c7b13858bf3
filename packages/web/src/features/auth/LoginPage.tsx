import { formatDateBR, loginBody, type LoginBody } from "@balcao/shared";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, CircularProgress, Link, TextField } from "@mui/material";
import { enqueueSnackbar } from "notistack";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import { ApiError } from "../../api/client";
import { toastError, translateValidation } from "../../components/toastError";
import { AuthLayout } from "./AuthLayout";
import { useSession } from "./SessionProvider";
import { subscriptionDaysLeft } from "./subscriptionWarning";

export default function LoginPage() {
  const { t } = useTranslation();
  const { login } = useSession();
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginBody>({ resolver: zodResolver(loginBody), defaultValues: { email: "", password: "" } });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const user = await login(values);
      const daysLeft = subscriptionDaysLeft(user);
      if (daysLeft !== null) enqueueSnackbar(t("auth.subscriptionEnding", { count: daysLeft }), { variant: "warning" });
      navigate("/", { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.code === "ERR_SUBSCRIPTION_EXPIRED") {
        const dueDate = err.body.meta?.dueDate;
        enqueueSnackbar(t("auth.subscriptionExpired", { date: dueDate ? formatDateBR(String(dueDate)) : "" }), { variant: "error" });
      } else {
        toastError(err);
      }
    }
  });

  return (
    <AuthLayout title={t("login.title")}>
      <Box component="form" noValidate onSubmit={onSubmit} sx={{ width: "100%", mt: 1 }}>
        <TextField
          {...register("email")}
          label={t("login.form.email")}
          type="email"
          autoComplete="email"
          autoFocus
          fullWidth
          margin="normal"
          error={!!errors.email}
          helperText={translateValidation(errors.email?.message)}
        />
        <TextField
          {...register("password")}
          label={t("login.form.password")}
          type="password"
          autoComplete="current-password"
          fullWidth
          margin="normal"
          error={!!errors.password}
          helperText={translateValidation(errors.password?.message)}
        />
        <Button type="submit" fullWidth variant="contained" size="large" disabled={isSubmitting} sx={{ mt: 2, mb: 2 }}>
          {isSubmitting ? <CircularProgress size={24} color="inherit" aria-label={t("common.loading")} /> : t("login.buttons.submit")}
        </Button>
        <Link component={RouterLink} to="/signup" variant="body2">
          {t("login.buttons.register")}
        </Link>
      </Box>
    </AuthLayout>
  );
}
