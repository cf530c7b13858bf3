import { LANGUAGES, type Language, type SmtpSettingsDTO } from "@balcao/shared";
import { Alert, Box, Button, FormControlLabel, MenuItem, Switch, TextField, Typography } from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client";
import { LoadingState } from "../../components/LoadingState";
import { toastError, translateValidation } from "../../components/toastError";
import { useSaveSmtpSettings, useSendTestMail, useSmtpSettings } from "./api";

type Field = "host" | "port" | "user" | "password" | "from" | "recipients";

/**
 * The company's SMTP setting for connection-alert e-mails (issue 21, item 3; admins): server, port, TLS,
 * user, a write-only password (left blank keeps the saved one), sender, recipients (blank: the company's
 * admins), language, an enable switch and "send test e-mail" (with the saved setting).
 */
export function SmtpSettingsForm() {
  const { t } = useTranslation();
  const query = useSmtpSettings();
  if (query.isPending) return <LoadingState />;
  if (query.isError || !query.data) return <Alert severity="error">{t("notifications.smtp.loadFailed")}</Alert>;
  return <Form initial={query.data} />;
}

function Form({ initial }: { initial: SmtpSettingsDTO }) {
  const { t } = useTranslation();
  const save = useSaveSmtpSettings();
  const test = useSendTestMail();
  const [enabled, setEnabled] = useState(initial.enabled);
  const [host, setHost] = useState(initial.host);
  const [port, setPort] = useState(String(initial.port));
  const [secure, setSecure] = useState(initial.secure);
  const [user, setUser] = useState(initial.user);
  const [password, setPassword] = useState("");
  const [hasPassword, setHasPassword] = useState(initial.hasPassword);
  const [from, setFrom] = useState(initial.from);
  const [recipients, setRecipients] = useState(initial.recipients.join(", "));
  const [language, setLanguage] = useState<Language>(initial.language);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    try {
      const saved = await save.mutateAsync({
        enabled,
        host: host.trim(),
        port: Number(port),
        secure,
        user: user.trim(),
        ...(password && { password }),
        from: from.trim(),
        recipients: recipients
          .split(/[,;\s]+/)
          .map((r) => r.trim())
          .filter(Boolean),
        language,
      });
      setPassword("");
      setHasPassword(saved.hasPassword);
      enqueueSnackbar(t("notifications.smtp.saved"), { variant: "success" });
    } catch (err) {
      if (err instanceof ApiError && err.body.issues?.length) {
        const next: Partial<Record<Field, string>> = {};
        for (const issue of err.body.issues) {
          const field = issue.path.split(".")[0] as Field;
          next[field] ??= translateValidation(issue.message);
        }
        setErrors(next);
      } else toastError(err);
    }
  };

  const sendTest = async () => {
    try {
      const sent = await test.mutateAsync();
      enqueueSnackbar(t("notifications.smtp.testSent", { recipients: sent.recipients.join(", ") }), { variant: "success" });
    } catch (err) {
      toastError(err);
    }
  };

  const field = (name: Field, help?: string) => ({ error: !!errors[name], helperText: errors[name] ?? help });

  return (
    <Box component="form" onSubmit={(e) => void submit(e)} noValidate sx={{ display: "flex", flexDirection: "column", gap: 2, maxWidth: 560 }}>
      <Typography variant="body2" color="text.secondary">
        {t("notifications.smtp.intro")}
      </Typography>
      <FormControlLabel
        control={<Switch checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />}
        label={t("notifications.smtp.enabled")}
      />
      <Box sx={{ display: "flex", gap: 2 }}>
        <TextField label={t("notifications.smtp.host")} value={host} onChange={(e) => setHost(e.target.value)} sx={{ flex: 3 }} {...field("host")} />
        <TextField
          label={t("notifications.smtp.port")}
          value={port}
          onChange={(e) => setPort(e.target.value.replace(/\D/g, ""))}
          sx={{ flex: 1 }}
          slotProps={{ htmlInput: { inputMode: "numeric", maxLength: 5 } }}
          {...field("port")}
        />
      </Box>
      <FormControlLabel control={<Switch checked={secure} onChange={(e) => setSecure(e.target.checked)} />} label={t("notifications.smtp.secure")} />
      <TextField label={t("notifications.smtp.user")} value={user} onChange={(e) => setUser(e.target.value)} autoComplete="off" {...field("user")} />
      <TextField
        label={t("notifications.smtp.password")}
        type="password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        autoComplete="new-password"
        {...field("password", hasPassword ? t("notifications.smtp.passwordKept") : undefined)}
      />
      <TextField label={t("notifications.smtp.from")} value={from} onChange={(e) => setFrom(e.target.value)} {...field("from")} />
      <TextField
        label={t("notifications.smtp.recipients")}
        value={recipients}
        onChange={(e) => setRecipients(e.target.value)}
        {...field("recipients", t("notifications.smtp.recipientsHelp"))}
      />
      <TextField select label={t("notifications.smtp.language")} value={language} onChange={(e) => setLanguage(e.target.value as Language)}>
        {LANGUAGES.map((l) => (
          <MenuItem key={l} value={l}>
            {t(`notifications.smtp.languages.${l}`)}
          </MenuItem>
        ))}
      </TextField>
      <Box sx={{ display: "flex", gap: 1 }}>
        <Button type="submit" variant="contained" disabled={save.isPending}>
          {t("notifications.smtp.save")}
        </Button>
        <Button variant="outlined" onClick={() => void sendTest()} disabled={test.isPending || save.isPending}>
          {t("notifications.smtp.test")}
        </Button>
      </Box>
    </Box>
  );
}
