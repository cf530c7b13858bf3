import type { InvoiceDTO, PixChargeDTO, PixProviderKind } from "@balcao/shared";
import type { invoices, pixCharges } from "../../db/schema";

type InvoiceRow = typeof invoices.$inferSelect;
type ChargeRow = typeof pixCharges.$inferSelect;

export function presentInvoice(i: InvoiceRow): InvoiceDTO {
  return {
    id: i.id,
    detail: i.detail,
    value: Number(i.value),
    dueDate: i.dueDate,
    status: i.status === "paid" ? "paid" : "open",
    paidAt: i.paidAt ? i.paidAt.toISOString() : null,
    recurrence: i.recurrence,
    createdAt: i.createdAt.toISOString(),
  };
}

export function presentCharge(c: ChargeRow): PixChargeDTO {
  return {
    invoiceId: c.invoiceId,
    txid: c.txid,
    provider: c.provider as PixProviderKind,
    status: c.status,
    valor: { original: Number(c.amount).toFixed(2) },
    qrcode: { qrcode: c.brCode },
    calendario: {
      criacao: c.createdAt.toISOString(),
      expiracao: c.expiresAt ? Math.round((c.expiresAt.getTime() - c.createdAt.getTime()) / 1000) : null,
    },
  };
}
