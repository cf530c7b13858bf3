import type { CampaignStatus } from "@balcao/shared";
import { wallClock } from "../schedules/time";

export const STATUS_COLORS: Record<CampaignStatus, "default" | "info" | "warning" | "error" | "success"> = {
  INATIVA: "default",
  PROGRAMADA: "info",
  EM_ANDAMENTO: "warning",
  CANCELADA: "error",
  FINALIZADA: "success",
};

const pad = (n: number) => String(n).padStart(2, "0");

/** "DD/MM/YYYY HH:mm" on the company's clock (spec §2 campaigns list); "" for no date. */
export function formatCampaignTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const c = wallClock(date, timeZone);
  return `${pad(c.day)}/${pad(c.month)}/${c.year} ${pad(c.hour)}:${pad(c.minute)}`;
}
