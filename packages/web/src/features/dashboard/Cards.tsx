import { daysUntil, formatDateBR, type DashboardCountersDTO } from "@balcao/shared";
import { Box, Card, CardContent, Skeleton, Tooltip, Typography } from "@mui/material";
import AccessTimeOutlined from "@mui/icons-material/AccessTimeOutlined";
import CheckCircleOutline from "@mui/icons-material/CheckCircleOutlineOutlined";
import EventOutlined from "@mui/icons-material/EventOutlined";
import HourglassEmptyOutlined from "@mui/icons-material/HourglassEmptyOutlined";
import PersonAddAltOutlined from "@mui/icons-material/PersonAddAltOutlined";
import SupportAgentOutlined from "@mui/icons-material/SupportAgentOutlined";
import TimerOutlined from "@mui/icons-material/TimerOutlined";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatMinutes } from "./format";

function StatCard({ label, value, icon, hint, testId }: { label: string; value: ReactNode; icon: ReactNode; hint?: string; testId?: string }) {
  const body = (
    <Card variant="outlined" sx={{ height: "100%" }}>
      <CardContent sx={{ display: "flex", alignItems: "center", gap: 2 }}>
        <Box sx={{ color: "primary.main", display: "flex" }} aria-hidden>
          {icon}
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" color="text.secondary" component="h2">
            {label}
          </Typography>
          <Typography variant="h5" component="p" data-testid={testId}>
            {value}
          </Typography>
        </Box>
      </CardContent>
    </Card>
  );
  return hint ? (
    <Tooltip title={hint} describeChild>
      {body}
    </Tooltip>
  ) : (
    body
  );
}

/** Spec §2 cards: in progress, waiting, finished, leads, average support and wait times (definitions in the hints). */
export function CounterCards({ counters, loading }: { counters: DashboardCountersDTO | undefined; loading: boolean }) {
  const { t, i18n } = useTranslation();
  const show = (v: ReactNode) => (loading && !counters ? <Skeleton width={60} /> : v);
  const cards: [keyof DashboardCountersDTO, ReactNode, ReactNode][] = [
    ["supportHappening", <SupportAgentOutlined fontSize="large" />, counters?.supportHappening],
    ["supportPending", <HourglassEmptyOutlined fontSize="large" />, counters?.supportPending],
    ["supportFinished", <CheckCircleOutline fontSize="large" />, counters?.supportFinished],
    ["leads", <PersonAddAltOutlined fontSize="large" />, counters?.leads],
    ["avgSupportTime", <AccessTimeOutlined fontSize="large" />, counters && formatMinutes(t, i18n.language, counters.avgSupportTime)],
    ["avgWaitTime", <TimerOutlined fontSize="large" />, counters && formatMinutes(t, i18n.language, counters.avgWaitTime)],
  ];
  return (
    <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "repeat(2, 1fr)", md: "repeat(3, 1fr)" } }}>
      {cards.map(([key, icon, value]) => (
        <StatCard
          key={key}
          label={t(`dashboard.cards.${key}`)}
          hint={t(`dashboard.cards.hints.${key}`)}
          icon={icon}
          value={show(value)}
          testId={`counter-${key}`}
        />
      ))}
    </Box>
  );
}

/** Spec §2 due-date card: the company's due date and the days left (or overdue), as of the company's today. */
export function DueDateCard({ dueDate, today }: { dueDate: string | null | undefined; today: string | undefined }) {
  const { t } = useTranslation();
  let detail = "";
  if (dueDate && today) {
    const days = daysUntil(dueDate, today);
    detail =
      days > 0
        ? t("dashboard.dueDate.daysLeft", { count: days })
        : days === 0
          ? t("dashboard.dueDate.today")
          : t("dashboard.dueDate.overdue", { count: -days });
  }
  const urgent = dueDate && today ? daysUntil(dueDate, today) < 5 : false;
  return (
    <StatCard
      label={t("dashboard.dueDate.title")}
      icon={<EventOutlined fontSize="large" />}
      testId="due-date"
      value={
        dueDate === undefined ? (
          <Skeleton width={100} />
        ) : (
          <>
            {dueDate ? formatDateBR(dueDate) : t("dashboard.dueDate.none")}
            {detail && (
              <Typography component="span" variant="body2" color={urgent ? "error" : "text.secondary"} sx={{ display: "block" }}>
                {detail}
              </Typography>
            )}
          </>
        )
      }
    />
  );
}
