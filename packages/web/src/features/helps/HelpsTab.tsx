import type { HelpDTO } from "@balcao/shared";
import { Link } from "@mui/material";
import { useTranslation } from "react-i18next";
import { ListPage, useRecordDialog } from "../../components/list/ListPage";
import { useListSearch, usePagedList } from "../../components/list/useListData";
import { withSpecFailure } from "../companies/specFailure";
import { useDeleteHelp, useHelpsList } from "./api";
import { HelpModal } from "./HelpModal";

/** Settings › Ajuda (super users): the help videos every company sees on /helps. */
export function HelpsTab() {
  const { t } = useTranslation();
  const search = useListSearch();
  const list = usePagedList(useHelpsList(search.searchParam), (page) => page.records);
  const deleteHelp = useDeleteHelp();
  const dialog = useRecordDialog<HelpDTO>();

  return (
    <ListPage
      title={t("helps.manageTitle")}
      search={search}
      add={{ label: t("helps.buttons.add"), onClick: dialog.openNew }}
      list={list}
      testId="helps-scroll"
      rowProps={() => ({ "data-testid": "help-row" })}
      columns={[
        { header: t("helps.table.title"), cell: (help) => help.title },
        {
          header: t("helps.table.description"),
          cell: (help) => (help.description.length > 80 ? `${help.description.slice(0, 80)}…` : help.description),
        },
        {
          header: t("helps.table.video"),
          cell: (help) => (
            <Link href={`https://www.youtube.com/watch?v=${encodeURIComponent(help.video)}`} target="_blank" rel="noopener noreferrer">
              {help.video}
            </Link>
          ),
        },
      ]}
      rowActions={{
        header: t("helps.table.actions"),
        actions: (help) => [
          { kind: "edit", label: t("helps.actions.edit", { title: help.title }), onClick: () => dialog.openEdit(help) },
          { kind: "delete", label: t("helps.actions.delete", { title: help.title }) },
        ],
      }}
      deletion={{
        title: (help) => t("helps.confirmation.title", { title: help.title }),
        message: t("helps.confirmation.message"),
        run: (help) => withSpecFailure(() => deleteHelp.mutateAsync(help.id), t("helps.toasts.deleteFailed")),
        successMessage: t("helps.toasts.deleted"),
      }}
      empty={{ title: t("helps.empty") }}
    >
      <HelpModal open={dialog.open} help={dialog.record} onClose={dialog.close} />
    </ListPage>
  );
}
