import { isAdmin, type ConnectionDTO, type SendApiResponse } from "@balcao/shared";
import { Alert, Box, Button, IconButton, InputAdornment, MenuItem, Paper, Tab, Tabs, TextField, Tooltip, Typography } from "@mui/material";
import ContentCopy from "@mui/icons-material/ContentCopy";
import LockOutlined from "@mui/icons-material/LockOutlined";
import Send from "@mui/icons-material/Send";
import Visibility from "@mui/icons-material/Visibility";
import VisibilityOff from "@mui/icons-material/VisibilityOff";
import { enqueueSnackbar } from "../../components/toasts";
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../components/EmptyState";
import { LoadingState } from "../../components/LoadingState";
import { PageHeader } from "../../components/PageHeader";
import { errorText } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { useConnections, useConnectionsRealtime } from "../connections/api";
import { RegenerateTokenButton } from "../connections/RegenerateTokenButton";
import { WebhooksPanel } from "../webhooks/WebhooksPanel";
import { curlExamples, sendApiUrl, sendWithToken, type TestSend } from "./sendApi";

const MASK = "•".repeat(24);
const SAMPLE_NUMBER = "5511999999999";

/** Copies a text and says so for a second (spec §9); falls back to an error toast where the clipboard is refused. */
function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1_000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      enqueueSnackbar(t("messagesApi.copyFailed"), { variant: "warning" });
    }
  };
  return (
    <Tooltip title={copied ? t("messagesApi.copied") : label}>
      <IconButton aria-label={label} onClick={() => void copy()} disabled={!text}>
        <ContentCopy fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2, display: "flex", flexDirection: "column", gap: 2 }}>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** A test form: sends through the real endpoint with the connection's token. */
function TestForm({ token, withMedia }: { token: string; withMedia: boolean }) {
  const { t } = useTranslation();
  const [number, setNumber] = useState("");
  const [body, setBody] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: SendApiResponse } | { error: string } | null>(null);
  const prefix = withMedia ? "media" : "text";

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setResult(null);
    try {
      const input: TestSend = { number: number.trim(), body, file: withMedia ? file : null };
      const sent = await sendWithToken(window.location.origin, token, input);
      setResult({ ok: sent });
      enqueueSnackbar(t("messagesApi.test.sent"), { variant: "success" });
    } catch (err) {
      setResult({ error: errorText(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box
      component="form"
      onSubmit={(e) => void submit(e)}
      aria-label={t(`messagesApi.${prefix}.title`)}
      sx={{ display: "flex", flexDirection: "column", gap: 2 }}
    >
      <TextField
        label={t("messagesApi.test.number")}
        helperText={t("messagesApi.test.numberHelp")}
        value={number}
        onChange={(e) => setNumber(e.target.value)}
        required
        slotProps={{ htmlInput: { inputMode: "numeric", maxLength: 40 } }}
      />
      <TextField
        label={withMedia ? t("messagesApi.test.caption") : t("messagesApi.test.body")}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        required={!withMedia}
        multiline
        minRows={2}
        slotProps={{ htmlInput: { maxLength: 4096 } }}
      />
      {withMedia && (
        <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
          <Button variant="outlined" component="label">
            {t("messagesApi.test.chooseFile")}
            <input hidden type="file" aria-label={t("messagesApi.test.file")} onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
          </Button>
          <Typography variant="body2" color="text.secondary">
            {file ? file.name : t("messagesApi.test.noFile")}
          </Typography>
        </Box>
      )}
      <Box>
        <Button type="submit" variant="contained" startIcon={<Send />} disabled={busy || !token || (withMedia && !file)}>
          {t(`messagesApi.${prefix}.submit`)}
        </Button>
      </Box>
      {result && "ok" in result && (
        <Alert severity="success">{t("messagesApi.test.result", { ticketId: result.ok.ticketId, count: result.ok.messages.length })}</Alert>
      )}
      {result && "error" in result && <Alert severity="error">{result.error}</Alert>}
    </Box>
  );
}

/** The connection's token, hidden until revealed, with copy and regenerate. */
function TokenField({ connection, revealed, onToggle }: { connection: ConnectionDTO; revealed: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const token = connection.token ?? "";
  return (
    <Box sx={{ display: "flex", gap: 2, alignItems: "center", flexWrap: "wrap" }}>
      <TextField
        label={t("messagesApi.token.label")}
        value={revealed ? token : MASK}
        sx={{ flex: "1 1 320px" }}
        slotProps={{
          htmlInput: { readOnly: true, "aria-describedby": "messages-api-token-help", style: { fontFamily: "monospace" } },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <Tooltip title={revealed ? t("messagesApi.token.hide") : t("messagesApi.token.reveal")}>
                  <IconButton aria-label={revealed ? t("messagesApi.token.hide") : t("messagesApi.token.reveal")} onClick={onToggle}>
                    {revealed ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
                  </IconButton>
                </Tooltip>
                <CopyButton text={token} label={t("messagesApi.token.copy")} />
              </InputAdornment>
            ),
          },
        }}
      />
      <RegenerateTokenButton connection={connection} />
      <Typography id="messages-api-token-help" variant="body2" color="text.secondary" sx={{ flexBasis: "100%" }}>
        {t("messagesApi.token.help")}
      </Typography>
    </Box>
  );
}

function CurlExample({ title, shown, copy }: { title: string; shown: string; copy: string }) {
  const { t } = useTranslation();
  return (
    <Box>
      <Box sx={{ display: "flex", alignItems: "center" }}>
        <Typography variant="subtitle2" sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        <CopyButton text={copy} label={t("messagesApi.examples.copy", { name: title })} />
      </Box>
      <Box component="pre" sx={{ m: 0, p: 1.5, bgcolor: "action.hover", borderRadius: 1, overflowX: "auto", fontSize: 13 }}>
        <code>{shown}</code>
      </Box>
    </Box>
  );
}

/**
 * Messages API /messages-api (spec §2, §7; admin): pick a connection, its token (hidden until revealed,
 * copy, regenerate), test forms for text and media sent through the real endpoint with that token, and
 * copyable curl examples filled with this server's origin and the token.
 */
export default function MessagesApiPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const admin = !!user && isAdmin(user);
  const connections = useConnections(admin);
  useConnectionsRealtime();
  const [tab, setTab] = useState<"send" | "webhooks">("send");

  if (!admin) {
    return (
      <Box>
        <PageHeader title={t("pages.messagesApi")} />
        <EmptyState icon={<LockOutlined sx={{ fontSize: 48 }} />} title={t("messagesApi.adminOnly")} />
      </Box>
    );
  }
  if (connections.isLoading) return <LoadingState />;
  if (connections.isError) return <Alert severity="error">{errorText(connections.error)}</Alert>;

  const list = connections.data ?? [];

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2, pb: 2 }}>
      <PageHeader title={t("pages.messagesApi")} />
      <Tabs value={tab} onChange={(_e, value: "send" | "webhooks") => setTab(value)} sx={{ borderBottom: 1, borderColor: "divider" }}>
        <Tab value="send" label={t("messagesApi.tab")} id="messages-api-tab-send" aria-controls="messages-api-panel" />
        <Tab value="webhooks" label={t("webhooks.tab")} id="messages-api-tab-webhooks" aria-controls="messages-api-panel" />
      </Tabs>
      <Box role="tabpanel" id="messages-api-panel" aria-labelledby={`messages-api-tab-${tab}`}>
        {tab === "webhooks" ? <WebhooksPanel /> : <SendApi connections={list} />}
      </Box>
    </Box>
  );
}

/** The send API tab: connection, token, docs with curl examples, test forms. */
function SendApi({ connections: list }: { connections: ConnectionDTO[] }) {
  const { t } = useTranslation();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [revealed, setRevealed] = useState(false);
  const connection = list.find((c) => c.id === selectedId) ?? list.find((c) => c.isDefault) ?? list[0];
  const origin = window.location.origin;
  const token = connection?.token ?? "";
  const sample = { number: SAMPLE_NUMBER, text: t("messagesApi.examples.sampleText"), caption: t("messagesApi.examples.sampleCaption") };
  const real = curlExamples(origin, token, sample);
  const shown = revealed ? real : curlExamples(origin, MASK, sample);

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <Typography variant="body1">{t("messagesApi.intro")}</Typography>
      {list.length === 0 ? (
        <EmptyState title={t("messagesApi.noConnections")} />
      ) : (
        <>
          <Section title={t("messagesApi.token.title")}>
            <TextField
              select
              label={t("messagesApi.connection")}
              value={connection!.id}
              onChange={(e) => {
                setSelectedId(Number(e.target.value));
                setRevealed(false);
              }}
              sx={{ maxWidth: 420 }}
            >
              {list.map((c) => (
                <MenuItem key={c.id} value={c.id}>
                  {c.name} — {t(`connections.status.${c.status}`)}
                </MenuItem>
              ))}
            </TextField>
            {connection!.status !== "CONNECTED" && <Alert severity="warning">{t("messagesApi.notConnected")}</Alert>}
            <TokenField connection={connection!} revealed={revealed} onToggle={() => setRevealed((v) => !v)} />
          </Section>
          <Section title={t("messagesApi.docs.title")}>
            <Typography variant="body2" component="div">
              <Box component="code" sx={{ fontWeight: 600 }}>
                POST {sendApiUrl(origin)}
              </Box>
            </Typography>
            <Typography variant="body2">{t("messagesApi.docs.auth")}</Typography>
            <Typography variant="body2">{t("messagesApi.docs.body")}</Typography>
            <Typography variant="body2">{t("messagesApi.docs.number")}</Typography>
            <Typography variant="body2">{t("messagesApi.docs.idempotency")}</Typography>
            <Typography variant="body2">{t("messagesApi.docs.errors")}</Typography>
            <CurlExample title={t("messagesApi.examples.text")} shown={shown.text} copy={real.text} />
            <CurlExample title={t("messagesApi.examples.media")} shown={shown.media} copy={real.media} />
          </Section>
          <Section title={t("messagesApi.text.title")}>
            <TestForm key={`text-${connection!.id}`} token={token} withMedia={false} />
          </Section>
          <Section title={t("messagesApi.media.title")}>
            <TestForm key={`media-${connection!.id}`} token={token} withMedia />
          </Section>
        </>
      )}
    </Box>
  );
}
