import { companyCreateBody, dueDateOrNull, RECURRENCES, type CompanyDTO } from "@balcao/shared";
import { MenuItem, TextField } from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { useTranslation } from "react-i18next";
import { z, type ZodType } from "zod";
import { DialogForm, FormDialog } from "../../components/form/FormDialog";
import { useZodForm } from "../../components/form/useZodForm";
import { translateValidation } from "../../components/toastError";
import { usePlansAll } from "../plans/api";
import { useCreateCompany, useUpdateCompany } from "./api";
import { withSpecFailure } from "./specFailure";

/** Editing leaves the admin's password alone: the field exists only when adding. */
const companyEditForm = companyCreateBody.extend({ password: z.string().optional() });
type CompanyFormInput = z.input<typeof companyEditForm>;
type CompanyFormOutput = z.output<typeof companyEditForm>;

interface CompanyModalProps {
  open: boolean;
  onClose: () => void;
  company: CompanyDTO | null;
}

/** Add/edit a company (super user): its data, plan, status, campaigns, due date and recurrence. */
export function CompanyModal({ open, onClose, company }: CompanyModalProps) {
  const { t } = useTranslation();
  return (
    <FormDialog open={open} onClose={onClose} title={company ? t("companies.modal.edit") : t("companies.modal.add")}>
      <CompanyForm key={company?.id ?? "new"} company={company} onClose={onClose} />
    </FormDialog>
  );
}

function CompanyForm({ company, onClose }: { company: CompanyDTO | null; onClose: () => void }) {
  const { t } = useTranslation();
  const plans = usePlansAll();
  const create = useCreateCompany();
  const update = useUpdateCompany();
  const schema: ZodType<CompanyFormOutput, CompanyFormInput> = company ? companyEditForm : companyCreateBody;
  const form = useZodForm(schema, {
    defaultValues: {
      name: company?.name ?? "",
      email: company?.email ?? "",
      phone: company?.phone ?? "",
      password: "",
      planId: company?.planId ?? "",
      status: company ? (company.status ? "true" : "false") : "true",
      campaignsEnabled: company ? (company.campaignsEnabled ? "true" : "false") : "true",
      dueDate: company?.dueDate ?? "",
      recurrence: company?.recurrence ?? "MENSAL",
    },
    // Spec §5: an empty or invalid due date is sent as null.
    prepare: (values) => ({ ...values, dueDate: dueDateOrNull(String(values.dueDate ?? "")) }),
    translate: (message) =>
      message === "Invalid id"
        ? t("companies.validation.plan")
        : message === "Invalid recurrence"
          ? t("companies.validation.recurrence")
          : translateValidation(message),
  });

  const onSubmit = form.submit(
    async ({ password, ...values }) => {
      await withSpecFailure(
        () => (company ? update.mutateAsync({ id: company.id, body: values }) : create.mutateAsync({ ...values, password: password ?? "" })),
        t("companies.toasts.saveFailed"),
      );
      enqueueSnackbar(company ? t("companies.toasts.updated") : t("companies.toasts.created"), { variant: "success" });
      onClose();
    },
    { codeFields: { ERR_DUPLICATED_COMPANY: "name", ERR_DUPLICATED_EMAIL: "email", ERR_NO_PLAN_FOUND: "planId" } },
  );

  const select = (name: "status" | "campaignsEnabled", options: [string, string][]) => (
    <TextField {...form.field(name)} select label={t(`companies.form.${name}`)} defaultValue={form.getValues(name)} fullWidth>
      {options.map(([value, label]) => (
        <MenuItem key={value} value={value}>
          {label}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <DialogForm onSubmit={onSubmit} onCancel={onClose} busy={form.busy} submitLabel={t("companies.modal.save")}>
      <TextField {...form.field("name")} label={t("companies.form.name")} autoFocus fullWidth />
      <TextField
        {...form.field("email", company ? undefined : t("companies.form.emailHint"))}
        label={t("companies.form.email")}
        type="email"
        fullWidth
      />
      <TextField {...form.field("phone")} label={t("companies.form.phone")} fullWidth />
      {!company && (
        <TextField
          {...form.field("password", t("companies.form.passwordHint"))}
          label={t("companies.form.password")}
          type="password"
          autoComplete="new-password"
          fullWidth
        />
      )}
      <TextField {...form.field("planId")} select label={t("companies.form.plan")} defaultValue={form.getValues("planId")} fullWidth>
        {(plans.data ?? []).map((plan) => (
          <MenuItem key={plan.id} value={plan.id}>
            {plan.name}
          </MenuItem>
        ))}
      </TextField>
      {select("status", [
        ["true", t("companies.status.active")],
        ["false", t("companies.status.inactive")],
      ])}
      {select("campaignsEnabled", [
        ["true", t("companies.campaigns.enabled")],
        ["false", t("companies.campaigns.disabled")],
      ])}
      <TextField
        {...form.field("dueDate", t("companies.form.dueDateHint"))}
        label={t("companies.form.dueDate")}
        type="date"
        fullWidth
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField {...form.field("recurrence")} select label={t("companies.form.recurrence")} defaultValue={form.getValues("recurrence")} fullWidth>
        {RECURRENCES.map((recurrence) => (
          <MenuItem key={recurrence} value={recurrence}>
            {t(`companies.recurrence.${recurrence}`)}
          </MenuItem>
        ))}
      </TextField>
    </DialogForm>
  );
}
