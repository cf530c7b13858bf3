import { COPY_CONFIRMATION_MS, type PaymentEventPayload, type PixChargeDTO } from "@balcao/shared";
import { Alert, Box, Button, CircularProgress, Stack, TextField, Typography } from "@mui/material";
import ContentCopy from "@mui/icons-material/ContentCopy";
import { QRCodeSVG } from "qrcode.react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSocketEvent } from "../../api/SocketProvider";
import { formatMoney } from "../../app/format";

/** The Pix to pay (spec §2): total in R$, the QR code of the copy-and-paste code, a copy button, instructions. */
export function PixPayment({ charge }: { charge: PixChargeDTO }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const [paid, setPaid] = useState(false);
  useSocketEvent<PaymentEventPayload>("payment", (event) => {
    if (event.action === "CONCLUIDA" && event.invoiceId === charge.invoiceId) setPaid(true);
  });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const total = formatMoney(Number(charge.valor.original));
  const code = charge.qrcode.qrcode;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
    } catch {
      // No clipboard permission (plain http, old browser): the code stays selectable in the field below.
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
  };

  return (
    <Stack spacing={2} sx={{ py: 1, alignItems: "center" }}>
      <Typography variant="h5" component="p" data-testid="pix-total">
        {t("billing.checkout.pix.total", { value: total })}
      </Typography>
      <Box sx={{ p: 1.5, bgcolor: "#fff", borderRadius: 1 }}>
        <QRCodeSVG value={code} size={220} level="M" role="img" aria-label={t("billing.checkout.pix.qrAlt", { value: total })} />
      </Box>
      <TextField
        value={code}
        fullWidth
        size="small"
        slotProps={{ htmlInput: { readOnly: true, "aria-label": "Pix Copia e Cola", "data-testid": "pix-code" } }}
        onFocus={(e) => e.target.select()}
      />
      <Button variant="contained" startIcon={<ContentCopy />} onClick={() => void copy()}>
        {copied ? t("billing.checkout.pix.copied") : t("billing.checkout.pix.copy")}
      </Button>
      <Typography variant="body2" color="text.secondary" sx={{ textAlign: "center" }}>
        {t("billing.checkout.pix.instructions")}
      </Typography>
      {paid ? (
        <Alert severity="success" role="status">
          {t("billing.checkout.pix.paid")}
        </Alert>
      ) : charge.provider === "static" ? (
        <Alert severity="info">{t("billing.checkout.pix.staticNote")}</Alert>
      ) : (
        <Stack direction="row" spacing={1} role="status" sx={{ alignItems: "center" }}>
          <CircularProgress size={16} />
          <Typography variant="body2">{t("billing.checkout.pix.waiting")}</Typography>
        </Stack>
      )}
    </Stack>
  );
}
