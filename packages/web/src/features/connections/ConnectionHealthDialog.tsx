import type { ConnectionHealthDTO, ConnectionHealthEventDTO } from "@balcao/shared";
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  Typography,
} from "@mui/material";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../app/format";
import { useConnectionHealth } from "./api";
import { ConnectionStatusChip } from "./ConnectionStatusChip";

interface ConnectionHealthDialogProps {
  /** The connection whose health to show; null = closed. */
  connectionId: number | null;
  name: string;
  onClose: () => void;
  /** "Scan again": asks for a new QR (shown when WhatsApp will not let the session back in). */
  onScanAgain: () => void;
}

const DAY_MS = 24 * 3600 * 1000;

/** "5 h 12 min (22%)" of a window. */
function useDuration() {
  const { t } = useTranslation();
  return (ms: number, windowMs: number) => {
    const minutes = Math.round(ms / 60_000);
    const percent = Math.round((ms / windowMs) * 100);
    return t("connections.health.duration", { hours: Math.floor(minutes / 60), minutes: minutes % 60, percent });
  };
}

function TimelineEntry({ entry }: { entry: ConnectionHealthEventDTO }) {
  const { t } = useTranslation();
  const reason = entry.reason ? t(`connections.reasons.${entry.reason}`) : "";
  const title =
    entry.kind === "alert"
      ? t("connections.health.alertSent")
      : [reason, entry.retries > 0 ? t("connections.health.retry", { count: entry.retries }) : ""].filter(Boolean).join(" · ");
  return (
    <ListItem divider data-testid="health-entry" data-status={entry.status} data-reason={entry.reason ?? ""} data-kind={entry.kind}>
      <Box sx={{ minWidth: 150, mr: 2 }}>
        <Typography variant="caption" component="p">
          {formatDateTime(entry.at)}
        </Typography>
        <ConnectionStatusChip status={entry.status} />
      </Box>
      <ListItemText primary={title || "—"} secondary={entry.detail ?? undefined} />
    </ListItem>
  );
}

function HealthBody({ health }: { health: ConnectionHealthDTO }) {
  const { t } = useTranslation();
  const duration = useDuration();
  const figure = (label: string, value: string, testId: string) => (
    <Box sx={{ flex: "1 1 180px" }}>
      <Typography variant="caption" color="text.secondary" component="p">
        {label}
      </Typography>
      <Typography variant="body1" data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
  return (
    <>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, mb: 2 }}>
        <ConnectionStatusChip status={health.status} />
        {health.reason && <Typography variant="body2">{t(`connections.reasons.${health.reason}`)}</Typography>}
        {health.since && (
          <Typography variant="caption" color="text.secondary">
            {t("connections.health.since", { date: formatDateTime(health.since) })}
          </Typography>
        )}
      </Box>
      <Box sx={{ display: "flex", flexWrap: "wrap", gap: 2, mb: 2 }}>
        {figure(t("connections.health.connected24h"), duration(health.connectedMs.last24h, DAY_MS), "health-connected-24h")}
        {figure(t("connections.health.connected7d"), duration(health.connectedMs.last7d, 7 * DAY_MS), "health-connected-7d")}
        {figure(
          t("connections.health.messages24h"),
          t("connections.health.inOut", { in: health.messages.last24h.in, out: health.messages.last24h.out }),
          "health-messages-24h",
        )}
        {figure(
          t("connections.health.messages7d"),
          t("connections.health.inOut", { in: health.messages.last7d.in, out: health.messages.last7d.out }),
          "health-messages-7d",
        )}
      </Box>
      <Typography variant="subtitle2">{t("connections.health.lastError")}</Typography>
      <Typography variant="body2" sx={{ mb: 2 }} data-testid="health-last-error">
        {health.lastError
          ? `${formatDateTime(health.lastError.at)} · ${health.lastError.reason ? t(`connections.reasons.${health.lastError.reason}`) : ""}${
              health.lastError.detail ? ` (${health.lastError.detail})` : ""
            }`
          : t("connections.health.noError")}
      </Typography>
      <Typography variant="subtitle2">{t("connections.health.timeline")}</Typography>
      {health.timeline.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t("connections.health.emptyTimeline")}
        </Typography>
      ) : (
        <List dense aria-label={t("connections.health.timeline")}>
          {health.timeline.map((entry, i) => (
            <TimelineEntry key={`${entry.at}-${i}`} entry={entry} />
          ))}
        </List>
      )}
    </>
  );
}

/** The health center of one connection (issue 21): status and reason, time connected, messages, last error, timeline. */
export function ConnectionHealthDialog({ connectionId, name, onClose, onScanAgain }: ConnectionHealthDialogProps) {
  const { t } = useTranslation();
  const health = useConnectionHealth(connectionId);
  const data = health.data;
  return (
    <Dialog open={connectionId !== null} onClose={onClose} aria-labelledby="health-dialog-title" maxWidth="md" fullWidth>
      <DialogTitle id="health-dialog-title">{t("connections.health.title", { name })}</DialogTitle>
      <DialogContent>
        {data?.needsScan && (
          <Alert
            severity="error"
            sx={{ mb: 2 }}
            data-testid="health-scan-again"
            action={
              <Button color="inherit" size="small" onClick={onScanAgain}>
                {t("connections.health.scanAgain")}
              </Button>
            }
          >
            {t("connections.health.scanAgainHint")}
          </Alert>
        )}
        {data ? (
          <HealthBody health={data} />
        ) : health.isError ? (
          <Alert severity="error">{t("connections.health.loadError")}</Alert>
        ) : (
          <Box role="status" sx={{ display: "flex", justifyContent: "center", py: 4 }}>
            <CircularProgress aria-label={t("common.loading")} />
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void health.refetch()}>{t("connections.health.refresh")}</Button>
        <Button onClick={onClose}>{t("connections.buttons.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
