import { invoiceDisplayStatus, isSuper, type InvoiceDTO } from "@balcao/shared";
import { Alert, Box, Button, Chip } from "@mui/material";
import { format } from "date-fns";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ListPage } from "../../components/list/ListPage";
import { useListSearch, usePagedList } from "../../components/list/useListData";
import { useSession } from "../auth/SessionProvider";
import { CheckoutDialog } from "./CheckoutDialog";
import { PlatformInvoices } from "./PlatformInvoices";
import { useInvoicesList } from "./api";
import { useBillingOnly } from "./billingOnly";
import { formatDate, formatMoney } from "../../app/format";

const STATUS_COLOR = { paid: "success", overdue: "error", open: "warning" } as const;

/** Faturas (/financeiro, spec §2): Id, Detalhes, Valor, Data Venc., Status and PAGAR / PAGO; overdue rows tinted. */
export default function InvoicesPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const billingOnly = useBillingOnly();
  const search = useListSearch();
  const list = usePagedList(useInvoicesList(search.searchParam), (page) => page.list);
  const [paying, setPaying] = useState<InvoiceDTO | null>(null);
  const today = format(new Date(), "yyyy-MM-dd");

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%", gap: 2 }}>
      {billingOnly && user?.company.dueDate && (
        <Alert severity="error" data-testid="billing-expired">
          {t("billing.expired.message", { date: formatDate(user.company.dueDate) })}
        </Alert>
      )}
      <Box sx={{ flex: 1, minHeight: 0 }}>
        <ListPage
          title={t("billing.invoices.title")}
          search={search}
          list={list}
          testId="invoices-scroll"
          rowProps={(invoice) => {
            const status = invoiceDisplayStatus(invoice, today);
            return {
              "data-testid": "invoice-row",
              "data-status": status,
              // Spec §2: overdue unpaid rows are tinted red.
              sx: status === "overdue" ? { bgcolor: (theme) => (theme.palette.mode === "dark" ? "rgba(244,67,54,0.16)" : "#fdecea") } : undefined,
            };
          }}
          columns={[
            { header: t("billing.invoices.table.id"), cell: (invoice) => invoice.id },
            { header: t("billing.invoices.table.detail"), cell: (invoice) => invoice.detail },
            { header: t("billing.invoices.table.value"), cell: (invoice) => formatMoney(invoice.value) },
            { header: t("billing.invoices.table.dueDate"), cell: (invoice) => formatDate(invoice.dueDate) },
            {
              header: t("billing.invoices.table.status"),
              cell: (invoice) => {
                const status = invoiceDisplayStatus(invoice, today);
                return <Chip size="small" variant="outlined" color={STATUS_COLOR[status]} label={t(`billing.invoices.status.${status}`)} />;
              },
            },
            {
              header: t("billing.invoices.table.action"),
              align: "center",
              cell: (invoice) =>
                invoice.status === "paid" ? (
                  <Button size="small" color="success" disabled>
                    {t("billing.invoices.paid")}
                  </Button>
                ) : (
                  <Button
                    size="small"
                    variant="contained"
                    aria-label={t("billing.invoices.payInvoice", { id: invoice.id })}
                    onClick={() => setPaying(invoice)}
                  >
                    {t("billing.invoices.pay")}
                  </Button>
                ),
            },
          ]}
          empty={{ title: t("billing.invoices.empty"), description: t("billing.invoices.emptyDescription") }}
        >
          <CheckoutDialog open={!!paying} invoice={paying} onClose={() => setPaying(null)} />
        </ListPage>
      </Box>
      {isSuper(user) && <PlatformInvoices />}
    </Box>
  );
}
