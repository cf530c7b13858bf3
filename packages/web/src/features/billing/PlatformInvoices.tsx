import { type PlatformInvoiceDTO } from "@balcao/shared";
import { Button, Paper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { toastError } from "../../components/toastError";
import { useConfirmPayment, usePlatformInvoices } from "./api";
import { formatDate, formatMoney } from "../../app/format";

/** Super users: open invoices of every company, to confirm a static Pix received on the platform's key. */
export function PlatformInvoices() {
  const { t } = useTranslation();
  const query = usePlatformInvoices("", true);
  const confirm = useConfirmPayment();
  const [selected, setSelected] = useState<PlatformInvoiceDTO | null>(null);
  const rows = query.data?.list ?? [];
  if (rows.length === 0) return null;

  const run = async () => {
    if (!selected) return;
    try {
      await confirm.mutateAsync(selected.id);
      enqueueSnackbar(t("billing.platform.confirmed"), { variant: "success" });
    } catch (err) {
      toastError(err);
    }
    setSelected(null);
  };

  return (
    <Paper variant="outlined" sx={{ p: 2, overflow: "auto", maxHeight: "40%" }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {t("billing.platform.title")}
      </Typography>
      <Table size="small" aria-label={t("billing.platform.title")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("billing.invoices.table.id")}</TableCell>
            <TableCell>{t("billing.platform.company")}</TableCell>
            <TableCell>{t("billing.invoices.table.value")}</TableCell>
            <TableCell>{t("billing.invoices.table.dueDate")}</TableCell>
            <TableCell align="center">{t("billing.invoices.table.action")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((invoice) => (
            <TableRow key={invoice.id}>
              <TableCell>{invoice.id}</TableCell>
              <TableCell>{invoice.companyName}</TableCell>
              <TableCell>{formatMoney(invoice.value)}</TableCell>
              <TableCell>{formatDate(invoice.dueDate)}</TableCell>
              <TableCell align="center">
                <Button size="small" onClick={() => setSelected(invoice)}>
                  {t("billing.platform.confirm")}
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <ConfirmationDialog
        open={!!selected}
        title={t("billing.platform.confirmTitle", { id: selected?.id ?? "" })}
        confirmLabel={t("billing.platform.confirm")}
        loading={confirm.isPending}
        onClose={() => setSelected(null)}
        onConfirm={() => void run()}
      >
        {t("billing.platform.confirmMessage")}
      </ConfirmationDialog>
    </Paper>
  );
}
