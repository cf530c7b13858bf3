import { DEFAULT_QUEUE_SCHEDULES, queueCreateBody, weeklyScheduleSchema, type QueueCreateBody, type QueueDTO } from "@balcao/shared";
import { Box, DialogContent, Tab, Tabs, TextField } from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { useEffect, useId, useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client";
import { ColorPicker } from "../../components/ColorPicker";
import { DialogFormActions, FormDialog } from "../../components/form/FormDialog";
import { useZodForm } from "../../components/form/useZodForm";
import { useSetting } from "../settings/api";
import { useSaveQueue } from "./api";
import { QueueOptionsEditor } from "./QueueOptionsEditor";
import { fullWeek, translateQueueValidation, WeeklyScheduleFields } from "./schedules";

interface QueueModalProps {
  open: boolean;
  onClose: () => void;
  /** The queue to edit; absent to add one. */
  queue?: QueueDTO | null;
}

type TabKey = "data" | "schedules";

const queueFormSchema = queueCreateBody
  .pick({ name: true, color: true, greetingMessage: true, outOfHoursMessage: true })
  .extend({ schedules: weeklyScheduleSchema });

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
    <FormDialog open={open} onClose={onClose} maxWidth="md" title={current ? t("queues.modal.editTitle") : t("queues.modal.addTitle")}>
      <QueueForm key={queue?.id ?? "new"} queue={current} onCreated={setCreated} onClose={onClose} />
    </FormDialog>
  );
}

function QueueForm({ queue, onCreated, onClose }: { queue: QueueDTO | null; onCreated: (queue: QueueDTO) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const scheduleType = useSetting("scheduleType");
  const showSchedules = scheduleType === "queue";
  const [tab, setTab] = useState<TabKey>("data");
  const activeTab: TabKey = showSchedules ? tab : "data";
  const save = useSaveQueue(queue?.id);
  const formId = useId();

  const form = useZodForm(queueFormSchema, {
    defaultValues: {
      name: queue?.name ?? "",
      color: queue?.color ?? "",
      greetingMessage: queue?.greetingMessage ?? "",
      outOfHoursMessage: queue?.outOfHoursMessage ?? "",
      // A new queue starts with the server's defaults (Mon–Fri 08:00–18:00, Saturday 08:00–12:00, Sunday closed).
      schedules: fullWeek(queue ? queue.schedules : DEFAULT_QUEUE_SCHEDULES),
    },
    translate: translateQueueValidation,
  });

  const onSubmit = form.submit(
    async (values) => {
      const body: QueueCreateBody = {
        name: values.name,
        color: values.color,
        greetingMessage: values.greetingMessage,
        outOfHoursMessage: values.outOfHoursMessage,
        ...(showSchedules ? { schedules: values.schedules } : {}),
      };
      const saved = await save.mutateAsync(body);
      enqueueSnackbar(t("queues.toasts.saved"), { variant: "success" });
      if (queue) onClose();
      else {
        // A new queue stays open: its option tree can be built now that it exists.
        onCreated(saved);
        form.reset({ ...values, schedules: fullWeek(saved.schedules) });
      }
    },
    {
      codeFields: { ERR_QUEUE_COLOR_ALREADY_EXISTS: "color", ERR_QUEUE_NAME_ALREADY_EXISTS: "name" },
      onError: (err) => {
        if (err instanceof ApiError && (err.code === "ERR_QUEUE_COLOR_ALREADY_EXISTS" || err.code === "ERR_QUEUE_NAME_ALREADY_EXISTS"))
          setTab("data");
      },
      onInvalid: (invalid) => {
        // Show the tab holding the first error.
        if (invalid.name || invalid.color || invalid.greetingMessage || invalid.outOfHoursMessage) setTab("data");
        else if (invalid.schedules && showSchedules) setTab("schedules");
      },
    },
  );

  return (
    <>
      {showSchedules && (
        <Tabs
          value={activeTab}
          onChange={(_e, value: TabKey) => setTab(value)}
          aria-label={t("queues.modal.tabsLabel")}
          sx={{ px: 3, borderBottom: 1, borderColor: "divider" }}
        >
          <Tab value="data" label={t("queues.modal.tabs.data")} id="queue-tab-data" aria-controls="queue-tabpanel-data" />
          <Tab value="schedules" label={t("queues.modal.tabs.schedules")} id="queue-tab-schedules" aria-controls="queue-tabpanel-schedules" />
        </Tabs>
      )}
      <DialogContent dividers>
        <Box component="form" id={formId} noValidate onSubmit={(event) => void onSubmit(event)}>
          {activeTab === "data" && (
            <Box
              role={showSchedules ? "tabpanel" : undefined}
              id="queue-tabpanel-data"
              aria-labelledby={showSchedules ? "queue-tab-data" : undefined}
              sx={{ display: "flex", flexDirection: "column", gap: 2 }}
            >
              <TextField {...form.field("name")} label={t("queues.modal.form.name")} autoFocus fullWidth />
              <Controller
                name="color"
                control={form.control}
                render={({ field }) => (
                  <ColorPicker
                    {...form.fieldError("color")}
                    label={t("queues.modal.form.color")}
                    previewLabel={t("queues.modal.form.colorSelected")}
                    value={field.value}
                    onChange={field.onChange}
                    disabled={form.busy}
                  />
                )}
              />
              <TextField
                {...form.register("greetingMessage")}
                label={t("queues.modal.form.greetingMessage")}
                multiline
                minRows={3}
                maxRows={8}
                fullWidth
              />
              <TextField
                {...form.field("outOfHoursMessage", t("queues.modal.form.variablesHelp"))}
                label={t("queues.modal.form.outOfHoursMessage")}
                multiline
                minRows={2}
                maxRows={8}
                fullWidth
              />
            </Box>
          )}
          {activeTab === "schedules" && (
            <Box role="tabpanel" id="queue-tabpanel-schedules" aria-labelledby="queue-tab-schedules">
              <WeeklyScheduleFields
                timeField={(day, field) => form.field(`schedules.${day}.${field}`)}
                weekError={form.fieldError("schedules").helperText}
                disabled={form.busy}
              />
            </Box>
          )}
          {/* Enter in a single-line field submits even though the buttons sit outside the form. */}
          <button type="submit" hidden aria-hidden tabIndex={-1} />
        </Box>
        {activeTab === "data" && <QueueOptionsEditor queueId={queue?.id} />}
      </DialogContent>
      <DialogFormActions
        formId={formId}
        onCancel={onClose}
        cancelLabel={queue ? t("queues.modal.buttons.close") : undefined}
        busy={form.busy}
        submitLabel={t("common.save")}
      />
    </>
  );
}
