import { WEBHOOK_EVENTS, WEBHOOK_SIGNATURE_HEADER, type WebhookDTO, type WebhookEventName } from "@balcao/shared";
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  FormLabel,
  IconButton,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import Add from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Edit from "@mui/icons-material/Edit";
import Replay from "@mui/icons-material/Replay";
import { enqueueSnackbar } from "../../components/toasts";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { LoadingState } from "../../components/LoadingState";
import { errorText, toastError, translateValidation } from "../../components/toastError";
import { useDeleteWebhook, useResendDelivery, useSaveWebhook, useWebhookDeliveries, useWebhooks } from "./api";
import { formatDateTime } from "../../app/format";

const STATUS_COLOR = { pending: "default", retrying: "warning", delivered: "success", failed: "error" } as const;

/** Add/edit: URL, events, active; the server checks the URL (SSRF) and answers per field. */
function WebhookDialog({ webhook, onClose }: { webhook: WebhookDTO | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveWebhook();
  const [url, setUrl] = useState(webhook?.url ?? "");
  const [events, setEvents] = useState<WebhookEventName[]>(webhook?.events ?? []);
  const [active, setActive] = useState(webhook?.active ?? true);
  const [errors, setErrors] = useState<{ url?: string; events?: string }>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    try {
      await save.mutateAsync({ id: webhook?.id, body: { url: url.trim(), events, active } });
      enqueueSnackbar(t("webhooks.saved"), { variant: "success" });
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.body.issues?.length) {
        const next: { url?: string; events?: string } = {};
        for (const issue of err.body.issues)
          if (issue.path === "url" || issue.path === "events") next[issue.path] ??= translateValidation(issue.message);
        setErrors(next);
      } else if (err instanceof ApiError && err.code === "ERR_WEBHOOK_PRIVATE_TARGET") setErrors({ url: errorText(err) });
      else toastError(err);
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="webhook-dialog-title">
      <DialogTitle id="webhook-dialog-title">{webhook ? t("webhooks.editTitle") : t("webhooks.addTitle")}</DialogTitle>
      <Box component="form" onSubmit={(e) => void submit(e)} noValidate>
        <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
          <TextField
            label={t("webhooks.url")}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            required
            autoFocus
            error={!!errors.url}
            helperText={errors.url ?? t("webhooks.urlHelp")}
            slotProps={{ htmlInput: { maxLength: 2000, inputMode: "url" } }}
          />
          <Box>
            <FormLabel component="legend" error={!!errors.events}>
              {t("webhooks.events")}
            </FormLabel>
            <FormGroup>
              {WEBHOOK_EVENTS.map((name) => (
                <FormControlLabel
                  key={name}
                  label={`${t(`webhooks.event.${name}`)} (${name})`}
                  control={
                    <Checkbox
                      checked={events.includes(name)}
                      onChange={(e) => setEvents((list) => (e.target.checked ? [...list, name] : list.filter((n) => n !== name)))}
                    />
                  }
                />
              ))}
            </FormGroup>
            {errors.events && (
              <Typography variant="caption" color="error">
                {errors.events}
              </Typography>
            )}
          </Box>
          <FormControlLabel control={<Switch checked={active} onChange={(e) => setActive(e.target.checked)} />} label={t("webhooks.active")} />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            {t("common.cancel")}
          </Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {t("webhooks.save")}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/** The delivery log of one webhook: last answers and a resend button per delivery. */
function Deliveries({ webhook }: { webhook: WebhookDTO }) {
  const { t } = useTranslation();
  const deliveries = useWebhookDeliveries(webhook.id);
  const resend = useResendDelivery(webhook.id);
  const rows = deliveries.data?.deliveries ?? [];
  return (
    <Box component="section" aria-label={t("webhooks.deliveriesOf", { url: webhook.url })}>
      <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
        {t("webhooks.deliveriesOf", { url: webhook.url })}
      </Typography>
      {deliveries.isLoading && <LoadingState />}
      {deliveries.isError && <Alert severity="error">{errorText(deliveries.error)}</Alert>}
      {!deliveries.isLoading && rows.length === 0 && <Typography color="text.secondary">{t("webhooks.noDeliveries")}</Typography>}
      {rows.length > 0 && (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t("webhooks.table.when")}</TableCell>
              <TableCell>{t("webhooks.table.event")}</TableCell>
              <TableCell>{t("webhooks.table.status")}</TableCell>
              <TableCell>{t("webhooks.table.attempts")}</TableCell>
              <TableCell>{t("webhooks.table.response")}</TableCell>
              <TableCell align="right">{t("webhooks.table.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((d) => (
              <TableRow key={d.id} data-testid="webhook-delivery">
                <TableCell>{formatDateTime(d.lastAttemptAt ?? d.createdAt)}</TableCell>
                <TableCell>{d.event}</TableCell>
                <TableCell>
                  <Chip size="small" color={STATUS_COLOR[d.status]} label={t(`webhooks.status.${d.status}`)} />
                </TableCell>
                <TableCell>{d.attempts}</TableCell>
                <TableCell sx={{ maxWidth: 320, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>
                  {[
                    d.lastStatusCode,
                    d.lastError === "ERR_WEBHOOK_PRIVATE_TARGET" ? t("backendErrors.ERR_WEBHOOK_PRIVATE_TARGET") : d.lastError,
                    d.lastResponse,
                  ]
                    .filter((part) => part !== null && part !== "")
                    .join(" · ")}
                </TableCell>
                <TableCell align="right">
                  <Tooltip title={t("webhooks.resend")}>
                    <IconButton
                      aria-label={t("webhooks.resendDelivery", { id: d.id })}
                      disabled={resend.isPending}
                      onClick={() =>
                        resend.mutate(d.id, { onSuccess: () => enqueueSnackbar(t("webhooks.resent"), { variant: "success" }), onError: toastError })
                      }
                    >
                      <Replay fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}

/**
 * Outgoing webhooks of the company (issue 19; admins): subscribed URLs, their signing secret, and each one's
 * delivery log with resend. Shown as a tab of the messages API page.
 */
export function WebhooksPanel() {
  const { t } = useTranslation();
  const webhooks = useWebhooks();
  const remove = useDeleteWebhook();
  const [editing, setEditing] = useState<WebhookDTO | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<WebhookDTO | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const list = webhooks.data ?? [];
  const selected = list.find((w) => w.id === selectedId) ?? null;

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <Typography variant="body2">{t("webhooks.intro", { header: WEBHOOK_SIGNATURE_HEADER })}</Typography>
      <Box>
        <Button variant="contained" startIcon={<Add />} onClick={() => setEditing(null)}>
          {t("webhooks.add")}
        </Button>
      </Box>
      {webhooks.isLoading && <LoadingState />}
      {webhooks.isError && <Alert severity="error">{errorText(webhooks.error)}</Alert>}
      {!webhooks.isLoading && list.length === 0 && <Typography color="text.secondary">{t("webhooks.empty")}</Typography>}
      {list.length > 0 && (
        <Table size="small" aria-label={t("webhooks.title")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("webhooks.url")}</TableCell>
              <TableCell>{t("webhooks.events")}</TableCell>
              <TableCell>{t("webhooks.secret")}</TableCell>
              <TableCell align="right">{t("webhooks.table.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.map((w) => (
              <TableRow key={w.id} hover selected={w.id === selectedId} data-testid="webhook-row">
                <TableCell sx={{ wordBreak: "break-all" }}>
                  {w.url} {!w.active && <Chip size="small" label={t("webhooks.inactive")} />}
                </TableCell>
                <TableCell>{w.events.join(", ")}</TableCell>
                <TableCell>
                  <Box component="code" sx={{ fontSize: 12, wordBreak: "break-all" }}>
                    {w.secret}
                  </Box>
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  <Button size="small" onClick={() => setSelectedId(w.id)}>
                    {t("webhooks.showDeliveries")}
                  </Button>
                  <IconButton aria-label={t("webhooks.editOne", { url: w.url })} onClick={() => setEditing(w)}>
                    <Edit fontSize="small" />
                  </IconButton>
                  <IconButton aria-label={t("webhooks.deleteOne", { url: w.url })} onClick={() => setDeleting(w)}>
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {selected && <Deliveries webhook={selected} />}
      {editing !== undefined && <WebhookDialog webhook={editing} onClose={() => setEditing(undefined)} />}
      <ConfirmationDialog
        open={deleting !== null}
        title={t("webhooks.deleteTitle")}
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              if (selectedId === deleting.id) setSelectedId(null);
              setDeleting(null);
            },
            onError: toastError,
          })
        }
      >
        {deleting?.url}
      </ConfirmationDialog>
    </Box>
  );
}
