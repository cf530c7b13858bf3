import {
  CAMPAIGN_BUILTIN_VARIABLES,
  CAMPAIGN_MESSAGE_MAX,
  CAMPAIGN_MESSAGE_SLOTS,
  isCampaignEditable,
  MSG,
  type CampaignBody,
  type CampaignDTO,
} from "@balcao/shared";
import {
  Alert,
  Box,
  Button,
  Chip,
  DialogActions,
  DialogContent,
  FormControlLabel,
  MenuItem,
  Switch,
  Tab,
  Tabs,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { useMemo, useState } from "react";
import { Controller, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { AttachmentField, useAttachment } from "../../components/form/AttachmentField";
import { DialogForm, FormDialog } from "../../components/form/FormDialog";
import { useZodForm } from "../../components/form/useZodForm";
import { translateValidation } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { useConnections } from "../connections/api";
import { DEFAULT_TIME_ZONE, fromLocalInput, toLocalInput } from "../schedules/time";
import { useCampaignMedia, useCampaignSettings, useContactListOptions, useSaveCampaign } from "./api";

interface CampaignModalProps {
  open: boolean;
  onClose: () => void;
  campaign: CampaignDTO | null;
}

/** Spec §5: campaign name 2 to 50. */
const NAME_MIN = 2;
const NAME_MAX = 50;
/** Largest campaign attachment the dialog accepts (the server checks again). */
export const CAMPAIGN_MEDIA_MAX_BYTES = 16 * 1024 * 1024;

const PAST = "campaigns.validation.past";
const INVALID_DATE = "campaigns.validation.invalidDate";

const messageKeys = CAMPAIGN_MESSAGE_SLOTS.map((n) => `message${n}` as const);
const confirmationKeys = CAMPAIGN_MESSAGE_SLOTS.map((n) => `confirmationMessage${n}` as const);
type MessageKey = (typeof messageKeys)[number] | (typeof confirmationKeys)[number];

/** A select's value: "" (none) or the id as text. */
const idSelect = z.string().transform((v) => (v ? Number(v) : null));

/**
 * The form's rules, those of the shared campaignBody on the form's values (spec §5 name 2 to 50; a scheduled
 * campaign needs a connection, a contact list and a message, and a confirmation message when confirmation is
 * on), plus the date read on the company's clock. Its output is the request body.
 */
function campaignSchema(timeZone: string, original: { local: string; iso: string | null }) {
  const text = z.string().max(CAMPAIGN_MESSAGE_MAX, MSG.tooLong);
  return z
    .object({
      name: z.string({ error: MSG.required }).trim().min(1, MSG.required).min(NAME_MIN, MSG.tooShort).max(NAME_MAX, MSG.tooLong),
      whatsappId: idSelect,
      contactListId: idSelect,
      scheduledAt: z
        .string()
        .superRefine((value, ctx) => {
          if (!value) return;
          const at = fromLocalInput(value, timeZone);
          if (!at) ctx.addIssue({ code: "custom", message: INVALID_DATE });
          // A cancelled campaign keeps its old time (spec §4: it stays saveable); a new time must be ahead.
          else if (value !== original.local && at.getTime() <= Date.now()) ctx.addIssue({ code: "custom", message: PAST });
        })
        // An untouched schedule goes back exactly as it came (the input only shows minutes).
        .transform((value) => (!value ? null : value === original.local ? original.iso : fromLocalInput(value, timeZone)!.toISOString())),
      confirmation: z.boolean(),
      message1: text,
      message2: text,
      message3: text,
      message4: text,
      message5: text,
      confirmationMessage1: text,
      confirmationMessage2: text,
      confirmationMessage3: text,
      confirmationMessage4: text,
      confirmationMessage5: text,
    })
    .superRefine((b, ctx) => {
      if (!b.scheduledAt) return;
      if (!b.whatsappId) ctx.addIssue({ code: "custom", path: ["whatsappId"], message: MSG.obrigatorio });
      if (!b.contactListId) ctx.addIssue({ code: "custom", path: ["contactListId"], message: MSG.obrigatorio });
      if (![b.message1, b.message2, b.message3, b.message4, b.message5].some((m) => m.trim() !== ""))
        ctx.addIssue({ code: "custom", path: ["message1"], message: MSG.obrigatorio });
      const confirmations = [b.confirmationMessage1, b.confirmationMessage2, b.confirmationMessage3, b.confirmationMessage4, b.confirmationMessage5];
      if (b.confirmation && !confirmations.some((m) => m.trim() !== ""))
        ctx.addIssue({ code: "custom", path: ["confirmationMessage1"], message: MSG.obrigatorio });
    })
    .transform((b): CampaignBody => b);
}

/** The dialog's title: new, edit, or view when the campaign can no longer change. */
export function campaignTitleKey(campaign: CampaignDTO | null, editable: boolean): string {
  if (!campaign) return "campaigns.dialog.new";
  return editable ? "campaigns.dialog.edit" : "campaigns.dialog.view";
}

/** Add / edit / view a campaign (spec §2, §4 editability, §5 name 2 to 50). */
export function CampaignModal({ open, onClose, campaign }: CampaignModalProps) {
  const { t } = useTranslation();
  const editable = !campaign || isCampaignEditable(campaign);
  return (
    <FormDialog open={open} onClose={onClose} title={t(campaignTitleKey(campaign, editable))} maxWidth="md">
      <CampaignForm key={campaign?.id ?? "new"} campaign={campaign} readOnly={!editable} onClose={onClose} />
    </FormDialog>
  );
}

function CampaignForm({ campaign, readOnly, onClose }: { campaign: CampaignDTO | null; readOnly: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const timeZone = user?.company.timeZone || DEFAULT_TIME_ZONE;
  const save = useSaveCampaign(campaign?.id);
  const media = useCampaignMedia();
  const connections = useConnections();
  const lists = useContactListOptions();
  const settings = useCampaignSettings();
  const attachment = useAttachment(campaign?.mediaName, (picked) =>
    picked.size > CAMPAIGN_MEDIA_MAX_BYTES ? t("campaigns.dialog.mediaTooLarge", { size: Math.round(CAMPAIGN_MEDIA_MAX_BYTES / 1024 / 1024) }) : null,
  );
  const [tab, setTab] = useState<MessageKey>("message1");

  const originalLocal = campaign?.scheduledAt ? toLocalInput(new Date(campaign.scheduledAt), timeZone) : "";
  const originalIso = campaign?.scheduledAt ?? null;
  const schema = useMemo(() => campaignSchema(timeZone, { local: originalLocal, iso: originalIso }), [timeZone, originalLocal, originalIso]);
  const form = useZodForm(schema, {
    defaultValues: {
      name: campaign?.name ?? "",
      whatsappId: campaign?.whatsappId ? String(campaign.whatsappId) : "",
      contactListId: campaign?.contactListId ? String(campaign.contactListId) : "",
      scheduledAt: originalLocal,
      confirmation: campaign?.confirmation ?? false,
      message1: campaign?.message1 ?? "",
      message2: campaign?.message2 ?? "",
      message3: campaign?.message3 ?? "",
      message4: campaign?.message4 ?? "",
      message5: campaign?.message5 ?? "",
      confirmationMessage1: campaign?.confirmationMessage1 ?? "",
      confirmationMessage2: campaign?.confirmationMessage2 ?? "",
      confirmationMessage3: campaign?.confirmationMessage3 ?? "",
      confirmationMessage4: campaign?.confirmationMessage4 ?? "",
      confirmationMessage5: campaign?.confirmationMessage5 ?? "",
    },
    translate: (message) => (message === PAST || message === INVALID_DATE ? t(message) : translateValidation(message)),
  });
  const confirmation = useWatch({ control: form.control, name: "confirmation" });
  // A scheduled campaign needs its connection, list and messages (shared campaignBody).
  const scheduled = !!useWatch({ control: form.control, name: "scheduledAt" });
  const shownTab: MessageKey = !confirmation && tab.startsWith("confirmation") ? "message1" : tab;

  const onSubmit = form.submit(
    async (values) => {
      const saved = await save.mutateAsync(values);
      // The record exists now; its attachment follows (a failed upload keeps the saved campaign and says why).
      if (attachment.file) await media.upload.mutateAsync({ id: saved.id, file: attachment.file });
      else if (attachment.removeCurrent && campaign?.mediaName) await media.remove.mutateAsync(saved.id);
      enqueueSnackbar(t(campaign ? "campaigns.toasts.updated" : "campaigns.toasts.created"), { variant: "success" });
      onClose();
    },
    {
      // Show the tab whose message the schema refused (the other tabs' fields are not on screen).
      onInvalid: (errors) => {
        const first = [...messageKeys, ...confirmationKeys].find((key) => errors[key]);
        if (first) setTab(first);
      },
    },
  );

  const insertVariable = (name: string) => {
    const current = form.getValues(shownTab) ?? "";
    form.setValue(shownTab, `${current}{${name}}`, { shouldDirty: true });
  };

  const customVariables = settings.data?.variables ?? [];
  const connectionOptions = connections.data ?? [];
  const listOptions = lists.data ?? [];

  const fields = (
    <>
      {readOnly && (
        <Alert severity="info" data-testid="campaign-readonly">
          {t("campaigns.dialog.readOnly")}
        </Alert>
      )}
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } }}>
        <TextField {...form.field("name")} label={t("campaigns.form.name")} required autoFocus={!readOnly} disabled={readOnly} fullWidth />
        <Controller
          control={form.control}
          name="confirmation"
          render={({ field }) => (
            <FormControlLabel
              control={<Switch checked={!!field.value} onChange={(e) => field.onChange(e.target.checked)} disabled={readOnly} />}
              label={t("campaigns.form.confirmation")}
            />
          )}
        />
        <Controller
          control={form.control}
          name="whatsappId"
          render={({ field }) => (
            <TextField
              select
              label={t("campaigns.form.connection")}
              required={scheduled}
              value={field.value}
              onChange={(e) => field.onChange(e.target.value)}
              onBlur={field.onBlur}
              disabled={readOnly}
              fullWidth
              {...form.fieldError("whatsappId")}
              slotProps={{ htmlInput: { "data-testid": "campaign-connection" } }}
            >
              {connectionOptions.map((c) => (
                <MenuItem key={c.id} value={String(c.id)}>
                  {c.name}
                </MenuItem>
              ))}
              {/* A campaign whose connection is not among the loaded options still shows its name. */}
              {field.value && !connectionOptions.some((c) => String(c.id) === field.value) && (
                <MenuItem value={field.value}>{campaign?.whatsapp?.name ?? `#${field.value}`}</MenuItem>
              )}
            </TextField>
          )}
        />
        <Controller
          control={form.control}
          name="contactListId"
          render={({ field }) => (
            <TextField
              select
              label={t("campaigns.form.contactList")}
              required={scheduled}
              value={field.value}
              onChange={(e) => field.onChange(e.target.value)}
              onBlur={field.onBlur}
              disabled={readOnly}
              fullWidth
              {...form.fieldError("contactListId")}
            >
              {listOptions.map((l) => (
                <MenuItem key={l.id} value={String(l.id)}>
                  {t("campaigns.form.listOption", { name: l.name, count: l.contactsCount })}
                </MenuItem>
              ))}
              {field.value && !listOptions.some((l) => String(l.id) === field.value) && (
                <MenuItem value={field.value}>{campaign?.contactList?.name ?? `#${field.value}`}</MenuItem>
              )}
            </TextField>
          )}
        />
        <TextField
          {...form.field("scheduledAt", t("campaigns.form.scheduledAtHint", { timeZone }))}
          type="datetime-local"
          label={t("campaigns.form.scheduledAt")}
          disabled={readOnly}
          fullWidth
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 60 } }}
        />
      </Box>

      <Box>
        <Tabs
          value={shownTab}
          onChange={(_e, value: MessageKey) => setTab(value)}
          variant="scrollable"
          scrollButtons="auto"
          aria-label={t("campaigns.form.messages")}
        >
          {messageKeys.map((key, index) => (
            <Tab key={key} value={key} label={t("campaigns.form.messageTab", { n: index + 1 })} />
          ))}
          {confirmation &&
            confirmationKeys.map((key, index) => <Tab key={key} value={key} label={t("campaigns.form.confirmationTab", { n: index + 1 })} />)}
        </Tabs>
        {[...messageKeys, ...(confirmation ? confirmationKeys : [])].map((key) => {
          const n = Number(key.slice(-1));
          const label = key.startsWith("confirmation") ? t("campaigns.form.confirmationMessage", { n }) : t("campaigns.form.message", { n });
          return (
            <Box key={key} role="tabpanel" hidden={shownTab !== key} sx={{ pt: 2 }}>
              {shownTab === key && (
                <TextField
                  {...form.field(key)}
                  label={label}
                  required={scheduled && (key === "message1" || key === "confirmationMessage1")}
                  multiline
                  minRows={5}
                  maxRows={12}
                  fullWidth
                  disabled={readOnly}
                  slotProps={{ htmlInput: { "data-testid": `campaign-${key}` } }}
                />
              )}
            </Box>
          );
        })}
      </Box>

      {!readOnly && (
        <Box data-testid="campaign-variables">
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t("campaigns.form.variablesHelp")}
          </Typography>
          <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1 }}>
            {CAMPAIGN_BUILTIN_VARIABLES.map((name) => (
              <Tooltip key={name} title={t(`campaigns.form.variables.${name}`)}>
                <Chip size="small" label={`{${name}}`} onClick={() => insertVariable(name)} />
              </Tooltip>
            ))}
            {customVariables.map((v) => (
              <Tooltip key={v.key} title={v.value}>
                <Chip size="small" color="primary" variant="outlined" label={`{${v.key}}`} onClick={() => insertVariable(v.key)} />
              </Tooltip>
            ))}
          </Box>
        </Box>
      )}

      <AttachmentField
        attachment={attachment}
        readOnly={readOnly}
        labels={{ attach: t("campaigns.form.attach"), none: t("campaigns.form.noMedia"), remove: t("campaigns.form.removeMedia") }}
        testIds={{ input: "campaign-file", name: "campaign-media-name" }}
      />
    </>
  );

  if (readOnly)
    return (
      <>
        <DialogContent dividers sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
          {fields}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} variant="contained">
            {t("campaigns.dialog.close")}
          </Button>
        </DialogActions>
      </>
    );

  return (
    <DialogForm onSubmit={onSubmit} onCancel={onClose} busy={form.busy} submitLabel={t(campaign ? "campaigns.dialog.save" : "campaigns.dialog.add")}>
      {fields}
    </DialogForm>
  );
}
