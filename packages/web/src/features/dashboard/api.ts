import type { DashboardResponse, ReportsResponse, ReportTable } from "@balcao/shared";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { api, ApiError, buildUrl, refreshAccessToken } from "../../api/client";
import { sessionStore } from "../../api/session";
import { useSocketEvent } from "../../api/SocketProvider";
import i18n from "../../app/i18n";

/** The filter as the page holds it: a period in days, or a date range (yyyy-MM-dd, either end open). */
export interface DashboardFilter {
  days: number | null;
  dateFrom: string;
  dateTo: string;
}

/** Spec §5: at least one of days, start date, end date. */
export const isFilterSet = (f: DashboardFilter) => f.days !== null || f.dateFrom !== "" || f.dateTo !== "";

/** The query string of GET /dashboard (shared `dashboardQuery`). */
export interface PeriodQuery {
  days?: number;
  date_from?: string;
  date_to?: string;
}

export function filterQuery(f: DashboardFilter): PeriodQuery {
  if (f.days !== null) return { days: f.days };
  return { ...(f.dateFrom && { date_from: f.dateFrom }), ...(f.dateTo && { date_to: f.dateTo }) };
}

export const dashboardKeys = {
  all: ["dashboard"] as const,
  indicators: (q: PeriodQuery) => ["dashboard", "indicators", q] as const,
  reports: (q: PeriodQuery) => ["dashboard", "reports", q] as const,
};

/** Presence and 'today' change without ticket events: refresh now and then while the page is open. */
const PERIODIC_REFRESH_MS = 60_000;
/** Ticket events come in bursts (a customer writing, an accept): refetch once they settle. */
export const LIVE_REFRESH_DEBOUNCE_MS = 1_000;

export function useDashboard(filter: DashboardFilter) {
  const q = filterQuery(filter);
  return useQuery({
    queryKey: dashboardKeys.indicators(q),
    queryFn: ({ signal }) => api.get<DashboardResponse>("/dashboard", { ...q }, { signal }),
    enabled: isFilterSet(filter),
    placeholderData: keepPreviousData,
    refetchInterval: PERIODIC_REFRESH_MS,
  });
}

export function useReports(filter: DashboardFilter, enabled: boolean) {
  const q = filterQuery(filter);
  return useQuery({
    queryKey: dashboardKeys.reports(q),
    queryFn: ({ signal }) => api.get<ReportsResponse>("/dashboard/reports", { ...q }, { signal }),
    enabled: enabled && isFilterSet(filter),
    placeholderData: keepPreviousData,
  });
}

/** Live refresh: any `ticket` event (admins receive every ticket's) refetches the open dashboard, debounced. */
export function useDashboardLiveRefresh(): void {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useSocketEvent("ticket", () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
    }, LIVE_REFRESH_DEBOUNCE_MS);
  });
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
}

/** A file from the API with the bearer token (one refresh on an expired token), as a Blob. */
export async function fetchApiFile(
  path: string,
  query: Record<string, string | number | undefined>,
): Promise<{ blob: Blob; fileName: string | null }> {
  const url = buildUrl(path, query);
  const get = () => fetch(url, { headers: { Authorization: `Bearer ${sessionStore.getToken() ?? ""}` }, credentials: "include" });
  let res = await get();
  if (res.status === 403) {
    const body = (await res
      .clone()
      .json()
      .catch(() => ({}))) as { error?: string };
    if (body.error === "ERR_TOKEN_EXPIRED") {
      await refreshAccessToken();
      res = await get();
    }
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => ({ error: res.statusText }))) as { error?: string };
    throw new ApiError(res.status, { error: body.error || "ERR_INTERNAL" });
  }
  const disposition = res.headers.get("Content-Disposition") ?? "";
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? null;
  return { blob: await res.blob(), fileName };
}

function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/** Downloads a report: one table as CSV, or both tables as an XLSX workbook, headings in `lang`. */
export async function downloadReport(filter: DashboardFilter, format: "csv" | "xlsx", lang: string, table?: ReportTable): Promise<void> {
  const { blob, fileName } = await fetchApiFile("/dashboard/reports/export", { ...filterQuery(filter), format, table, lang });
  saveBlob(blob, fileName ?? `relatorio.${format}`);
}

/**
 * Opens a ticket's printable transcript (GET /tickets/:id/transcript) in a new tab. The tab is opened during
 * the click (popup blockers allow that) and pointed at the HTML once it arrives; when no tab can be opened,
 * the page is downloaded instead.
 */
export async function openTranscript(ticketId: number, lang: string = i18n.language.slice(0, 2)): Promise<void> {
  const tab = window.open("", "_blank");
  try {
    const { blob } = await fetchApiFile(`/tickets/${ticketId}/transcript`, { lang });
    const html = new Blob([blob], { type: "text/html;charset=utf-8" });
    if (tab) tab.location.href = URL.createObjectURL(html);
    else saveBlob(html, `atendimento-${ticketId}.html`);
  } catch (err) {
    tab?.close();
    throw err;
  }
}
