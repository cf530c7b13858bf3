import { isAdmin, type QuickMessageDTO } from "@balcao/shared";
import { useTranslation } from "react-i18next";
import { ListPage, useRecordDialog } from "../../components/list/ListPage";
import { useListSearch, usePagedList } from "../../components/list/useListData";
import { useSession } from "../auth/SessionProvider";
import { useDeleteQuickMessage, useQuickMessagesList, useQuickMessagesRealtime } from "./api";
import { QuickMessageModal } from "./QuickMessageModal";

/** Quick replies of the company (spec §2): shortcode, message, edit/delete (the author or an admin), add, search. */
export default function QuickMessagesPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const search = useListSearch();
  const list = usePagedList(useQuickMessagesList(search.searchParam), (page) => page.records);
  const deleteQuickMessage = useDeleteQuickMessage();
  useQuickMessagesRealtime();
  const dialog = useRecordDialog<QuickMessageDTO>();

  // docs/api.md: the author or an admin edits or deletes.
  const canManage = (record: QuickMessageDTO) => isAdmin(user) || (!!user && record.userId === user.id);

  return (
    <ListPage
      title={t("quickMessages.title")}
      search={search}
      add={{ label: t("quickMessages.buttons.add"), onClick: dialog.openNew }}
      list={list}
      testId="quick-messages-scroll"
      rowProps={() => ({ "data-testid": "quick-message-row" })}
      columns={[
        {
          header: t("quickMessages.table.shortcode"),
          cellProps: { sx: { fontFamily: "monospace", whiteSpace: "nowrap" } },
          cell: (record) => `/${record.shortcode}`,
        },
        {
          header: t("quickMessages.table.message"),
          cellProps: { sx: { whiteSpace: "pre-wrap", wordBreak: "break-word" } },
          cell: (record) => record.message,
        },
      ]}
      rowActions={{
        header: t("quickMessages.table.actions"),
        actions: (record) =>
          canManage(record)
            ? [
                { kind: "edit", label: t("quickMessages.actions.edit", { shortcode: record.shortcode }), onClick: () => dialog.openEdit(record) },
                { kind: "delete", label: t("quickMessages.actions.delete", { shortcode: record.shortcode }) },
              ]
            : [],
      }}
      deletion={{
        title: (record) => t("quickMessages.confirmationModal.deleteTitle", { shortcode: record.shortcode }),
        message: t("quickMessages.confirmationModal.deleteMessage"),
        run: (record) => deleteQuickMessage.mutateAsync(record.id),
        successMessage: t("quickMessages.toasts.deleted"),
      }}
      empty={{ title: t("quickMessages.empty") }}
    >
      <QuickMessageModal open={dialog.open} quickMessage={dialog.record} onClose={dialog.close} />
    </ListPage>
  );
}
