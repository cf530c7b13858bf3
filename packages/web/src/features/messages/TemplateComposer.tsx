import {
  isAdmin,
  renderTemplateBody,
  templateRequirements,
  type CloudApiTemplateDTO,
  type CloudApiTemplateSendBody,
  type TicketDTO,
} from "@balcao/shared";
import { Alert, Box, Button, CircularProgress, MenuItem, Paper, TextField, Typography } from "@mui/material";
import Send from "@mui/icons-material/Send";
import Sync from "@mui/icons-material/Sync";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { toastError } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { useCloudTemplates, useSendTemplate, useSyncTemplates } from "./cloudApi";

const keyOf = (t: CloudApiTemplateDTO) => `${t.name}|${t.language}`;

/** The form's values: body {{n}} in order, the header parameter, button parameters by position. */
interface Values {
  body: string[];
  header: string;
  buttons: Record<number, string>;
}

const EMPTY: Values = { body: [], header: "", buttons: {} };

/** The send body for the chosen template, or null while a required value is missing. */
export function templateSendBody(template: CloudApiTemplateDTO, values: Values): CloudApiTemplateSendBody | null {
  const needs = templateRequirements(template);
  const body = Array.from({ length: needs.bodyParams }, (_, i) => (values.body[i] ?? "").trim());
  if (body.some((v) => !v)) return null;
  const header = values.header.trim();
  if (needs.header && !header) return null;
  const buttons = needs.buttons.flatMap((b) => {
    const param = (values.buttons[b.index] ?? "").trim();
    return param ? [{ index: b.index, subType: b.subType, param }] : [];
  });
  if (needs.buttons.some((b) => b.required && !buttons.some((x) => x.index === b.index))) return null;
  return {
    name: template.name,
    language: template.language,
    bodyParams: body,
    ...(needs.header && { header: needs.header.type === "text" ? { type: "text", text: header } : { type: needs.header.type, link: header } }),
    ...(buttons.length > 0 && { buttons }),
  };
}

/**
 * The composer of a WhatsApp Cloud API ticket whose 24-hour customer-service window has closed: free text is
 * not allowed, so it says why and offers the connection's approved templates with fields for their parameters
 * (body {{n}}, a header text or media link, dynamic button values), a preview and the send button.
 */
export function TemplateComposer({ ticket, closesAt }: { ticket: TicketDTO; closesAt: string | null }) {
  const { t, i18n } = useTranslation();
  const templates = useCloudTemplates(ticket.whatsappId);
  const sendTemplate = useSendTemplate(ticket.id);
  const syncTemplates = useSyncTemplates(ticket.whatsappId);
  const { user } = useSession();
  const [syncing, setSyncing] = useState(false);
  const [chosen, setChosen] = useState("");
  const [values, setValues] = useState<Values>(EMPTY);
  const [sending, setSending] = useState(false);
  const list = useMemo(() => templates.data?.templates ?? [], [templates.data]);
  const template = list.find((x) => keyOf(x) === chosen) ?? null;
  const needs = template ? templateRequirements(template) : null;
  const body = template ? templateSendBody(template, values) : null;
  const closedAt = closesAt ? new Date(closesAt).toLocaleString(i18n.language) : null;

  const sync = async () => {
    setSyncing(true);
    try {
      await syncTemplates();
    } catch (err) {
      toastError(err);
    } finally {
      setSyncing(false);
    }
  };

  const send = async () => {
    if (!body) return;
    setSending(true);
    try {
      await sendTemplate(body);
      setChosen("");
      setValues(EMPTY);
    } catch (err) {
      toastError(err);
    } finally {
      setSending(false);
    }
  };

  return (
    <Box
      component="section"
      aria-label={t("messages.templates.region")}
      sx={{ p: 1.5, borderTop: 1, borderColor: "divider", display: "grid", gap: 1.5 }}
    >
      <Alert severity="warning">{closedAt ? t("messages.templates.windowClosedAt", { date: closedAt }) : t("messages.templates.windowClosed")}</Alert>
      {templates.isLoading && <CircularProgress size={20} aria-label={t("messages.templates.loading")} />}
      {templates.isError && <Typography color="error">{t("messages.templates.loadFailed")}</Typography>}
      {templates.isSuccess && list.length === 0 && <Typography color="text.secondary">{t("messages.templates.none")}</Typography>}
      {isAdmin(user) && ticket.whatsappId !== null && (
        <Box>
          <Button size="small" startIcon={<Sync />} disabled={syncing} onClick={() => void sync()}>
            {t("messages.templates.sync")}
          </Button>
        </Box>
      )}
      {list.length > 0 && (
        <TextField
          select
          size="small"
          label={t("messages.templates.choose")}
          value={chosen}
          onChange={(e) => {
            setChosen(e.target.value);
            setValues(EMPTY);
          }}
        >
          {list.map((x) => (
            <MenuItem key={keyOf(x)} value={keyOf(x)}>
              {`${x.name} (${x.language})`}
            </MenuItem>
          ))}
        </TextField>
      )}
      {template && needs && (
        <>
          {needs.header && (
            <TextField
              size="small"
              required
              label={
                needs.header.type === "text" ? t("messages.templates.headerText") : t("messages.templates.headerLink", { type: needs.header.type })
              }
              value={values.header}
              onChange={(e) => setValues((v) => ({ ...v, header: e.target.value }))}
            />
          )}
          {Array.from({ length: needs.bodyParams }, (_, i) => (
            <TextField
              key={`body-${i}`}
              size="small"
              required
              label={t("messages.templates.bodyParam", { n: i + 1 })}
              value={values.body[i] ?? ""}
              onChange={(e) =>
                setValues((v) => {
                  const next = [...v.body];
                  next[i] = e.target.value;
                  return { ...v, body: next };
                })
              }
            />
          ))}
          {needs.buttons.map((b) => (
            <TextField
              key={`button-${b.index}`}
              size="small"
              required={b.required}
              label={
                b.subType === "url" ? t("messages.templates.buttonUrl", { text: b.text }) : t("messages.templates.buttonPayload", { text: b.text })
              }
              value={values.buttons[b.index] ?? ""}
              onChange={(e) => setValues((v) => ({ ...v, buttons: { ...v.buttons, [b.index]: e.target.value } }))}
            />
          ))}
          <Paper variant="outlined" sx={{ p: 1.5, bgcolor: "action.hover" }} aria-label={t("messages.templates.preview")} role="figure">
            <Typography variant="caption" color="text.secondary">
              {t("messages.templates.preview")}
            </Typography>
            <Typography sx={{ whiteSpace: "pre-wrap" }}>
              {renderTemplateBody(
                template,
                values.body.map((v) => v.trim()),
              )}
            </Typography>
          </Paper>
          <Box sx={{ display: "flex", justifyContent: "flex-end" }}>
            <Button variant="contained" startIcon={<Send />} disabled={!body || sending} onClick={() => void send()}>
              {t("messages.templates.send")}
            </Button>
          </Box>
        </>
      )}
    </Box>
  );
}
