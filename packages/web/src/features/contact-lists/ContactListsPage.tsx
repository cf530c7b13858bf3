import type { ContactListDTO } from "@balcao/shared";
import { Button } from "@mui/material";
import DownloadOutlined from "@mui/icons-material/DownloadOutlined";
import PeopleAltOutlined from "@mui/icons-material/PeopleAltOutlined";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ListPage, useRecordDialog } from "../../components/list/ListPage";
import { useListSearch, usePagedList } from "../../components/list/useListData";
import { toastError } from "../../components/toastError";
import { downloadSample, useContactLists, useContactListsRealtime, useDeleteContactList } from "./api";
import { ContactListModal } from "./ContactListModal";
import { formatNumber } from "../../app/format";

/** Contact lists /contact-lists (spec §2): name, contacts count, sample spreadsheet, open items, edit, delete, search, add. */
export default function ContactListsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const search = useListSearch();
  const list = usePagedList(useContactLists(search.searchParam), (page) => page.records);
  const remove = useDeleteContactList();
  const dialog = useRecordDialog<ContactListDTO>();
  const [downloading, setDownloading] = useState(false);
  useContactListsRealtime();

  const sample = async () => {
    setDownloading(true);
    try {
      await downloadSample();
    } catch (err) {
      toastError(err);
    }
    setDownloading(false);
  };

  return (
    <ListPage
      title={t("contactLists.title")}
      search={search}
      headerActions={
        <Button variant="outlined" startIcon={<DownloadOutlined />} onClick={() => void sample()} disabled={downloading}>
          {t("contactLists.buttons.sample")}
        </Button>
      }
      add={{ label: t("contactLists.buttons.add"), onClick: dialog.openNew }}
      list={list}
      testId="contact-lists-scroll"
      rowProps={() => ({ "data-testid": "contact-list-row" })}
      columns={[
        { header: t("contactLists.table.name"), cell: (row) => row.name },
        {
          header: t("contactLists.table.contacts"),
          align: "center",
          cellProps: { "data-testid": "contact-list-count" },
          cell: (row) => formatNumber(row.contactsCount),
        },
      ]}
      rowActions={{
        header: t("contactLists.table.actions"),
        actions: (row) => [
          {
            label: t("contactLists.actions.open", { name: row.name }),
            tooltip: t("contactLists.actions.openTooltip"),
            icon: <PeopleAltOutlined fontSize="small" />,
            onClick: () => void navigate(`/contact-lists/${row.id}/contacts`),
          },
          { kind: "edit", label: t("contactLists.actions.edit", { name: row.name }), onClick: () => dialog.openEdit(row) },
          { kind: "delete", label: t("contactLists.actions.delete", { name: row.name }) },
        ],
      }}
      deletion={{
        title: (row) => t("contactLists.confirmationModal.deleteTitle", { name: row.name }),
        message: t("contactLists.confirmationModal.deleteMessage"),
        run: (row) => remove.mutateAsync(row.id),
        successMessage: t("contactLists.toasts.deleted"),
      }}
      empty={{ title: t("contactLists.empty"), description: t("contactLists.emptyHint") }}
    >
      <ContactListModal open={dialog.open} record={dialog.record} onClose={dialog.close} />
    </ListPage>
  );
}
