import { isAdmin, SCHEDULE_PREVIEW_CHARS, type ScheduleDTO, type ScheduleStatus } from "@balcao/shared";
import { Chip, Tooltip } from "@mui/material";
import VisibilityOutlined from "@mui/icons-material/VisibilityOutlined";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { ListPage } from "../../components/list/ListPage";
import { useListSearch, usePagedList } from "../../components/list/useListData";
import { toastError } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { useContactRef, useDeleteSchedule, useSchedulesList, useSchedulesRealtime } from "./api";
import { ScheduleModal, type ScheduleContact } from "./ScheduleModal";
import { DEFAULT_TIME_ZONE, formatScheduleTime } from "./time";

const STATUS_COLORS: Record<ScheduleStatus, "default" | "info" | "success" | "error"> = {
  PENDENTE: "default",
  AGENDADA: "info",
  ENVIADA: "success",
  ERRO: "error",
};

/** Spec §9: the body cut at 25 characters. */
export function previewBody(body: string): string {
  const chars = [...body];
  return chars.length > SCHEDULE_PREVIEW_CHARS ? `${chars.slice(0, SCHEDULE_PREVIEW_CHARS).join("")}…` : body;
}

type DialogState = { open: false } | { open: true; schedule: ScheduleDTO | null; contact: ScheduleContact | null };

/**
 * Scheduled messages /schedules (spec §2): contact, body (25 characters), send time (DD/MM/YYYY HH:mm:ss on
 * the company's clock), status, actions; live through the `schedule` event. ?contactId= opens a new one.
 */
export default function SchedulesPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const timeZone = user?.company.timeZone || DEFAULT_TIME_ZONE;
  const search = useListSearch();
  const list = usePagedList(useSchedulesList(search.searchParam), (page) => page.schedules);
  const remove = useDeleteSchedule();
  const [dialog, setDialog] = useState<DialogState>({ open: false });
  // The dialog shows the live state of its schedule (sent or failed while it is open).
  useSchedulesRealtime((event) =>
    setDialog((current) =>
      current.open && current.schedule && event.action !== "delete" && event.schedule.id === current.schedule.id
        ? { ...current, schedule: event.schedule }
        : current,
    ),
  );

  const [params, setParams] = useSearchParams();
  const contactParam = Number(params.get("contactId"));
  const contactId = Number.isInteger(contactParam) && contactParam > 0 ? contactParam : null;
  const linked = useContactRef(contactId);
  useEffect(() => {
    if (!contactId) return;
    if (linked.data) {
      setDialog({ open: true, schedule: null, contact: { id: linked.data.id, name: linked.data.name, number: linked.data.number } });
      setParams({}, { replace: true });
    } else if (linked.isError) {
      toastError(linked.error);
      setParams({}, { replace: true });
    }
  }, [contactId, linked.data, linked.isError]); // eslint-disable-line react-hooks/exhaustive-deps

  const mayModify = (s: ScheduleDTO) => isAdmin(user) || s.userId === user?.id;

  return (
    <ListPage
      title={t("schedules.title")}
      search={search}
      add={{ label: t("schedules.buttons.add"), onClick: () => setDialog({ open: true, schedule: null, contact: null }) }}
      list={list}
      testId="schedules-scroll"
      rowProps={(s) => ({ "data-testid": "schedule-row", "data-status": s.status })}
      columns={[
        { header: t("schedules.table.contact"), cell: (s) => s.contact?.name ?? "—" },
        {
          header: t("schedules.table.body"),
          cell: (s) => (
            <Tooltip title={s.body}>
              <span>{previewBody(s.body)}</span>
            </Tooltip>
          ),
        },
        { header: t("schedules.table.sendAt"), cellProps: { sx: { whiteSpace: "nowrap" } }, cell: (s) => formatScheduleTime(s.sendAt, timeZone) },
        {
          header: t("schedules.table.status"),
          cell: (s) => <Chip size="small" color={STATUS_COLORS[s.status]} label={t(`schedules.status.${s.status}`)} data-testid="schedule-status" />,
        },
      ]}
      rowActions={{
        header: t("schedules.table.actions"),
        actions: (s) => {
          const editable = mayModify(s) && !s.sentAt && s.status !== "AGENDADA";
          const label = s.contact?.name ?? String(s.id);
          return [
            editable
              ? {
                  kind: "edit",
                  label: t("schedules.actions.edit", { name: label }),
                  onClick: () => setDialog({ open: true, schedule: s, contact: null }),
                }
              : {
                  label: t("schedules.actions.view", { name: label }),
                  tooltip: t("schedules.actions.viewTooltip"),
                  icon: <VisibilityOutlined fontSize="small" />,
                  onClick: () => setDialog({ open: true, schedule: s, contact: null }),
                },
            mayModify(s) && s.status !== "AGENDADA" && { kind: "delete", label: t("schedules.actions.delete", { name: label }) },
          ];
        },
      }}
      deletion={{
        title: () => t("schedules.confirmationModal.deleteTitle"),
        message: t("schedules.confirmationModal.deleteMessage"),
        run: (s) => remove.mutateAsync(s.id),
        successMessage: t("schedules.toasts.deleted"),
      }}
      empty={{ title: t("schedules.empty"), description: t("schedules.emptyHint") }}
    >
      <ScheduleModal
        open={dialog.open}
        schedule={dialog.open ? dialog.schedule : null}
        contact={dialog.open ? dialog.contact : null}
        onClose={() => setDialog({ open: false })}
      />
    </ListPage>
  );
}
