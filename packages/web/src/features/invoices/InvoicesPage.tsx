import { ComingSoon } from "../../components/ComingSoon";

/** Invoices (Financeiro) /financeiro — filled in by its own issue. */
export default function InvoicesPage() {
  return <ComingSoon titleKey="pages.invoices" />;
}
