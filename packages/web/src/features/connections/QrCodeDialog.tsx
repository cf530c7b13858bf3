import type { WhatsappSessionEvent } from "@balcao/shared";
import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Tab, Tabs, Typography } from "@mui/material";
import OpenInNew from "@mui/icons-material/OpenInNew";
import { QRCodeSVG } from "qrcode.react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { useSocketEvent } from "../../api/SocketProvider";
import { useConnections } from "./api";
import { PairingCodePanel } from "./PairingCodePanel";

interface QrCodeDialogProps {
  /** The connection whose QR to show; null = closed. */
  connectionId: number | null;
  onClose: () => void;
}

/**
 * Shows the connection's current QR (kept fresh by the socket through the cached list) and closes by itself
 * when a `whatsappSession` update for it arrives with an empty qrcode (scanned, spec §2).
 */
export function QrCodeDialog({ connectionId, onClose }: QrCodeDialogProps) {
  const { t } = useTranslation();
  const list = useConnections(connectionId !== null);
  const connection = list.data?.find((c) => c.id === connectionId);

  useSocketEvent<WhatsappSessionEvent>("whatsappSession", (event) => {
    if (connectionId !== null && event?.session?.id === connectionId && !event.session.qrcode) onClose();
  });

  const [mode, setMode] = useState<"qr" | "code">("qr");
  // While a phone code is shown (PAIRING), the connection's qrcode is that code, not a QR.
  const qrcode = connection?.status === "PAIRING" ? "" : (connection?.qrcode ?? "");
  const canUseCode = connection?.channel === "baileys" || connection?.channel === "simulator";
  const close = () => {
    setMode("qr");
    onClose();
  };
  return (
    <Dialog open={connectionId !== null} onClose={close} aria-labelledby="qrcode-dialog-title" maxWidth="xs" fullWidth>
      <DialogTitle id="qrcode-dialog-title">{t("connections.qr.title", { name: connection?.name ?? "" })}</DialogTitle>
      <DialogContent sx={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 2 }}>
        {canUseCode && (
          <Tabs value={mode} onChange={(_e, value: "qr" | "code") => setMode(value)} aria-label={t("connections.pairing.modes")} variant="fullWidth">
            <Tab value="qr" label={t("connections.pairing.qrTab")} />
            <Tab value="code" label={t("connections.pairing.codeTab")} />
          </Tabs>
        )}
        {mode === "code" && connection ? (
          <PairingCodePanel connectionId={connection.id} />
        ) : (
          <QrPanel qrcode={qrcode} simulator={connection?.channel === "simulator"} />
        )}
      </DialogContent>
      <DialogActions>
        {connection?.channel === "simulator" && (
          <Button component={RouterLink} to={`/simulator/${connection.id}`} target="_blank" rel="noopener" endIcon={<OpenInNew fontSize="small" />}>
            {t("connections.buttons.openSimulator")}
          </Button>
        )}
        <Button onClick={close}>{t("connections.buttons.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}

function QrPanel({ qrcode, simulator }: { qrcode: string; simulator: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Typography variant="body2" color="text.secondary">
        {simulator ? t("connections.qr.instructionsSimulator") : t("connections.qr.instructions")}
      </Typography>
      {qrcode ? (
        <Box sx={{ p: 2, bgcolor: "#fff", borderRadius: 1 }}>
          <QRCodeSVG
            value={qrcode}
            size={256}
            level="M"
            role="img"
            aria-label={t("connections.qr.imageLabel")}
            data-testid="connection-qrcode"
            data-qrcode={qrcode}
          />
        </Box>
      ) : (
        <Box role="status" sx={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 1, py: 4 }}>
          <CircularProgress aria-label={t("common.loading")} />
          <Typography variant="body2">{t("connections.qr.waiting")}</Typography>
        </Box>
      )}
    </>
  );
}
