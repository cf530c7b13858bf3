import {
  CONNECTION_CHANNELS,
  connectionCreateBody,
  connectionUpdateBody,
  type ConnectionChannel,
  type ConnectionDTO,
  type ConnectionUpdateBody,
} from "@balcao/shared";
import { Alert, Box, FormControlLabel, MenuItem, Switch, TextField, Typography } from "@mui/material";
import { useState } from "react";
import { enqueueSnackbar } from "../../components/toasts";
import { Controller, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { ZodType, input, output } from "zod";
import { DialogForm, FormDialog, type DialogState } from "../../components/form/FormDialog";
import { useZodForm } from "../../components/form/useZodForm";
import { QueuesSelect } from "../queues/QueuesSelect";
import { useConnectionQueues, useSaveConnection, useSimulatorAvailable } from "./api";
import { RegenerateTokenButton } from "./RegenerateTokenButton";

/** Cloud API settings: ids are shown back; the three secrets are write-only (blank on edit = keep). */
const CLOUD_FIELDS = ["phoneNumberId", "wabaId", "accessToken", "appSecret", "verifyToken"] as const;
type CloudField = (typeof CLOUD_FIELDS)[number];
const CLOUD_SECRETS: readonly CloudField[] = ["accessToken", "appSecret", "verifyToken"];

const MESSAGE_FIELDS = ["greetingMessage", "complationMessage", "outOfHoursMessage", "ratingMessage", "farewellMessage"] as const;

/** Adding validates with the create schema (which also takes the channel), editing with the update one. */
type ConnectionFormSchema = ZodType<
  output<typeof connectionUpdateBody> & { channel?: ConnectionChannel },
  input<typeof connectionUpdateBody> & { channel?: ConnectionChannel }
>;

/** Add/edit a connection (spec §2, §3): name, channel, default, automatic messages and queues. */
export function ConnectionModal({ connection, ...dialog }: DialogState & { connection?: ConnectionDTO | null }) {
  const { t } = useTranslation();
  const title = connection ? t("connections.modal.editTitle") : t("connections.modal.addTitle");
  return (
    <FormDialog {...dialog} title={title}>
      <ConnectionForm key={connection?.id ?? "new"} connection={connection ?? null} onClose={dialog.onClose} />
    </FormDialog>
  );
}

function ConnectionForm({ connection, onClose }: { connection: ConnectionDTO | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queues = useConnectionQueues(true);
  const simulator = useSimulatorAvailable(!connection);
  const save = useSaveConnection(connection?.id);
  const simulatorOff = simulator.data === false;

  const schema: ConnectionFormSchema = connection ? connectionUpdateBody : connectionCreateBody;
  const form = useZodForm(schema, {
    defaultValues: {
      name: connection?.name ?? "",
      channel: CONNECTION_CHANNELS.find((c) => c === connection?.channel) ?? "simulator",
      isDefault: connection?.isDefault ?? false,
      queueIds: connection?.queues.map((q) => q.id) ?? [],
      greetingMessage: connection?.greetingMessage ?? "",
      complationMessage: connection?.complationMessage ?? "",
      outOfHoursMessage: connection?.outOfHoursMessage ?? "",
      ratingMessage: connection?.ratingMessage ?? "",
      farewellMessage: connection?.farewellMessage ?? "",
      timeSendQueue: connection?.timeSendQueue ?? 0,
      sendIdQueue: connection?.sendIdQueue ?? 0,
    },
  });

  const channelValue = useWatch({ control: form.control, name: "channel" });
  const isCloud = (connection?.channel ?? channelValue) === "cloud-api";
  const [cloud, setCloud] = useState<Record<CloudField, string>>({
    phoneNumberId: connection?.cloudApi?.phoneNumberId ?? "",
    wabaId: "",
    accessToken: "",
    appSecret: "",
    verifyToken: "",
  });
  const [cloudMissing, setCloudMissing] = useState(false);
  /** Only what was typed: an empty secret on edit keeps the stored one. */
  const cloudBody = () => Object.fromEntries(CLOUD_FIELDS.filter((f) => cloud[f].trim()).map((f) => [f, cloud[f].trim()]));

  const onSubmit = form.submit(
    async (values) => {
      // A greeting is required when more than one queue is linked (ERR_WAPP_GREETING_REQUIRED).
      if ((values.queueIds?.length ?? 0) > 1 && !values.greetingMessage?.trim()) {
        form.setError("greetingMessage", { message: t("backendErrors.ERR_WAPP_GREETING_REQUIRED") }, { shouldFocus: true });
        return;
      }
      const body: ConnectionUpdateBody = {
        name: values.name,
        isDefault: values.isDefault,
        queueIds: values.queueIds,
        greetingMessage: values.greetingMessage,
        complationMessage: values.complationMessage,
        outOfHoursMessage: values.outOfHoursMessage,
        ratingMessage: values.ratingMessage,
        farewellMessage: values.farewellMessage,
        timeSendQueue: values.timeSendQueue,
        sendIdQueue: values.sendIdQueue,
      };
      const channel = simulatorOff && values.channel === "simulator" ? "baileys" : values.channel;
      if (isCloud) {
        const missing = !connection && ["phoneNumberId", "accessToken", "appSecret", "verifyToken"].some((f) => !cloud[f as CloudField].trim());
        setCloudMissing(missing);
        if (missing) return;
        body.cloudApi = cloudBody();
      }
      await save.mutateAsync(connection ? body : { ...body, name: values.name ?? "", channel });
      enqueueSnackbar(t("connections.toasts.saved"), { variant: "success" });
      onClose();
    },
    { codeFields: { ERR_WAPP_GREETING_REQUIRED: "greetingMessage", ERR_DUPLICATED_CONNECTION: "name" } },
  );

  const queueOptions = queues.data ?? [];

  return (
    <DialogForm
      onSubmit={onSubmit}
      onCancel={onClose}
      busy={form.busy}
      submitLabel={connection ? t("connections.modal.okEdit") : t("connections.modal.okAdd")}
    >
      <Box sx={{ display: "flex", gap: 2, alignItems: "flex-start", flexWrap: "wrap" }}>
        <TextField
          {...form.field("name")}
          label={t("connections.form.name")}
          autoFocus
          required
          sx={{ flex: "1 1 220px" }}
          slotProps={{ htmlInput: { maxLength: 50 } }}
        />
        <Controller
          name="isDefault"
          control={form.control}
          render={({ field }) => (
            <FormControlLabel
              sx={{ mt: 1 }}
              control={<Switch checked={!!field.value} onChange={(e) => field.onChange(e.target.checked)} onBlur={field.onBlur} />}
              label={t("connections.form.isDefault")}
            />
          )}
        />
      </Box>
      <Controller
        name="channel"
        control={form.control}
        render={({ field }) => (
          <TextField
            select
            label={t("connections.form.channel")}
            fullWidth
            disabled={!!connection}
            value={field.value}
            onChange={(e) => field.onChange(e.target.value)}
            onBlur={field.onBlur}
            inputRef={field.ref}
            helperText={connection ? t("connections.form.channelFixed") : simulatorOff ? t("connections.form.simulatorOff") : undefined}
          >
            {CONNECTION_CHANNELS.map((channel) => (
              <MenuItem key={channel} value={channel} disabled={channel === "simulator" && simulatorOff}>
                {t(`connections.channels.${channel}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      {isCloud && (
        <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }} data-testid="cloud-api-settings">
          <Typography variant="subtitle2">{t("connections.cloudApi.title")}</Typography>
          {cloudMissing && <Alert severity="error">{t("backendErrors.ERR_CLOUD_API_SETTINGS_REQUIRED")}</Alert>}
          {CLOUD_FIELDS.map((f) => {
            const secret = CLOUD_SECRETS.includes(f);
            return (
              <TextField
                key={f}
                label={t(`connections.cloudApi.${f}`)}
                type={secret ? "password" : "text"}
                autoComplete={secret ? "new-password" : "off"}
                required={!connection && f !== "wabaId"}
                value={cloud[f]}
                onChange={(e) => setCloud((c) => ({ ...c, [f]: e.target.value }))}
                helperText={
                  secret && connection ? t("connections.cloudApi.secretKept") : f === "wabaId" ? t("connections.cloudApi.wabaIdHelp") : undefined
                }
                fullWidth
                slotProps={{ htmlInput: { maxLength: f === "verifyToken" ? 200 : 1000 } }}
              />
            );
          })}
          <Box>
            <Typography variant="body2">{t("connections.cloudApi.webhookUrl")}</Typography>
            {connection?.cloudApi ? (
              <Typography variant="body2" sx={{ fontFamily: "monospace", wordBreak: "break-all" }} data-testid="cloud-api-webhook-url">
                {`${window.location.origin}${connection.cloudApi.webhookPath}`}
              </Typography>
            ) : (
              <Typography variant="body2" color="text.secondary">
                {t("connections.cloudApi.webhookAfterSave")}
              </Typography>
            )}
            <Typography variant="caption" color="text.secondary">
              {t("connections.cloudApi.webhookHelp")}
            </Typography>
          </Box>
        </Box>
      )}
      {MESSAGE_FIELDS.map((name) => (
        <TextField key={name} {...form.field(name)} label={t(`connections.form.${name}`)} multiline minRows={2} maxRows={5} fullWidth />
      ))}
      <Controller
        name="queueIds"
        control={form.control}
        render={({ field }) => (
          <QueuesSelect
            label={t("connections.form.queues")}
            value={(field.value ?? []).map(Number)}
            onChange={field.onChange}
            onBlur={field.onBlur}
            inputRef={field.ref}
            options={queueOptions}
            known={connection?.queues}
            helperText={
              queues.isError
                ? t("connections.form.queuesFailed")
                : queueOptions.length === 0 && !queues.isLoading
                  ? t("connections.form.noQueues")
                  : undefined
            }
          />
        )}
      />
      {/* Timed queue transfer (spec §3): a ticket still waiting without a queue moves after this many minutes. */}
      <Box sx={{ display: "flex", gap: 2, flexWrap: "wrap" }}>
        <TextField
          {...form.field("timeSendQueue")}
          type="number"
          label={t("connections.form.timeSendQueue")}
          helperText={t("connections.form.timeSendQueueHelp")}
          sx={{ flex: "1 1 200px" }}
          slotProps={{ htmlInput: { min: 0, max: 100000, step: 1 } }}
        />
        <Controller
          name="sendIdQueue"
          control={form.control}
          render={({ field }) => (
            <TextField
              select
              label={t("connections.form.sendIdQueue")}
              sx={{ flex: "1 1 200px" }}
              value={Number(field.value ?? 0)}
              onChange={(e) => field.onChange(Number(e.target.value))}
              onBlur={field.onBlur}
              inputRef={field.ref}
            >
              <MenuItem value={0}>{t("connections.form.sendIdQueueNone")}</MenuItem>
              {queueOptions.map((q) => (
                <MenuItem key={q.id} value={q.id}>
                  {q.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      </Box>
      {/* Send API token (issue 19): shown on the messages API page; regenerated here after a confirmation. */}
      {connection && (
        <Box sx={{ display: "flex", gap: 2, alignItems: "center", flexWrap: "wrap" }}>
          <Box sx={{ flex: "1 1 240px" }}>
            <Typography variant="subtitle2">{t("connections.token.label")}</Typography>
            <Typography variant="body2" color="text.secondary">
              {t("connections.token.help")}
            </Typography>
          </Box>
          <RegenerateTokenButton connection={connection} />
        </Box>
      )}
    </DialogForm>
  );
}
