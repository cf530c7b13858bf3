import type { ConnectionDTO } from "@balcao/shared";
import { Box, Button, CircularProgress } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { SessionCommand } from "./api";

interface SessionActionsProps {
  connection: Pick<ConnectionDTO, "id" | "name" | "status">;
  /** The command currently running for this connection, if any. */
  busy: SessionCommand | null;
  onShowQr: () => void;
  onCommand: (command: SessionCommand) => void;
  /** Disconnect asks first: the caller opens the confirmation. */
  onDisconnect: () => void;
}

/**
 * The session buttons of a row, by status exactly as spec §2: qrcode → QR; DISCONNECTED → try again and
 * new QR; CONNECTED, PAIRING, TIMEOUT → disconnect; OPENING → a disabled 'connecting' button with a spinner.
 */
export function SessionActions({ connection, busy, onShowQr, onCommand, onDisconnect }: SessionActionsProps) {
  const { t } = useTranslation();
  const spinner = (command: SessionCommand) => (busy === command ? <CircularProgress size={16} color="inherit" /> : undefined);
  switch (connection.status) {
    case "qrcode":
      return (
        <Button size="small" variant="contained" onClick={onShowQr}>
          {t("connections.buttons.qrcode")}
        </Button>
      );
    case "DISCONNECTED":
      return (
        <Box sx={{ display: "flex", gap: 1, justifyContent: "center", flexWrap: "wrap" }}>
          <Button size="small" variant="outlined" disabled={!!busy} startIcon={spinner("start")} onClick={() => onCommand("start")}>
            {t("connections.buttons.tryAgain")}
          </Button>
          <Button size="small" variant="contained" disabled={!!busy} startIcon={spinner("newQr")} onClick={() => onCommand("newQr")}>
            {t("connections.buttons.newQr")}
          </Button>
        </Box>
      );
    case "CONNECTED":
    case "PAIRING":
    case "TIMEOUT":
      return (
        <Button size="small" variant="outlined" color="error" disabled={!!busy} startIcon={spinner("disconnect")} onClick={onDisconnect}>
          {t("connections.buttons.disconnect")}
        </Button>
      );
    case "OPENING":
      return (
        <Button size="small" variant="outlined" disabled startIcon={<CircularProgress size={16} color="inherit" />}>
          {t("connections.buttons.connecting")}
        </Button>
      );
    default:
      return null;
  }
}
