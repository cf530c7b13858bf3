import { format, isSameDay } from "date-fns";
import { ptBR } from "date-fns/locale";

/** Ticket row time (spec §2): HH:mm when it is today, otherwise dd/MM/yyyy. */
export function formatTicketTime(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return isSameDay(date, now) ? format(date, "HH:mm", { locale: ptBR }) : format(date, "dd/MM/yyyy", { locale: ptBR });
}
