import { checkoutAddressSchema, type CheckoutAddress, type InvoiceDTO, type PixChargeDTO } from "@balcao/shared";
import { zodResolver } from "@hookform/resolvers/zod";
import {
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Grid,
  Link,
  Step,
  StepLabel,
  Stepper,
  TextField,
  Typography,
  useMediaQuery,
} from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { toastError, translateValidation } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { PixPayment } from "./PixPayment";
import { useCheckout, usePlans } from "./api";
import { formatDate, formatMoney } from "../../app/format";

/** Spec §4: steps 0 Dados, 1 Personalizar, 2 Revisar; the dialog opens on step 1. */
const STEPS = ["data", "customize", "review"] as const;
const FIRST_STEP = 1;

const EMPTY_ADDRESS: CheckoutAddress = { firstName: "", lastName: "", address2: "", city: "", state: "", zipcode: "", country: "Brasil" };
const FIELDS = ["firstName", "lastName", "address2", "city", "state", "zipcode", "country"] as const;

interface CheckoutDialogProps {
  open: boolean;
  invoice: InvoiceDTO | null;
  onClose: () => void;
}

/**
 * Checkout 'Falta pouco!' (spec §2, §4): Personalizar shows the company's plan (no back/next there; its own
 * button moves on), Revisar sums up and PAGAR creates the Pix charge, Dados is the optional billing address
 * with the spec's validation texts. After PAGAR the dialog shows the Pix to pay.
 */
export function CheckoutDialog({ open, invoice, onClose }: CheckoutDialogProps) {
  const { t } = useTranslation();
  const { user } = useSession();
  const fullScreen = useMediaQuery("(max-width:599px)");
  const [step, setStep] = useState(FIRST_STEP);
  const [address, setAddress] = useState<CheckoutAddress | null>(null);
  const [charge, setCharge] = useState<PixChargeDTO | null>(null);
  const checkout = useCheckout();
  const plans = usePlans();
  const plan = plans.data?.find((p) => p.id === user?.company.planId);
  const form = useForm<CheckoutAddress>({ resolver: zodResolver(checkoutAddressSchema), defaultValues: EMPTY_ADDRESS });

  useEffect(() => {
    if (!open) return;
    setStep(FIRST_STEP);
    setCharge(null);
  }, [open, invoice?.id]);

  if (!invoice) return null;
  const total = formatMoney(invoice.value);

  const pay = async () => {
    try {
      const result = await checkout.mutateAsync({ invoiceId: invoice.id, price: invoice.value, ...(address ?? {}) });
      setCharge(result);
      enqueueSnackbar(t("billing.checkout.success"), { variant: "success" });
    } catch (err) {
      toastError(err);
    }
  };

  const saveAddress = form.handleSubmit((values) => {
    setAddress(values);
    setStep(FIRST_STEP);
  });

  const content = () => {
    if (charge) return <PixPayment charge={charge} />;
    if (step === 0)
      return (
        <Box component="form" id="checkout-address" noValidate onSubmit={saveAddress}>
          <Grid container spacing={2}>
            {FIELDS.map((name) => (
              <Grid key={name} size={{ xs: 12, sm: name === "address2" || name === "firstName" ? 12 : 6 }}>
                <TextField
                  {...form.register(name)}
                  label={t(`billing.checkout.form.${name}`)}
                  fullWidth
                  size="small"
                  error={!!form.formState.errors[name]}
                  helperText={translateValidation(form.formState.errors[name]?.message)}
                />
              </Grid>
            ))}
          </Grid>
        </Box>
      );
    if (step === 1)
      return (
        <Card variant="outlined" data-testid="checkout-plan">
          <CardContent>
            <Typography variant="overline">{t("billing.checkout.plan.title")}</Typography>
            <Typography variant="h6">{plan?.name ?? invoice.detail}</Typography>
            {plan && (
              <>
                <Typography variant="body2">{t("billing.checkout.plan.users", { count: plan.users })}</Typography>
                <Typography variant="body2">{t("billing.checkout.plan.connections", { count: plan.connections })}</Typography>
                <Typography variant="body2">{t("billing.checkout.plan.queues", { count: plan.queues })}</Typography>
                <Typography variant="body2">{t("billing.checkout.plan.monthly", { value: formatMoney(plan.value) })}</Typography>
              </>
            )}
            <Typography variant="body2">
              {t("billing.checkout.plan.recurrence", {
                recurrence: t(`billing.recurrence.${invoice.recurrence}`, { defaultValue: invoice.recurrence }),
              })}
            </Typography>
            <Typography variant="h5" sx={{ mt: 1 }}>
              {total}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {t("billing.checkout.plan.change")}
            </Typography>
            <Box sx={{ mt: 2 }}>
              <Button variant="contained" onClick={() => setStep(2)}>
                {t("billing.checkout.buttons.choose")}
              </Button>
            </Box>
          </CardContent>
        </Card>
      );
    return (
      <Box data-testid="checkout-review">
        <Typography>
          {t("billing.checkout.review.invoice")}: #{invoice.id} — {invoice.detail}
        </Typography>
        <Typography>
          {t("billing.checkout.review.dueDate")}: {formatDate(invoice.dueDate)}
        </Typography>
        <Typography variant="h6" sx={{ mt: 1 }}>
          {t("billing.checkout.review.total")}: {total}
        </Typography>
        <Typography variant="subtitle2" sx={{ mt: 2 }}>
          {t("billing.checkout.review.billingData")}
        </Typography>
        {address ? (
          <Typography variant="body2">
            {`${address.firstName} ${address.lastName ?? ""}`.trim()} — {address.address2}, {address.city}
            {address.state ? `/${address.state}` : ""} — {address.zipcode} — {address.country}
          </Typography>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t("billing.checkout.review.noBillingData")}
          </Typography>
        )}
        <Link component="button" type="button" variant="body2" onClick={() => setStep(0)}>
          {t("billing.checkout.buttons.editData")}
        </Link>
      </Box>
    );
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby="checkout-title">
      <DialogTitle id="checkout-title">{t("billing.checkout.title")}</DialogTitle>
      <DialogContent>
        {!charge && (
          <Stepper activeStep={step} sx={{ mb: 3 }} alternativeLabel>
            {STEPS.map((key) => (
              <Step key={key}>
                <StepLabel>{t(`billing.checkout.steps.${key}`)}</StepLabel>
              </Step>
            ))}
          </Stepper>
        )}
        {content()}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          {t("billing.checkout.buttons.close")}
        </Button>
        {/* Spec §4: no back/next on Personalizar. */}
        {!charge && step !== FIRST_STEP && <Button onClick={() => setStep(FIRST_STEP)}>{t("billing.checkout.buttons.back")}</Button>}
        {!charge && step === 0 && (
          <Button type="submit" form="checkout-address" variant="contained">
            {t("billing.checkout.buttons.next")}
          </Button>
        )}
        {!charge && step === 2 && (
          <Button variant="contained" onClick={() => void pay()} disabled={checkout.isPending}>
            {checkout.isPending ? <CircularProgress size={22} color="inherit" aria-label={t("common.loading")} /> : t("billing.checkout.buttons.pay")}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
