import { planCreateBody, type PlanWithUsageDTO } from "@balcao/shared";
import { InputAdornment, TextField } from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { DialogForm, FormDialog } from "../../components/form/FormDialog";
import { useZodForm } from "../../components/form/useZodForm";
import { translateValidation } from "../../components/toastError";
import { withSpecFailure } from "../companies/specFailure";
import { useSavePlan } from "./api";
import { maskPrice, priceFromNumber, priceToDot } from "./priceMask";

interface PlanModalProps {
  open: boolean;
  onClose: () => void;
  plan: PlanWithUsageDTO | null;
}

/** Add/edit a plan (super user): name, users, connections, queues and the price with the 'R$' mask of spec §5. */
export function PlanModal({ open, onClose, plan }: PlanModalProps) {
  const { t } = useTranslation();
  return (
    <FormDialog open={open} onClose={onClose} title={plan ? t("plans.modal.edit") : t("plans.modal.add")}>
      <PlanForm key={plan?.id ?? "new"} plan={plan} onClose={onClose} />
    </FormDialog>
  );
}

function PlanForm({ plan, onClose }: { plan: PlanWithUsageDTO | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSavePlan(plan?.id);
  const form = useZodForm(planCreateBody, {
    defaultValues: {
      name: plan?.name ?? "",
      users: plan?.users ?? 1,
      connections: plan?.connections ?? 1,
      queues: plan?.queues ?? 1,
      value: plan ? priceFromNumber(plan.value) : "",
    },
    // The field holds the masked text; the schema (and the server) get it with a dot (spec §5).
    prepare: (values) => ({ ...values, value: priceToDot(String(values.value ?? "")) }),
    // The price is the form's only union field: its branch errors ("Invalid input: …") mean a bad price too.
    translate: (message) =>
      message === "Invalid price" || message?.startsWith("Invalid input")
        ? t("plans.validation.price")
        : message === "Invalid number"
          ? t("plans.validation.limit")
          : translateValidation(message),
  });

  const onSubmit = form.submit(
    async (values) => {
      await withSpecFailure(() => save.mutateAsync(values), t("plans.toasts.saveFailed"));
      enqueueSnackbar(t("plans.toasts.saved"), { variant: "success" });
      onClose();
    },
    { codeFields: { ERR_DUPLICATED_PLAN: "name" } },
  );

  const limitField = (name: "users" | "connections" | "queues") => (
    <TextField {...form.field(name)} label={t(`plans.form.${name}`)} type="number" slotProps={{ htmlInput: { min: 1, step: 1 } }} fullWidth />
  );

  return (
    <DialogForm onSubmit={onSubmit} onCancel={onClose} busy={form.busy} submitLabel={t("plans.modal.save")}>
      <TextField {...form.field("name")} label={t("plans.form.name")} autoFocus fullWidth />
      {limitField("users")}
      {limitField("connections")}
      {limitField("queues")}
      <Controller
        name="value"
        control={form.control}
        render={({ field }) => (
          <TextField
            {...form.fieldError("value", t("plans.form.valueHint"))}
            name={field.name}
            inputRef={field.ref}
            value={String(field.value ?? "")}
            onChange={(e) => field.onChange(maskPrice(e.target.value))}
            onBlur={field.onBlur}
            label={t("plans.form.value")}
            placeholder="R$ 0,00"
            fullWidth
            slotProps={{
              htmlInput: { inputMode: "numeric", "aria-describedby": undefined },
              input: { endAdornment: <InputAdornment position="end">{t("plans.form.perMonth")}</InputAdornment> },
            }}
          />
        )}
      />
    </DialogForm>
  );
}
