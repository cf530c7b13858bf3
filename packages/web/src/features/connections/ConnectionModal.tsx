import { CONNECTION_CHANNELS, connectionCreateBody, connectionUpdateBody, type ConnectionChannel, type ConnectionCreateBody, type ConnectionDTO } from "@balcao/shared";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, Chip, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, MenuItem, Switch, TextField } from "@mui/material";
import { enqueueSnackbar } from "notistack";
import { Controller, useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client";
import { errorText, toastError, translateValidation } from "../../components/toastError";
import { useConnectionQueues, useSaveConnection, useSimulatorAvailable } from "./api";

interface ConnectionModalProps {
  open: boolean;
  onClose: () => void;
  /** The connection to edit; absent to add one. */
  connection?: ConnectionDTO | null;
}

const MESSAGE_FIELDS = ["greetingMessage", "complationMessage", "outOfHoursMessage", "ratingMessage", "farewellMessage"] as const;
type MessageField = (typeof MESSAGE_FIELDS)[number];

const FORM_FIELDS = new Set<string>(["name", "channel", "isDefault", "queueIds", ...MESSAGE_FIELDS]);

type ConnectionFormValues = {
  name: string;
  channel: ConnectionChannel;
  isDefault: boolean;
  queueIds: number[];
} & Record<MessageField, string>;

/** Add/edit a connection (spec §2, §3): name, channel, default, automatic messages and queues. */
export function ConnectionModal({ open, onClose, connection }: ConnectionModalProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="connection-modal-title" scroll="paper">
      <DialogTitle id="connection-modal-title">{connection ? t("connections.modal.editTitle") : t("connections.modal.addTitle")}</DialogTitle>
      {open && <ConnectionForm key={connection?.id ?? "new"} connection={connection ?? null} onClose={onClose} />}
    </Dialog>
  );
}

function ConnectionForm({ connection, onClose }: { connection: ConnectionDTO | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queues = useConnectionQueues(true);
  const simulator = useSimulatorAvailable(!connection);
  const save = useSaveConnection(connection?.id);
  const simulatorOff = simulator.data === false;

  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ConnectionFormValues>({
    resolver: zodResolver(connection ? connectionUpdateBody : connectionCreateBody) as unknown as Resolver<ConnectionFormValues>,
    defaultValues: {
      name: connection?.name ?? "",
      channel: (connection?.channel as ConnectionChannel | undefined) ?? "simulator",
      isDefault: connection?.isDefault ?? false,
      queueIds: connection?.queues.map((q) => q.id) ?? [],
      greetingMessage: connection?.greetingMessage ?? "",
      complationMessage: connection?.complationMessage ?? "",
      outOfHoursMessage: connection?.outOfHoursMessage ?? "",
      ratingMessage: connection?.ratingMessage ?? "",
      farewellMessage: connection?.farewellMessage ?? "",
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    // A greeting is required when more than one queue is linked (ERR_WAPP_GREETING_REQUIRED).
    if (values.queueIds.length > 1 && !values.greetingMessage.trim()) {
      setError("greetingMessage", { message: t("backendErrors.ERR_WAPP_GREETING_REQUIRED") }, { shouldFocus: true });
      return;
    }
    const body: ConnectionCreateBody = {
      name: values.name.trim(),
      isDefault: values.isDefault,
      queueIds: values.queueIds,
      greetingMessage: values.greetingMessage,
      complationMessage: values.complationMessage,
      outOfHoursMessage: values.outOfHoursMessage,
      ratingMessage: values.ratingMessage,
      farewellMessage: values.farewellMessage,
    };
    if (!connection) body.channel = simulatorOff && values.channel === "simulator" ? "baileys" : values.channel;
    try {
      await save.mutateAsync(body);
      enqueueSnackbar(t("connections.toasts.saved"), { variant: "success" });
      onClose();
    } catch (err) {
      if (err instanceof ApiError) {
        if (err.code === "ERR_WAPP_GREETING_REQUIRED") setError("greetingMessage", { message: errorText(err) });
        if (err.code === "ERR_DUPLICATED_CONNECTION") setError("name", { message: errorText(err) });
        for (const issue of err.body.issues ?? []) {
          const field = String(issue.path).split(".")[0] as keyof ConnectionFormValues;
          if (FORM_FIELDS.has(field)) setError(field, { message: translateValidation(issue.message) });
        }
      }
      toastError(err);
    }
  });

  const queueOptions = queues.data ?? [];
  const busy = isSubmitting || save.isPending;

  return (
    <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: "contents" }}>
      <DialogContent dividers sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
        <Box sx={{ display: "flex", gap: 2, alignItems: "flex-start", flexWrap: "wrap" }}>
          <TextField
            {...register("name")}
            label={t("connections.form.name")}
            autoFocus
            required
            sx={{ flex: "1 1 220px" }}
            error={!!errors.name}
            helperText={translateValidation(errors.name?.message)}
            slotProps={{ htmlInput: { maxLength: 50 } }}
          />
          <Controller
            name="isDefault"
            control={control}
            render={({ field }) => (
              <FormControlLabel
                sx={{ mt: 1 }}
                control={<Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} onBlur={field.onBlur} />}
                label={t("connections.form.isDefault")}
              />
            )}
          />
        </Box>
        <Controller
          name="channel"
          control={control}
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
        {MESSAGE_FIELDS.map((name) => (
          <TextField
            key={name}
            {...register(name)}
            label={t(`connections.form.${name}`)}
            multiline
            minRows={2}
            maxRows={5}
            fullWidth
            error={!!errors[name]}
            helperText={translateValidation(errors[name]?.message)}
          />
        ))}
        <Controller
          name="queueIds"
          control={control}
          render={({ field }) => (
            <TextField
              select
              label={t("connections.form.queues")}
              fullWidth
              value={field.value}
              onChange={(e) => field.onChange(e.target.value as unknown as number[])}
              onBlur={field.onBlur}
              inputRef={field.ref}
              helperText={queues.isError ? t("connections.form.queuesFailed") : queueOptions.length === 0 && !queues.isLoading ? t("connections.form.noQueues") : undefined}
              slotProps={{
                select: {
                  multiple: true,
                  renderValue: (selected) => (
                    <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
                      {(selected as number[]).map((id) => {
                        const queue = queueOptions.find((q) => q.id === id) ?? connection?.queues.find((q) => q.id === id);
                        return <Chip key={id} size="small" label={queue?.name ?? id} sx={{ bgcolor: queue?.color, color: queue ? "#fff" : undefined }} />;
                      })}
                    </Box>
                  ),
                },
              }}
            >
              {queueOptions.map((queue) => (
                <MenuItem key={queue.id} value={queue.id}>
                  {queue.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" disabled={busy}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" variant="contained" disabled={busy} startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}>
          {connection ? t("connections.modal.okEdit") : t("connections.modal.okAdd")}
        </Button>
      </DialogActions>
    </Box>
  );
}
