import { RECURRENCE_MONTHS, RECURRENCES, type Recurrence } from "./constants";
import { parseIsoDate } from "./format";

/**
 * Billing arithmetic shared by the server (payment extends the due date, invoice generation) and the web app
 * (the super user's '+ Vencimento' button): one definition so both sides always agree.
 */

export function isRecurrence(value: unknown): value is Recurrence {
  return typeof value === "string" && (RECURRENCES as readonly string[]).includes(value);
}

/**
 * Adds the recurrence's span (MENSAL +1 month, BIMESTRAL +2, TRIMESTRAL +3, SEMESTRAL +6, ANUAL +12) to a
 * calendar date (yyyy-MM-dd). A day the target month lacks becomes its last day (31 Jan + 1 month = 28 Feb,
 * or 29 Feb in a leap year), the usual calendar-month rule: a due date never jumps into the month after.
 * An unknown recurrence counts as MENSAL (the column's default), so a bad row never blocks a payment.
 */
export function addRecurrence(isoDate: string, recurrence: Recurrence | string): string {
  const months = isRecurrence(recurrence) ? RECURRENCE_MONTHS[recurrence] : RECURRENCE_MONTHS.MENSAL;
  return addMonths(isoDate, months);
}

/** Calendar-month addition with end-of-month clamping, on yyyy-MM-dd dates (no time zone involved). */
export function addMonths(isoDate: string, months: number): string {
  const d = parseIsoDate(isoDate);
  if (Number.isNaN(d.getTime())) throw new RangeError(`not a yyyy-MM-dd date: ${isoDate}`);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const target = new Date(Date.UTC(year, month, Math.min(d.getUTCDate(), lastDay)));
  return target.toISOString().slice(0, 10);
}

/** What the invoices page shows (spec §4): paid → Pago; due before today and unpaid → Vencido; else Em Aberto. */
export type InvoiceDisplayStatus = "paid" | "overdue" | "open";

export function invoiceDisplayStatus(invoice: { status: string; dueDate: string }, today: string): InvoiceDisplayStatus {
  if (invoice.status === "paid") return "paid";
  return invoice.dueDate < today ? "overdue" : "open";
}

/** Spec §9: after the payment event the app returns to / after 4 s; the copy button says 'Copiado' for 1 s. */
export const PAYMENT_REDIRECT_MS = 4_000;
export const COPY_CONFIRMATION_MS = 1_000;

/**
 * An expired company's admin (not a super user) has a billing-only session: only the finance and
 * subscription pages work until an invoice is paid. `today` is yyyy-MM-dd; the server has the last word.
 */
export function isBillingOnly(
  user: { profile: string; super: boolean; company?: { dueDate: string | null; status?: boolean } | null } | null | undefined,
  today: string,
): boolean {
  if (!user || user.super || user.profile !== "admin") return false;
  const dueDate = user.company?.dueDate;
  return !!dueDate && dueDate < today;
}
