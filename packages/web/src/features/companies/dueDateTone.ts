import { daysToDue, dueDateTone, todayIn, type DueDateTone } from "@balcao/shared";
import { alpha, type Theme } from "@mui/material";
import { orange, red, yellow } from "@mui/material/colors";

const TONE_COLORS: Record<DueDateTone, string> = { yellow: yellow[300], orange: orange[300], red: red[300] };

/** The row tone of a company by days to its due date (spec §2/§9), counted in the company's time zone. */
export function companyTone(company: { dueDate: string | null; timeZone?: string }, now: Date = new Date()): DueDateTone | null {
  return dueDateTone(daysToDue(company.dueDate, todayIn(company.timeZone || "America/Sao_Paulo", now)));
}

/** Background of a toned row: the tone itself in light mode, a translucent one in dark mode. */
export function toneBackground(theme: Theme, tone: DueDateTone): string {
  const color = TONE_COLORS[tone];
  return theme.palette.mode === "dark" ? alpha(color, 0.3) : alpha(color, 0.6);
}
