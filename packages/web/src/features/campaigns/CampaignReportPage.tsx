import { CAMPAIGN_REPORT_REFRESH_MS, type CampaignDetailDTO } from "@balcao/shared";
import { Alert, Box, Button, Card, CardContent, Chip, CircularProgress, LinearProgress, Typography } from "@mui/material";
import ArrowBack from "@mui/icons-material/ArrowBack";
import CheckCircleOutline from "@mui/icons-material/CheckCircleOutlined";
import DoneAll from "@mui/icons-material/DoneAll";
import EventOutlined from "@mui/icons-material/EventOutlined";
import EventAvailableOutlined from "@mui/icons-material/EventAvailableOutlined";
import FileDownloadOutlined from "@mui/icons-material/FileDownloadOutlined";
import GroupOutlined from "@mui/icons-material/GroupOutlined";
import HelpOutline from "@mui/icons-material/HelpOutlineOutlined";
import ListAltOutlined from "@mui/icons-material/ListAltOutlined";
import WhatsApp from "@mui/icons-material/WhatsApp";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useParams } from "react-router";
import { EmptyState } from "../../components/EmptyState";
import { LoadingState } from "../../components/LoadingState";
import { PageHeader } from "../../components/PageHeader";
import { errorText, toastError } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { DEFAULT_TIME_ZONE } from "../schedules/time";
import { downloadCampaignCsv, useCampaign, useCampaignsRealtime } from "./api";
import { campaignKeys } from "./queryKeys";
import { ShippingTable } from "./ShippingTable";
import { formatCampaignTime, STATUS_COLORS } from "./status";

/** While a campaign runs its shipping rows are refetched at most this often (progress events come per message). */
export const SHIPPING_REFRESH_MS = 2_000;

/** Delivered as a share of the valid contacts, 0..100 (0 while there is nobody to send to). */
export function deliveredPercent(counts: Pick<CampaignDetailDTO["counts"], "delivered" | "validContacts">): number {
  if (!counts.validContacts) return 0;
  return Math.min(100, Math.round((counts.delivered / counts.validContacts) * 100));
}

/**
 * Campaign report /campaign/:campaignId/report (spec §2): status with delivered of valid, a progress bar,
 * cards (valid contacts, confirmations requested, confirmations, delivered, connection, contact list,
 * schedule, completion); live through `campaign` events, reloaded 5 s after the FINALIZADA one (spec §4/§9);
 * the shipping rows download as CSV.
 */
export default function CampaignReportPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const timeZone = user?.company.timeZone || DEFAULT_TIME_ZONE;
  const params = useParams();
  const idParam = Number(params.campaignId);
  const id = Number.isInteger(idParam) && idParam > 0 ? idParam : null;
  const campaign = useCampaign(id);
  const [exporting, setExporting] = useState(false);
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const shippingTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const queryClient = useQueryClient();

  const { refetch } = campaign;
  useCampaignsRealtime((event) => {
    const eventId = event.action === "progress" ? event.campaignId : event.action === "delete" ? event.id : event.record.id;
    if (!id || eventId !== id) return;
    if (event.action === "update" && event.record.status === "FINALIZADA") {
      if (refreshTimer.current) clearTimeout(refreshTimer.current);
      refreshTimer.current = setTimeout(() => {
        void refetch();
        void queryClient.invalidateQueries({ queryKey: campaignKeys.shipping(id) });
      }, CAMPAIGN_REPORT_REFRESH_MS);
    }
    if (!shippingTimer.current)
      shippingTimer.current = setTimeout(() => {
        shippingTimer.current = null;
        void queryClient.invalidateQueries({ queryKey: campaignKeys.shipping(id) });
      }, SHIPPING_REFRESH_MS);
  });
  useEffect(
    () => () => {
      if (refreshTimer.current) clearTimeout(refreshTimer.current);
      if (shippingTimer.current) clearTimeout(shippingTimer.current);
    },
    [],
  );

  const runExport = async () => {
    if (!id) return;
    setExporting(true);
    try {
      await downloadCampaignCsv(id);
    } catch (err) {
      toastError(err);
    }
    setExporting(false);
  };

  const back = (
    <Button component={RouterLink} to="/campaigns" startIcon={<ArrowBack />} color="inherit">
      {t("campaigns.report.back")}
    </Button>
  );

  if (!id || campaign.isError)
    return (
      <Box>
        <PageHeader title={t("campaigns.report.title")}>{back}</PageHeader>
        <EmptyState title={campaign.isError ? errorText(campaign.error) : t("campaigns.report.notFound")} />
      </Box>
    );
  if (!campaign.data) return <LoadingState />;

  const c = campaign.data;
  const counts = c.counts;
  const percent = deliveredPercent(counts);

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <PageHeader title={t("campaigns.report.titleWithName", { name: c.name })}>
        {back}
        <Button
          variant="outlined"
          startIcon={exporting ? <CircularProgress size={18} /> : <FileDownloadOutlined />}
          onClick={() => void runExport()}
          disabled={exporting}
        >
          {t("campaigns.report.export")}
        </Button>
      </PageHeader>

      <Card variant="outlined">
        <CardContent sx={{ display: "flex", flexDirection: "column", gap: 1.5 }}>
          <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
            <Typography variant="subtitle1" component="h2">
              {t("campaigns.report.status")}
            </Typography>
            <Chip color={STATUS_COLORS[c.status]} label={t(`campaigns.status.${c.status}`)} data-testid="report-status" />
            <Typography variant="body1" data-testid="report-delivered-of-valid" sx={{ ml: "auto" }}>
              {t("campaigns.report.deliveredOfValid", { delivered: counts.delivered, valid: counts.validContacts })}
            </Typography>
          </Box>
          <LinearProgress
            variant="determinate"
            value={percent}
            aria-label={t("campaigns.report.progress")}
            sx={{ height: 10, borderRadius: 5 }}
            data-testid="report-progress"
          />
          {c.status === "EM_ANDAMENTO" && c.pauseReason && (
            <Alert severity="warning" data-testid="report-paused">
              {t("campaigns.report.paused", { reason: errorText(c.pauseReason) })}
            </Alert>
          )}
          {counts.failed > 0 && (
            <Alert severity="error" data-testid="report-failed">
              {t("campaigns.report.failed", { count: counts.failed })}
            </Alert>
          )}
        </CardContent>
      </Card>

      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr", md: "repeat(4, 1fr)" } }}>
        <ReportCard icon={<GroupOutlined />} label={t("campaigns.report.cards.validContacts")} value={counts.validContacts} testId="card-valid" />
        <ReportCard
          icon={<HelpOutline />}
          label={t("campaigns.report.cards.confirmationRequested")}
          value={counts.confirmationRequested}
          testId="card-confirmation-requested"
        />
        <ReportCard
          icon={<CheckCircleOutline />}
          label={t("campaigns.report.cards.confirmations")}
          value={counts.confirmations}
          testId="card-confirmations"
        />
        <ReportCard icon={<DoneAll />} label={t("campaigns.report.cards.delivered")} value={counts.delivered} testId="card-delivered" />
        <ReportCard
          icon={<WhatsApp />}
          label={t("campaigns.report.cards.connection")}
          value={c.whatsapp?.name ?? t("campaigns.table.none")}
          testId="card-connection"
        />
        <ReportCard
          icon={<ListAltOutlined />}
          label={t("campaigns.report.cards.contactList")}
          value={c.contactList?.name ?? t("campaigns.table.none")}
          testId="card-contact-list"
        />
        <ReportCard
          icon={<EventOutlined />}
          label={t("campaigns.report.cards.schedule")}
          value={formatCampaignTime(c.scheduledAt, timeZone) || t("campaigns.table.notScheduled")}
          testId="card-schedule"
        />
        <ReportCard
          icon={<EventAvailableOutlined />}
          label={t("campaigns.report.cards.completion")}
          value={formatCampaignTime(c.completedAt, timeZone) || t("campaigns.table.notCompleted")}
          testId="card-completion"
        />
      </Box>

      <ShippingTable campaignId={c.id} timeZone={timeZone} />
    </Box>
  );
}

function ReportCard({ icon, label, value, testId }: { icon: ReactNode; label: string; value: ReactNode; testId: string }) {
  return (
    <Card variant="outlined" data-testid={testId}>
      <CardContent sx={{ display: "flex", alignItems: "center", gap: 2 }}>
        <Box sx={{ color: "primary.main", display: "flex" }}>{icon}</Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography
            variant={typeof value === "number" ? "h6" : "subtitle1"}
            component="p"
            sx={{ fontWeight: 500, overflowWrap: "anywhere" }}
            data-testid={`${testId}-value`}
          >
            {value}
          </Typography>
        </Box>
      </CardContent>
    </Card>
  );
}
