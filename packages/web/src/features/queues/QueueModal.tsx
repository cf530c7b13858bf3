import { DEFAULT_QUEUE_SCHEDULES, queueCreateBody, weeklyScheduleSchema, type QueueDTO, type QueueUpdateBody, type WeeklySlotDTO } from "@balcao/shared";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Tab, Tabs, TextField } from "@mui/material";
import { enqueueSnackbar } from "notistack";
import { useEffect, useState } from "react";
import { Controller, useForm, type Control, type FieldErrors, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client";
import { ColorPicker } from "../../components/ColorPicker";
import { toastError } from "../../components/toastError";
import { useSetting } from "../settings/api";
import { useSaveQueue } from "./api";
import { QueueOptionsEditor } from "./QueueOptionsEditor";
import { fullWeek, translateQueueValidation, WeeklyScheduleFields, type ScheduleFormValues } from "./schedules";

interface QueueModalProps {
  open: boolean;
  onClose: () => void;
  /** The queue to edit; absent to add one. */
  queue?: QueueDTO | null;
}

interface QueueFormValues {
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  schedules: WeeklySlotDTO[];
}

type TabKey = "data" | "schedules";

const queueFormSchema = queueCreateBody.pick({ name: true, color: true, greetingMessage: true, outOfHoursMessage: true }).extend({ schedules: weeklyScheduleSchema });

/**
 * Add/edit a queue (spec §2): tab 'Dados da Fila' (name, colour, greeting and out-of-hours messages, and
 * the chatbot option tree once the queue exists) and, only when the scheduleType setting is 'queue', tab
 * 'Horários de Atendimento' with the weekly hours. A new queue stays open after saving so its options
 * can be built right away.
 */
export function QueueModal({ open, onClose, queue }: QueueModalProps) {
  const { t } = useTranslation();
  const [created, setCreated] = useState<QueueDTO | null>(null);
  useEffect(() => {
    if (!open) setCreated(null);
  }, [open]);
  const current = queue ?? created;
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth scroll="paper" aria-labelledby="queue-modal-title">
      <DialogTitle id="queue-modal-title">{current ? t("queues.modal.editTitle") : t("queues.modal.addTitle")}</DialogTitle>
      {open && <QueueForm key={queue?.id ?? "new"} queue={current} onCreated={setCreated} onClose={onClose} />}
    </Dialog>
  );
}

function QueueForm({ queue, onCreated, onClose }: { queue: QueueDTO | null; onCreated: (queue: QueueDTO) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const scheduleType = useSetting("scheduleType");
  const showSchedules = scheduleType === "queue";
  const [tab, setTab] = useState<TabKey>("data");
  const activeTab: TabKey = showSchedules ? tab : "data";
  const save = useSaveQueue(queue?.id);

  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<QueueFormValues>({
    resolver: zodResolver(queueFormSchema) as unknown as Resolver<QueueFormValues>,
    defaultValues: {
      name: queue?.name ?? "",
      color: queue?.color ?? "",
      greetingMessage: queue?.greetingMessage ?? "",
      outOfHoursMessage: queue?.outOfHoursMessage ?? "",
      // A new queue starts with the server's defaults (Mon–Fri 08:00–18:00, Saturday 08:00–12:00, Sunday closed).
      schedules: fullWeek(queue ? queue.schedules : DEFAULT_QUEUE_SCHEDULES),
    },
  });

  const onSubmit = handleSubmit(
    async (values) => {
      const body: QueueUpdateBody = {
        name: values.name,
        color: values.color,
        greetingMessage: values.greetingMessage,
        outOfHoursMessage: values.outOfHoursMessage,
        ...(showSchedules ? { schedules: values.schedules } : {}),
      };
      try {
        const saved = await save.mutateAsync(body as Parameters<typeof save.mutateAsync>[0]);
        enqueueSnackbar(t("queues.toasts.saved"), { variant: "success" });
        if (queue) onClose();
        else {
          // A new queue stays open: its option tree can be built now that it exists.
          onCreated(saved);
          reset({ ...values, schedules: fullWeek(saved.schedules) });
        }
      } catch (err) {
        if (err instanceof ApiError) {
          if (err.code === "ERR_QUEUE_COLOR_ALREADY_EXISTS") setError("color", { message: t("backendErrors.ERR_QUEUE_COLOR_ALREADY_EXISTS") });
          if (err.code === "ERR_QUEUE_NAME_ALREADY_EXISTS") setError("name", { message: t("backendErrors.ERR_QUEUE_NAME_ALREADY_EXISTS") });
          if (err.code === "ERR_QUEUE_COLOR_ALREADY_EXISTS" || err.code === "ERR_QUEUE_NAME_ALREADY_EXISTS") setTab("data");
        }
        toastError(err);
      }
    },
    (invalid) => {
      // Show the tab holding the first error.
      if (invalid.name || invalid.color || invalid.greetingMessage || invalid.outOfHoursMessage) setTab("data");
      else if (invalid.schedules && showSchedules) setTab("schedules");
    },
  );

  const busy = isSubmitting || save.isPending;

  return (
    <>
      {showSchedules && (
        <Tabs value={activeTab} onChange={(_e, value: TabKey) => setTab(value)} aria-label={t("queues.modal.tabsLabel")} sx={{ px: 3, borderBottom: 1, borderColor: "divider" }}>
          <Tab value="data" label={t("queues.modal.tabs.data")} id="queue-tab-data" aria-controls="queue-tabpanel-data" />
          <Tab value="schedules" label={t("queues.modal.tabs.schedules")} id="queue-tab-schedules" aria-controls="queue-tabpanel-schedules" />
        </Tabs>
      )}
      <DialogContent dividers>
        <Box component="form" id="queue-form" noValidate onSubmit={onSubmit}>
          {activeTab === "data" && (
            <Box
              role={showSchedules ? "tabpanel" : undefined}
              id="queue-tabpanel-data"
              aria-labelledby={showSchedules ? "queue-tab-data" : undefined}
              sx={{ display: "flex", flexDirection: "column", gap: 2 }}
            >
              <TextField
                {...register("name")}
                label={t("queues.modal.form.name")}
                autoFocus
                fullWidth
                error={!!errors.name}
                helperText={translateQueueValidation(errors.name?.message)}
              />
              <Controller
                name="color"
                control={control}
                render={({ field }) => (
                  <ColorPicker
                    label={t("queues.modal.form.color")}
                    previewLabel={t("queues.modal.form.colorSelected")}
                    value={field.value}
                    onChange={field.onChange}
                    disabled={busy}
                    error={!!errors.color}
                    helperText={translateQueueValidation(errors.color?.message)}
                  />
                )}
              />
              <TextField {...register("greetingMessage")} label={t("queues.modal.form.greetingMessage")} multiline minRows={3} maxRows={8} fullWidth />
              <TextField
                {...register("outOfHoursMessage")}
                label={t("queues.modal.form.outOfHoursMessage")}
                multiline
                minRows={2}
                maxRows={8}
                fullWidth
                helperText={t("queues.modal.form.variablesHelp")}
              />
            </Box>
          )}
          {activeTab === "schedules" && (
            <Box role="tabpanel" id="queue-tabpanel-schedules" aria-labelledby="queue-tab-schedules">
              <WeeklyScheduleFields
                control={control as unknown as Control<ScheduleFormValues>}
                errors={errors.schedules as FieldErrors<ScheduleFormValues>["schedules"]}
                disabled={busy}
              />
            </Box>
          )}
          {/* Enter in a single-line field submits even though the buttons sit outside the form. */}
          <button type="submit" hidden aria-hidden tabIndex={-1} />
        </Box>
        {activeTab === "data" && <QueueOptionsEditor queueId={queue?.id} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" disabled={busy}>
          {queue ? t("queues.modal.buttons.close") : t("common.cancel")}
        </Button>
        <Button type="submit" form="queue-form" variant="contained" disabled={busy} startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}>
          {t("common.save")}
        </Button>
      </DialogActions>
    </>
  );
}
