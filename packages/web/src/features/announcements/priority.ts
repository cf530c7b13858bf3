import type { AnnouncementPriority } from "@balcao/shared";
import type { Theme } from "@mui/material";

/** Spec §3/§9: 1 high (red), 2 medium (orange), 3 low (grey). */
export function priorityColor(theme: Theme, priority: AnnouncementPriority): string {
  if (priority === 1) return theme.palette.error.main;
  if (priority === 2) return theme.palette.warning.main;
  return theme.palette.grey[500];
}

export const PRIORITY_KEYS: Record<AnnouncementPriority, "high" | "medium" | "low"> = { 1: "high", 2: "medium", 3: "low" };
