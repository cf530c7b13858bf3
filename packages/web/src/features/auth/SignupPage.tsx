import { signupBody, type PlanDTO, type SignupResponse } from "@balcao/shared";
import { Box, MenuItem, TextField } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { enqueueSnackbar } from "../../components/toasts";
import { useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { api, ApiError } from "../../api/client";
import { queryKeys } from "../../api/queryKeys";
import { useZodForm } from "../../components/form/useZodForm";
import { errorText } from "../../components/toastError";
import { AuthActions, AuthLayout } from "./AuthLayout";
import { formatMoney } from "../../app/format";

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

  const form = useZodForm(signupBody, { defaultValues: { name: "", email: "", phone: "", password: "", planId: "" } });

  const onSubmit = form.submit(
    async (values) => {
      await api.post<SignupResponse>("/companies/cadastro", values, { anonymous: true });
      enqueueSnackbar(t("signup.toasts.success"), { variant: "success" });
      navigate("/login");
    },
    {
      codeFields: { ERR_DUPLICATED_EMAIL: "email", ERR_DUPLICATED_COMPANY: "name" },
      toast: (err) => {
        const detail = err instanceof ApiError && err.code ? ` ${errorText(err)}` : "";
        enqueueSnackbar(`${t("signup.toasts.fail")}${detail}`, { variant: "error" });
      },
    },
  );

  return (
    <AuthLayout title={t("signup.title")}>
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ width: "100%", mt: 1 }}>
        <TextField {...form.field("name")} label={t("signup.form.name")} autoComplete="organization" autoFocus fullWidth margin="dense" />
        <TextField {...form.field("email")} label={t("signup.form.email")} type="email" autoComplete="email" fullWidth margin="dense" />
        <TextField {...form.field("phone")} label={t("signup.form.phone")} type="tel" autoComplete="tel" fullWidth margin="dense" />
        <TextField
          {...form.field("password")}
          label={t("signup.form.password")}
          type="password"
          autoComplete="new-password"
          fullWidth
          margin="dense"
        />
        <Controller
          name="planId"
          control={form.control}
          render={({ field }) => (
            <TextField
              select
              label={t("signup.form.plan")}
              fullWidth
              margin="dense"
              value={typeof field.value === "number" ? field.value : ""}
              onChange={(e) => field.onChange(e.target.value === "" ? "" : Number(e.target.value))}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={form.fieldError("planId").error}
              helperText={form.fieldError("planId").error ? t("validation.required") : plans.isError ? t("signup.plansError") : undefined}
            >
              {(plans.data ?? []).map((plan) => (
                <MenuItem key={plan.id} value={plan.id}>
                  {t("signup.planOption", {
                    name: plan.name,
                    users: plan.users,
                    connections: plan.connections,
                    queues: plan.queues,
                    price: formatMoney(plan.value),
                  })}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <AuthActions busy={form.busy} submitLabel={t("signup.buttons.submit")} linkTo="/login" linkLabel={t("signup.buttons.login")} />
      </Box>
    </AuthLayout>
  );
}
