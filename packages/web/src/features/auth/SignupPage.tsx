import { formatBRL, signupBody, type PlanDTO, type SignupBody, type SignupResponse } from "@balcao/shared";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, CircularProgress, Link, MenuItem, TextField } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { enqueueSnackbar } from "notistack";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate, useSearchParams } from "react-router";
import { api, ApiError } from "../../api/client";
import { queryKeys } from "../../api/queryKeys";
import { errorText, translateValidation } from "../../components/toastError";
import { AuthLayout } from "./AuthLayout";

export default function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  // The spec's optional ?companyId= is kept in state; the server decides the company, so it is not sent.
  const [companyId] = useState(() => searchParams.get("companyId"));
  void companyId;

  const plans = useQuery({
    queryKey: queryKeys.plans,
    queryFn: () => api.get<PlanDTO[]>("/plans/list", undefined, { anonymous: true }),
  });

  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(signupBody),
    defaultValues: { name: "", email: "", phone: "", password: "", planId: "" } satisfies SignupBody,
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await api.post<SignupResponse>("/companies/cadastro", values, { anonymous: true });
      enqueueSnackbar(t("signup.toasts.success"), { variant: "success" });
      navigate("/login");
    } catch (err) {
      const detail = err instanceof ApiError && err.code ? ` ${errorText(err)}` : "";
      enqueueSnackbar(`${t("signup.toasts.fail")}${detail}`, { variant: "error" });
    }
  });

  return (
    <AuthLayout title={t("signup.title")}>
      <Box component="form" noValidate onSubmit={onSubmit} sx={{ width: "100%", mt: 1 }}>
        <TextField
          {...register("name")}
          label={t("signup.form.name")}
          autoComplete="organization"
          autoFocus
          fullWidth
          margin="dense"
          error={!!errors.name}
          helperText={translateValidation(errors.name?.message)}
        />
        <TextField
          {...register("email")}
          label={t("signup.form.email")}
          type="email"
          autoComplete="email"
          fullWidth
          margin="dense"
          error={!!errors.email}
          helperText={translateValidation(errors.email?.message)}
        />
        <TextField
          {...register("phone")}
          label={t("signup.form.phone")}
          type="tel"
          autoComplete="tel"
          fullWidth
          margin="dense"
          error={!!errors.phone}
          helperText={translateValidation(errors.phone?.message)}
        />
        <TextField
          {...register("password")}
          label={t("signup.form.password")}
          type="password"
          autoComplete="new-password"
          fullWidth
          margin="dense"
          error={!!errors.password}
          helperText={translateValidation(errors.password?.message)}
        />
        <Controller
          name="planId"
          control={control}
          render={({ field }) => (
            <TextField
              select
              label={t("signup.form.plan")}
              fullWidth
              margin="dense"
              value={(field.value as number | "" | undefined) ?? ""}
              onChange={(e) => field.onChange(e.target.value === "" ? "" : Number(e.target.value))}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={!!errors.planId}
              helperText={errors.planId ? t("validation.required") : plans.isError ? t("signup.plansError") : undefined}
            >
              {(plans.data ?? []).map((plan) => (
                <MenuItem key={plan.id} value={plan.id}>
                  {t("signup.planOption", {
                    name: plan.name,
                    users: plan.users,
                    connections: plan.connections,
                    queues: plan.queues,
                    price: formatBRL(plan.value),
                  })}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <Button type="submit" fullWidth variant="contained" size="large" disabled={isSubmitting} sx={{ mt: 2, mb: 2 }}>
          {isSubmitting ? <CircularProgress size={24} color="inherit" aria-label={t("common.loading")} /> : t("signup.buttons.submit")}
        </Button>
        <Link component={RouterLink} to="/login" variant="body2">
          {t("signup.buttons.login")}
        </Link>
      </Box>
    </AuthLayout>
  );
}
