import { formatDateBR } from "@balcao/shared";
import { Alert, Box, Button, Card, CardContent, Skeleton, Tab, Tabs, Typography } from "@mui/material";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../../components/PageHeader";
import { OnboardingChecklist } from "../onboarding/OnboardingChecklist";
import { isFilterSet, useDashboard, useDashboardLiveRefresh, type DashboardFilter } from "./api";
import { AttendantsTable } from "./AttendantsTable";
import { CounterCards, DueDateCard } from "./Cards";
import { DashboardFilterBar } from "./DashboardFilterBar";
import { firstOfMonth, localToday } from "./format";
import { ReportsPanel } from "./ReportsPanel";

// The chart library loads with the dashboard's chart only, never with the login or tickets pages.
const TodayChart = lazy(() => import("./TodayChart"));

/** 'Atendimentos hoje' and the due date do not depend on the filter: without one, they come with the last day. */
const TODAY_ONLY: DashboardFilter = { days: 1, dateFrom: "", dateTo: "" };

/** Dashboard (spec §2, admin only): due date, today's tickets per hour, the period's counters and attendants; reports. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<"indicators" | "reports">("indicators");
  const [filter, setFilter] = useState<DashboardFilter>(() => ({ days: null, dateFrom: firstOfMonth(localToday()), dateTo: "" }));
  const filterSet = isFilterSet(filter);
  const reversed = filter.days === null && filter.dateFrom !== "" && filter.dateTo !== "" && filter.dateFrom > filter.dateTo;
  const dashboard = useDashboard(filterSet && !reversed ? filter : TODAY_ONLY);
  useDashboardLiveRefresh();
  const data = dashboard.data;
  const period = data?.period;

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <PageHeader title={t("pages.dashboard")} />
      <OnboardingChecklist />
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: "1fr 3fr" } }}>
        <DueDateCard dueDate={data ? data.company.dueDate : undefined} today={data?.today.date} />
        <Card variant="outlined">
          <CardContent>
            <Typography variant="h6" component="h2" color="primary" data-testid="today-title">
              {data ? t("dashboard.today.title", { count: data.today.total }) : <Skeleton width={200} />}
            </Typography>
            <Box role="img" aria-label={t("dashboard.today.chartLabel")} sx={{ minHeight: 220 }}>
              {data && (
                <Suspense fallback={<Skeleton variant="rectangular" height={220} aria-label={t("dashboard.today.loadingChart")} />}>
                  <TodayChart hours={data.today.hours} />
                </Suspense>
              )}
            </Box>
          </CardContent>
        </Card>
      </Box>

      <DashboardFilterBar value={filter} onChange={setFilter} />
      {!filterSet && <Alert severity="info">{t("dashboard.filter.required")}</Alert>}
      {filterSet && !reversed && period && (period.from !== null || period.to !== null) && (
        <Typography variant="body2" color="text.secondary" data-testid="period">
          {t("dashboard.filter.showing", {
            from: period.from ? formatDateBR(period.from) : t("dashboard.filter.openStart"),
            to: period.to ? formatDateBR(period.to) : t("dashboard.filter.openEnd"),
          })}
        </Typography>
      )}

      {filterSet && !reversed && (
        <>
          <Tabs value={tab} onChange={(_, v: "indicators" | "reports") => setTab(v)} aria-label={t("pages.dashboard")}>
            <Tab value="indicators" label={t("dashboard.tabs.indicators")} />
            <Tab value="reports" label={t("dashboard.tabs.reports")} />
          </Tabs>
          {dashboard.isError && (
            <Alert severity="error" action={<Button onClick={() => void dashboard.refetch()}>{t("dashboard.retry")}</Button>}>
              {t("dashboard.error")}
            </Alert>
          )}
          {tab === "indicators" ? (
            <>
              <CounterCards counters={data?.counters} loading={dashboard.isFetching} />
              {data && <AttendantsTable attendants={data.attendants} />}
            </>
          ) : (
            <ReportsPanel filter={filter} />
          )}
        </>
      )}
    </Box>
  );
}
