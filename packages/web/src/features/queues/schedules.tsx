import { DUPLICATED_WEEKDAY, INVALID_OPTION, INVALID_TIME, WEEKDAY_LABELS, WEEKDAYS_EN, type WeeklySlotDTO } from "@balcao/shared";
import { Box, TextField, Typography } from "@mui/material";
import type { UseFormRegisterReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import i18n from "../../app/i18n";
import type { FieldErrorProps } from "../../components/form/useZodForm";
import { translateValidation } from "../../components/toastError";

/** Keeps only digits (at most 4) and shows them as HH:mm while typing (spec §5: times as HH:MM, 4 digits). */
export function maskTime(raw: string): string {
  const digits = raw.replace(/\D/g, "").slice(0, 4);
  return digits.length <= 2 ? digits : `${digits.slice(0, 2)}:${digits.slice(2)}`;
}

/** The seven weekdays, Monday first, taking the given slots' times (a missing day has empty times). */
export function fullWeek(slots: readonly WeeklySlotDTO[] | undefined): WeeklySlotDTO[] {
  return WEEKDAYS_EN.map((weekdayEn) => {
    const slot = slots?.find((s) => s.weekdayEn === weekdayEn);
    return { weekday: WEEKDAY_LABELS[weekdayEn], weekdayEn, startTime: slot?.startTime ?? "", endTime: slot?.endTime ?? "" };
  });
}

const scheduleMessages: Record<string, string> = {
  [INVALID_TIME]: "queues.validation.invalidTime",
  [DUPLICATED_WEEKDAY]: "queues.validation.duplicatedWeekday",
  [INVALID_OPTION]: "queues.validation.invalidOption",
};

/** Field messages of the queue schemas (and the generic ones of spec §5) in the user's language. */
export function translateQueueValidation(message: string | undefined): string | undefined {
  if (!message) return undefined;
  const key = scheduleMessages[message];
  return key ? i18n.t(key) : translateValidation(message);
}

export type TimeField = "startTime" | "endTime";

interface WeeklyScheduleFieldsProps {
  /** The form's binding of one time input: `(day, field) => form.field(\`schedules.${day}.${field}\`)`. */
  timeField: (day: number, field: TimeField) => UseFormRegisterReturn & FieldErrorProps;
  /** A message about the week as a whole (e.g. a repeated weekday). */
  weekError?: string;
  disabled?: boolean;
}

/** Seven rows Monday→Sunday with masked start/end times (queue and company opening hours alike). */
export function WeeklyScheduleFields({ timeField, weekError, disabled }: WeeklyScheduleFieldsProps) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1.5 }}>
      <Typography variant="body2" color="text.secondary">
        {t("schedulesEditor.hint")}
      </Typography>
      {WEEKDAYS_EN.map((weekdayEn, index) => {
        const day = t(`schedulesEditor.weekdays.${weekdayEn}`);
        return (
          <Box
            key={weekdayEn}
            role="group"
            aria-label={day}
            sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "160px 1fr 1fr" }, gap: 1.5, alignItems: "start" }}
          >
            <Typography sx={{ pt: { sm: 1 } }}>{day}</Typography>
            {(["startTime", "endTime"] as const).map((field) => {
              const { onChange, ...input } = timeField(index, field);
              return (
                <TextField
                  key={field}
                  {...input}
                  onChange={(event) => {
                    // Masked in place: the form reads the value from the input it registered.
                    event.target.value = maskTime(event.target.value);
                    return onChange(event);
                  }}
                  size="small"
                  label={t(`schedulesEditor.${field}`)}
                  placeholder="HH:mm"
                  disabled={disabled}
                  slotProps={{ htmlInput: { inputMode: "numeric", maxLength: 5, "aria-label": `${day} — ${t(`schedulesEditor.${field}`)}` } }}
                />
              );
            })}
          </Box>
        );
      })}
      {weekError && (
        <Typography color="error" variant="body2" role="alert">
          {weekError}
        </Typography>
      )}
    </Box>
  );
}
