import type { SimulatorStateDTO } from "@balcao/shared";
import { Alert, Box, Button, CircularProgress, Paper, TextField, Typography } from "@mui/material";
import QrCodeScanner from "@mui/icons-material/QrCodeScanner";
import { enqueueSnackbar } from "../../components/toasts";
import { QRCodeSVG } from "qrcode.react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toastError } from "../../components/toastError";
import type { SimulatorActions } from "./api";

/**
 * A connection that is not paired yet: its pairing code as a QR and the 'Escanear' button — how a person
 * "scans the QR" with the simulated company phone (POST /simulator/:id/scan with the code shown).
 */
export function PairingPanel({ state, actions }: { state: SimulatorStateDTO; actions: SimulatorActions }) {
  const { t } = useTranslation();
  const { status, qrcode } = state.connection;

  const [typed, setTyped] = useState("");
  const scan = async (code = qrcode) => {
    try {
      await actions.scan.mutateAsync(code);
      enqueueSnackbar(t("simulator.pairing.scanned"), { variant: "success" });
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="simulator-pairing-title"
      sx={{ p: 3, maxWidth: 420, mx: "auto", display: "flex", flexDirection: "column", alignItems: "center", gap: 2, textAlign: "center" }}
    >
      <Typography id="simulator-pairing-title" variant="h6" component="h2">
        {t("simulator.pairing.title")}
      </Typography>
      {status === "qrcode" && qrcode ? (
        <>
          <Typography variant="body2" color="text.secondary">
            {t("simulator.pairing.instructions")}
          </Typography>
          <Box sx={{ p: 2, bgcolor: "#fff", borderRadius: 1 }}>
            <QRCodeSVG value={qrcode} size={220} level="M" role="img" aria-label={t("simulator.pairing.qrLabel")} />
          </Box>
          <Typography
            variant="caption"
            component="code"
            sx={{ fontFamily: "monospace", wordBreak: "break-all", userSelect: "all" }}
            data-testid="simulator-pairing-code"
          >
            {qrcode}
          </Typography>
          <Button
            variant="contained"
            size="large"
            startIcon={actions.scan.isPending ? <CircularProgress size={18} color="inherit" /> : <QrCodeScanner />}
            disabled={actions.scan.isPending}
            onClick={() => void scan()}
            autoFocus
          >
            {t("simulator.pairing.scan")}
          </Button>
        </>
      ) : status === "PAIRING" ? (
        // Pairing by phone code (issue 21): the simulated phone types the code shown on the connections page.
        <Box
          component="form"
          aria-label={t("simulator.pairing.codeForm")}
          onSubmit={(e) => {
            e.preventDefault();
            void scan(typed);
          }}
          sx={{ display: "flex", flexDirection: "column", gap: 2, width: "100%" }}
        >
          <Typography variant="body2" color="text.secondary">
            {t("simulator.pairing.codeInstructions")}
          </Typography>
          <TextField
            label={t("simulator.pairing.codeLabel")}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 9, autoCapitalize: "characters", style: { fontFamily: "monospace", letterSpacing: "0.2em" } } }}
            autoFocus
          />
          <Button type="submit" variant="contained" disabled={actions.scan.isPending || typed.trim().length < 8}>
            {t("simulator.pairing.link")}
          </Button>
        </Box>
      ) : status === "OPENING" || (status === "qrcode" && !qrcode) ? (
        <Box role="status" sx={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 1 }}>
          <CircularProgress aria-label={t("common.loading")} />
          <Typography variant="body2">{t("simulator.pairing.opening")}</Typography>
        </Box>
      ) : (
        <Alert severity="warning" sx={{ textAlign: "left" }}>
          {t("simulator.pairing.disconnected")}
        </Alert>
      )}
    </Paper>
  );
}
