import { formatPhoneNumber, isAdmin, MSG, SCHEDULE_DEFAULT_DELAY_MS, scheduleBodyField, type ScheduleDTO, type ScheduleStatus } from "@balcao/shared";
import { Alert, Autocomplete, Button, CircularProgress, DialogActions, DialogContent, TextField } from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { useMemo, useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { DialogForm, FormDialog } from "../../components/form/FormDialog";
import { useZodForm } from "../../components/form/useZodForm";
import { toastError, translateValidation } from "../../components/toastError";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";
import { useSession } from "../auth/SessionProvider";
import { CONTACT_SEARCH_MIN, useContactOptions, useRetrySchedule, useSaveSchedule } from "./api";
import { DEFAULT_TIME_ZONE, fromLocalInput, toLocalInput } from "./time";

/** The contact a schedule goes to (a row of the contacts search, a ticket's contact, a schedule's contact). */
export interface ScheduleContact {
  id: number;
  name: string;
  number: string | null;
}

interface ScheduleModalProps {
  open: boolean;
  onClose: () => void;
  /** The schedule to show or edit; none for a new one. */
  schedule?: ScheduleDTO | null;
  /** A new schedule for this contact (the ticket's options menu, /schedules?contactId=). */
  contact?: ScheduleContact | null;
  /** Made from this ticket: it goes out on the ticket's connection, and the contact cannot change. */
  ticketId?: number;
}

const PAST = "ERR_SCHEDULE_IN_PAST";
const contactLabel = (c: ScheduleContact) => `${c.name}${c.number ? ` - ${formatPhoneNumber(c.number)}` : ""}`;
const INVALID_DATE = "Invalid date";

/** The dialog's title shows the status (spec §4); a failed one reads 'Erro de Envio'. */
export function scheduleTitleKey(status: ScheduleStatus | null): string {
  return status ? `schedules.dialog.titles.${status}` : "schedules.dialog.titles.new";
}

/** Add / view / edit a scheduled message (spec §2 Modals, §4 Schedule message, §5). */
export function ScheduleModal({ open, onClose, schedule, contact, ticketId }: ScheduleModalProps) {
  const { t } = useTranslation();
  return (
    <FormDialog open={open} onClose={onClose} title={t(scheduleTitleKey(schedule?.status ?? null))}>
      <ScheduleForm
        key={schedule?.id ?? `new-${contact?.id ?? ""}`}
        schedule={schedule ?? null}
        contact={contact ?? null}
        ticketId={ticketId}
        onClose={onClose}
      />
    </FormDialog>
  );
}

function ScheduleForm({
  schedule,
  contact,
  ticketId,
  onClose,
}: {
  schedule: ScheduleDTO | null;
  contact: ScheduleContact | null;
  ticketId?: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { user } = useSession();
  const timeZone = user?.company.timeZone || DEFAULT_TIME_ZONE;
  const save = useSaveSchedule(schedule?.id);
  const retry = useRetrySchedule();

  const sent = !!schedule?.sentAt || schedule?.status === "ENVIADA";
  const sending = schedule?.status === "AGENDADA";
  const mayModify = !schedule || isAdmin(user) || schedule.userId === user?.id;
  const readOnly = sent || sending || !mayModify;
  const lockContact = !!ticketId;

  const schema = useMemo(
    () =>
      z.object({
        contactId: z.number({ error: MSG.obrigatorio }).int().positive(MSG.obrigatorio),
        body: scheduleBodyField,
        sendAt: z
          .string()
          .min(1, MSG.obrigatorio)
          .superRefine((value, ctx) => {
            const at = fromLocalInput(value, timeZone);
            if (!at) ctx.addIssue({ code: "custom", message: INVALID_DATE });
            else if (at.getTime() <= Date.now()) ctx.addIssue({ code: "custom", message: PAST });
          })
          .transform((value) => fromLocalInput(value, timeZone)!.toISOString()),
      }),
    [timeZone],
  );

  const initialContact = schedule?.contact ?? contact;
  const form = useZodForm(schema, {
    defaultValues: {
      contactId: schedule?.contactId ?? contact?.id ?? 0,
      body: schedule?.body ?? "",
      // Spec §4/§9: a new schedule starts one hour from now.
      sendAt: toLocalInput(schedule ? new Date(schedule.sendAt) : new Date(Date.now() + SCHEDULE_DEFAULT_DELAY_MS), timeZone),
    },
    translate: (message) =>
      message === PAST ? t(`backendErrors.${PAST}`) : message === INVALID_DATE ? t("schedules.dialog.invalidDate") : translateValidation(message),
  });

  const [selected, setSelected] = useState<ScheduleContact | null>(initialContact ?? null);
  const [input, setInput] = useState("");
  // The box shows the chosen contact's label: that is not a search.
  const typed = selected && input === contactLabel(selected) ? "" : input;
  const searchParam = useDebouncedValue(typed.trim().toLowerCase(), 500);
  const tooShort = typed.trim().length < CONTACT_SEARCH_MIN;
  const options = useContactOptions(lockContact || readOnly ? "" : searchParam);

  const onSubmit = form.submit(
    async (values) => {
      const saved = await save.mutateAsync({ ...values, ...(ticketId && { ticketId }) });
      enqueueSnackbar(t(schedule ? "schedules.toasts.updated" : "schedules.toasts.created"), { variant: "success" });
      void saved;
      onClose();
    },
    { codeFields: { ERR_SCHEDULE_IN_PAST: "sendAt", ERR_NO_CONTACT_FOUND: "contactId" } },
  );

  const runRetry = async () => {
    if (!schedule) return;
    try {
      await retry.mutateAsync(schedule.id);
      enqueueSnackbar(t("schedules.toasts.retried"), { variant: "success" });
      onClose();
    } catch (err) {
      toastError(err);
    }
  };

  const fields = (
    <>
      {schedule?.status === "ERRO" && (
        <Alert severity="error" data-testid="schedule-error">
          {schedule.lastError ? t(`backendErrors.${schedule.lastError}`, { defaultValue: schedule.lastError }) : t("schedules.dialog.failed")}
        </Alert>
      )}
      {sent && schedule?.sentAt && <Alert severity="success">{t("schedules.dialog.sentInfo")}</Alert>}
      <Controller
        control={form.control}
        name="contactId"
        render={({ field }) => (
          <Autocomplete
            options={tooShort ? [] : (options.data ?? [])}
            value={selected}
            disabled={readOnly || lockContact}
            onChange={(_e, value) => {
              setSelected(value);
              field.onChange(value?.id ?? 0);
            }}
            inputValue={input}
            onInputChange={(_e, value) => setInput(value)}
            getOptionLabel={contactLabel}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            filterOptions={(x) => x}
            loading={!tooShort && options.isFetching}
            noOptionsText={tooShort ? t("schedules.dialog.typeMore", { count: CONTACT_SEARCH_MIN }) : t("schedules.dialog.noContacts")}
            renderInput={(params) => (
              <TextField
                {...params}
                label={t("schedules.dialog.contact")}
                required
                autoFocus={!selected && !readOnly}
                {...form.fieldError("contactId")}
                slotProps={{
                  ...params.slotProps,
                  input: {
                    ...params.slotProps.input,
                    endAdornment: (
                      <>
                        {!tooShort && options.isFetching ? <CircularProgress color="inherit" size={18} /> : null}
                        {params.slotProps.input.endAdornment}
                      </>
                    ),
                  },
                }}
              />
            )}
          />
        )}
      />
      <TextField
        {...form.field("body")}
        label={t("schedules.dialog.body")}
        required
        multiline
        minRows={4}
        maxRows={10}
        fullWidth
        autoFocus={!!selected && !readOnly}
        disabled={readOnly}
        slotProps={{ htmlInput: { "data-testid": "schedule-body" } }}
      />
      <TextField
        {...form.field("sendAt", t("schedules.dialog.timeZoneHint", { timeZone }))}
        type="datetime-local"
        label={t("schedules.dialog.sendAt")}
        required
        fullWidth
        disabled={readOnly}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 60 } }}
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
            {t("schedules.dialog.close")}
          </Button>
        </DialogActions>
      </>
    );

  return (
    <>
      <DialogForm
        onSubmit={onSubmit}
        onCancel={onClose}
        busy={form.busy}
        submitLabel={t(schedule ? "schedules.dialog.save" : "schedules.dialog.add")}
      >
        {fields}
      </DialogForm>
      {schedule?.status === "ERRO" && (
        <DialogActions sx={{ pt: 0 }}>
          <Button onClick={() => void runRetry()} disabled={retry.isPending || form.busy} color="error" variant="outlined">
            {t("schedules.dialog.retryNow")}
          </Button>
        </DialogActions>
      )}
    </>
  );
}
