import { companySchedulesBody, type WeeklySlotDTO } from "@balcao/shared";
import { Box, Button, CircularProgress } from "@mui/material";
import { enqueueSnackbar } from "../../components/toasts";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../components/EmptyState";
import { useZodForm } from "../../components/form/useZodForm";
import { LoadingState } from "../../components/LoadingState";
import { fullWeek, translateQueueValidation, WeeklyScheduleFields } from "../queues/schedules";
import { useCompanySchedules, useSaveCompanySchedules } from "./api";

/** Horários tab: the company's weekly opening hours (used when scheduleType is 'company'). */
export function CompanySchedules({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const schedules = useCompanySchedules(companyId);
  if (schedules.isPending) return <LoadingState />;
  if (schedules.isError) return <EmptyState title={t("settings.schedules.loadFailed")} />;
  return <SchedulesForm companyId={companyId} initial={schedules.data.schedules} />;
}

function SchedulesForm({ companyId, initial }: { companyId: number; initial: WeeklySlotDTO[] }) {
  const { t } = useTranslation();
  const save = useSaveCompanySchedules(companyId);
  const form = useZodForm(companySchedulesBody, { defaultValues: { schedules: fullWeek(initial) }, translate: translateQueueValidation });

  const onSubmit = form.submit(async (values) => {
    const saved = await save.mutateAsync({ schedules: values.schedules });
    form.reset({ schedules: fullWeek(saved.schedules) });
    enqueueSnackbar(t("settings.toasts.schedulesUpdated"), { variant: "success" });
  });

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      aria-label={t("settings.tabs.schedules")}
      sx={{ py: 1, maxWidth: 720 }}
    >
      <WeeklyScheduleFields
        timeField={(day, field) => form.field(`schedules.${day}.${field}`)}
        weekError={form.fieldError("schedules").helperText}
        disabled={form.busy}
      />
      <Box sx={{ display: "flex", justifyContent: "flex-end", mt: 2 }}>
        <Button
          type="submit"
          variant="contained"
          disabled={form.busy}
          startIcon={form.busy ? <CircularProgress size={18} color="inherit" /> : undefined}
        >
          {t("common.save")}
        </Button>
      </Box>
    </Box>
  );
}
