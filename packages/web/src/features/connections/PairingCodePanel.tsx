import { pairingCodeBody, type PairingCodeDTO } from "@balcao/shared";
import { Box, Button, TextField, Typography } from "@mui/material";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toastError } from "../../components/toastError";
import { useRequestPairingCode } from "./api";

interface PairingCodePanelProps {
  connectionId: number;
}

/** "ABCD1234" → "ABCD-1234", as WhatsApp shows it. */
export const formatPairingCode = (code: string) => (code.length === 8 ? `${code.slice(0, 4)}-${code.slice(4)}` : code);

/**
 * Pairing by phone code (issue 21): the company's number with country code → the 8-character code to type on
 * the phone (WhatsApp > Linked devices > Link with phone number), shown large with its expiry countdown and a
 * retry for a new code.
 */
export function PairingCodePanel({ connectionId }: PairingCodePanelProps) {
  const { t } = useTranslation();
  const request = useRequestPairingCode();
  const [phone, setPhone] = useState("");
  const [fieldError, setFieldError] = useState("");
  const [result, setResult] = useState<PairingCodeDTO | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (!result) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [result]);

  const ask = async () => {
    const parsed = pairingCodeBody.safeParse({ phoneNumber: phone });
    if (!parsed.success) {
      setFieldError(t("connections.pairing.invalidNumber"));
      return;
    }
    setFieldError("");
    try {
      const answer = await request.mutateAsync({ connectionId, phoneNumber: parsed.data.phoneNumber });
      setNow(Date.now());
      setResult(answer);
    } catch (err) {
      toastError(err);
    }
  };

  const seconds = result ? Math.max(0, Math.ceil((Date.parse(result.expiresAt) - now) / 1000)) : 0;
  return (
    <Box
      component="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void ask();
      }}
      sx={{ display: "flex", flexDirection: "column", alignItems: "stretch", gap: 2, width: "100%" }}
    >
      <Typography variant="body2" color="text.secondary">
        {t("connections.pairing.instructions")}
      </Typography>
      <TextField
        label={t("connections.pairing.number")}
        placeholder="55 11 91234-5678"
        value={phone}
        onChange={(e) => setPhone(e.target.value)}
        error={!!fieldError}
        helperText={fieldError || t("connections.pairing.numberHint")}
        slotProps={{ htmlInput: { inputMode: "tel", "data-testid": "pairing-phone" } }}
        size="small"
        fullWidth
      />
      {result && (
        <Box sx={{ textAlign: "center" }}>
          <Typography
            variant="h3"
            component="p"
            sx={{ fontFamily: "monospace", letterSpacing: "0.15em", opacity: seconds > 0 ? 1 : 0.4 }}
            data-testid="pairing-code"
            data-code={result.code}
            aria-label={t("connections.pairing.codeLabel")}
          >
            {formatPairingCode(result.code)}
          </Typography>
          <Typography variant="body2" role="timer" data-testid="pairing-countdown" color={seconds > 0 ? "text.secondary" : "error"}>
            {seconds > 0 ? t("connections.pairing.expiresIn", { seconds }) : t("connections.pairing.expired")}
          </Typography>
        </Box>
      )}
      <Button type="submit" variant="contained" disabled={request.isPending}>
        {result ? t("connections.pairing.newCode") : t("connections.pairing.getCode")}
      </Button>
    </Box>
  );
}
