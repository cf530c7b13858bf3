import { companySchedulesBody, type WeeklySlotDTO } from "@balcao/shared";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Button, CircularProgress } from "@mui/material";
import { enqueueSnackbar } from "notistack";
import { useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../components/EmptyState";
import { LoadingState } from "../../components/LoadingState";
import { toastError } from "../../components/toastError";
import { fullWeek, WeeklyScheduleFields, type ScheduleFormValues } from "../queues/schedules";
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
  const {
    control,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ScheduleFormValues>({
    resolver: zodResolver(companySchedulesBody) as unknown as Resolver<ScheduleFormValues>,
    defaultValues: { schedules: fullWeek(initial) },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync({ schedules: values.schedules });
      reset({ schedules: fullWeek(saved.schedules) });
      enqueueSnackbar(t("settings.toasts.schedulesUpdated"), { variant: "success" });
    } catch (err) {
      toastError(err);
    }
  });
  const busy = isSubmitting || save.isPending;

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label={t("settings.tabs.schedules")} sx={{ py: 1, maxWidth: 720 }}>
      <WeeklyScheduleFields control={control} errors={errors.schedules} disabled={busy} />
      <Box sx={{ display: "flex", justifyContent: "flex-end", mt: 2 }}>
        <Button type="submit" variant="contained" disabled={busy} startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}>
          {t("common.save")}
        </Button>
      </Box>
    </Box>
  );
}
