import { daysUntil, type InvoiceDTO } from "@balcao/shared";
import { Box, Button, Paper, Stack, TextField, Typography } from "@mui/material";
import { format } from "date-fns";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../../components/PageHeader";
import { useSession } from "../auth/SessionProvider";
import { CheckoutDialog } from "./CheckoutDialog";
import { useInvoicesList } from "./api";
import { formatDate } from "../../app/format";

/** Assinatura (/subscription, spec §2): read-only trial message, billing email, 'Assine Agora!' opening checkout. */
export default function SubscriptionPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const invoices = useInvoicesList("");
  const [open, setOpen] = useState(false);
  const today = format(new Date(), "yyyy-MM-dd");
  // The invoice to pay: the oldest open one (an overdue period before the next).
  const invoice = useMemo<InvoiceDTO | null>(() => {
    const all = (invoices.data?.pages ?? []).flatMap((p) => p.list).filter((i) => i.status === "open");
    return all.sort((a, b) => a.dueDate.localeCompare(b.dueDate))[0] ?? null;
  }, [invoices.data]);
  const company = user?.company;
  const trial = company?.trialExpiration ?? null;
  const daysLeft = trial ? daysUntil(trial, today) : null;

  let status: string;
  if (trial && daysLeft !== null && daysLeft >= 0) status = t("billing.subscription.trial", { count: daysLeft, date: formatDate(trial) });
  else if (trial) status = t("billing.subscription.trialEnded", { date: formatDate(trial) });
  else status = company?.dueDate ? t("billing.subscription.active", { date: formatDate(company.dueDate) }) : "";

  return (
    <Box>
      <PageHeader title={t("billing.subscription.title")} />
      <Paper variant="outlined" sx={{ p: 3, maxWidth: 560 }}>
        <Stack spacing={2}>
          <Typography data-testid="subscription-status">{status}</Typography>
          <TextField label={t("billing.subscription.email")} value={company?.email ?? ""} slotProps={{ htmlInput: { readOnly: true } }} fullWidth />
          <Box>
            <Button variant="contained" size="large" disabled={!invoice} onClick={() => setOpen(true)}>
              {t("billing.subscription.subscribe")}
            </Button>
            {!invoice && !invoices.isPending && (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {t("billing.subscription.noInvoice")}
              </Typography>
            )}
          </Box>
        </Stack>
      </Paper>
      <CheckoutDialog open={open} invoice={invoice} onClose={() => setOpen(false)} />
    </Box>
  );
}
