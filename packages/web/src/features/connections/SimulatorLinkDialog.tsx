import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from "@mui/material";
import ContentCopy from "@mui/icons-material/ContentCopy";
import { useEffect, useState, type FocusEvent } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../components/toastError";
import { useSimulatorLink } from "./api";

/** How long 'Copiado' stays on the copy button (spec §9: copy confirmation 1 s). */
const COPIED_MS = 1_000;

/** The secret link of a simulator connection (admins): opens its phone page without signing in. */
export function SimulatorLinkDialog({ connectionId, name, onClose }: { connectionId: number | null; name: string; onClose: () => void }) {
  const { t } = useTranslation();
  const link = useSimulatorLink(connectionId);
  const [copied, setCopied] = useState(false);
  const [copyFailed, setCopyFailed] = useState(false);
  const url = link.data ? new URL(link.data.url, window.location.origin).href : "";

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      setCopyFailed(false);
    } catch {
      setCopyFailed(true);
    }
  };

  return (
    <Dialog open={connectionId !== null} onClose={onClose} aria-labelledby="simulator-link-title" maxWidth="sm" fullWidth>
      <DialogTitle id="simulator-link-title">{t("connections.simulatorLink.title", { name })}</DialogTitle>
      <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
        <DialogContentText>{t("connections.simulatorLink.description")}</DialogContentText>
        {link.isLoading && <CircularProgress aria-label={t("common.loading")} sx={{ alignSelf: "center" }} />}
        {link.isError && <Alert severity="error">{errorText(link.error)}</Alert>}
        {url && (
          <TextField
            label={t("connections.simulatorLink.label")}
            value={url}
            fullWidth
            slotProps={{ htmlInput: { readOnly: true, onFocus: (e: FocusEvent<HTMLInputElement>) => e.target.select() } }}
          />
        )}
        {copyFailed && <Alert severity="warning">{t("connections.simulatorLink.copyFailed")}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          {t("connections.buttons.close")}
        </Button>
        <Button variant="contained" startIcon={<ContentCopy />} disabled={!url} onClick={() => void copy()}>
          {copied ? t("connections.simulatorLink.copied") : t("connections.simulatorLink.copy")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
