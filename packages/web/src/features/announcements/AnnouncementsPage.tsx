import { isSuper, type AnnouncementDTO } from "@balcao/shared";
import { Box, Chip } from "@mui/material";
import LockOutlined from "@mui/icons-material/LockOutlined";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../components/EmptyState";
import { ListPage, useRecordDialog } from "../../components/list/ListPage";
import { useListSearch, usePagedList } from "../../components/list/useListData";
import { PageHeader } from "../../components/PageHeader";
import { useSession } from "../auth/SessionProvider";
import { withSpecFailure } from "../companies/specFailure";
import { useAnnouncementsList, useDeleteAnnouncement } from "./api";
import { AnnouncementModal } from "./AnnouncementModal";
import { PriorityChip } from "./AnnouncementViewer";

/** Announcements /announcements (spec §2, super users): title, priority, attachment or 'Sem anexo', status, actions. */
export default function AnnouncementsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  if (!isSuper(user)) {
    return (
      <Box>
        <PageHeader title={t("announcements.title")} />
        <EmptyState icon={<LockOutlined sx={{ fontSize: 48 }} />} title={t("announcements.superOnly")} />
      </Box>
    );
  }
  return <AnnouncementsManager />;
}

function AnnouncementsManager() {
  const { t } = useTranslation();
  const search = useListSearch();
  const list = usePagedList(useAnnouncementsList(search.searchParam), (page) => page.records);
  const remove = useDeleteAnnouncement();
  const dialog = useRecordDialog<AnnouncementDTO>();

  return (
    <ListPage
      title={t("announcements.title")}
      search={search}
      add={{ label: t("announcements.buttons.add"), onClick: dialog.openNew }}
      list={list}
      testId="announcements-scroll"
      rowProps={() => ({ "data-testid": "announcement-row" })}
      columns={[
        { header: t("announcements.table.title"), cell: (a) => a.title },
        { header: t("announcements.table.priority"), align: "center", cell: (a) => <PriorityChip priority={a.priority} /> },
        { header: t("announcements.table.attachment"), cell: (a) => a.mediaName ?? t("announcements.noAttachment") },
        {
          header: t("announcements.table.status"),
          align: "center",
          cell: (a) => (
            <Chip
              size="small"
              color={a.status ? "success" : "default"}
              label={a.status ? t("announcements.status.active") : t("announcements.status.inactive")}
            />
          ),
        },
      ]}
      rowActions={{
        header: t("announcements.table.actions"),
        actions: (a) => [
          { kind: "edit", label: t("announcements.actions.edit", { title: a.title }), onClick: () => dialog.openEdit(a) },
          { kind: "delete", label: t("announcements.actions.delete", { title: a.title }) },
        ],
      }}
      deletion={{
        title: (a) => t("announcements.confirmation.title", { title: a.title }),
        message: t("announcements.confirmation.message"),
        run: (a) => withSpecFailure(() => remove.mutateAsync(a.id), t("announcements.toasts.deleteFailed")),
        successMessage: t("announcements.toasts.deleted"),
      }}
      empty={{ title: t("announcements.empty") }}
    >
      <AnnouncementModal open={dialog.open} announcement={dialog.record} onClose={dialog.close} />
    </ListPage>
  );
}
