import { DUPLICATED_WEEKDAY, INVALID_OPTION, INVALID_TIME, WEEKDAY_LABELS, WEEKDAYS_EN, type WeeklySlotDTO } from "@balcao/shared";
import { Box, TextField, Typography } from "@mui/material";
import { Controller, type Control, type FieldErrors } from "react-hook-form";
import { useTranslation } from "react-i18next";
import i18n from "../../app/i18n";
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

export interface ScheduleFormValues {
  schedules: WeeklySlotDTO[];
}

interface WeeklyScheduleFieldsProps {
  control: Control<ScheduleFormValues>;
  errors?: FieldErrors<ScheduleFormValues>["schedules"];
  disabled?: boolean;
}

/** Seven rows Monday→Sunday with masked start/end times (queue and company opening hours alike). */
export function WeeklyScheduleFields({ control, errors, disabled }: WeeklyScheduleFieldsProps) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1.5 }}>
      <Typography variant="body2" color="text.secondary">
        {t("schedulesEditor.hint")}
      </Typography>
      {WEEKDAYS_EN.map((weekdayEn, index) => {
        const day = t(`schedulesEditor.weekdays.${weekdayEn}`);
        const rowErrors = Array.isArray(errors) ? errors[index] : undefined;
        return (
          <Box key={weekdayEn} role="group" aria-label={day} sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "160px 1fr 1fr" }, gap: 1.5, alignItems: "start" }}>
            <Typography sx={{ pt: { sm: 1 } }}>{day}</Typography>
            {(["startTime", "endTime"] as const).map((field) => (
              <Controller
                key={field}
                name={`schedules.${index}.${field}`}
                control={control}
                render={({ field: f }) => (
                  <TextField
                    size="small"
                    label={t(`schedulesEditor.${field}`)}
                    placeholder="HH:mm"
                    value={f.value ?? ""}
                    onChange={(e) => f.onChange(maskTime(e.target.value))}
                    onBlur={f.onBlur}
                    inputRef={f.ref}
                    name={f.name}
                    disabled={disabled}
                    error={!!rowErrors?.[field]}
                    helperText={translateQueueValidation(rowErrors?.[field]?.message)}
                    slotProps={{ htmlInput: { inputMode: "numeric", maxLength: 5, "aria-label": `${day} — ${t(`schedulesEditor.${field}`)}` } }}
                  />
                )}
              />
            ))}
          </Box>
        );
      })}
      {errors && !Array.isArray(errors) && errors.message && (
        <Typography color="error" variant="body2" role="alert">
          {translateQueueValidation(errors.message)}
        </Typography>
      )}
    </Box>
  );
}
