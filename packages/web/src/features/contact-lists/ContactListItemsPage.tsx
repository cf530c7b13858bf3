import { formatPhoneNumber, type ContactListItemDTO } from "@balcao/shared";
import { Button, Tooltip } from "@mui/material";
import ArrowBack from "@mui/icons-material/ArrowBack";
import CheckCircle from "@mui/icons-material/CheckCircle";
import HelpOutline from "@mui/icons-material/HelpOutlineOutlined";
import HighlightOff from "@mui/icons-material/HighlightOff";
import UploadFileOutlined from "@mui/icons-material/UploadFileOutlined";
import { useRef, type ChangeEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { ListPage, useRecordDialog } from "../../components/list/ListPage";
import { useListSearch, usePagedList } from "../../components/list/useListData";
import { useContactList, useContactListItems, useContactListItemsRealtime, useDeleteContactListItem } from "./api";
import { ContactListItemModal } from "./ContactListItemModal";
import { ImportDialog } from "./ImportDialog";
import { useSpreadsheetImport } from "./useImport";

/** Spec §5: import files accept .xls and .xlsx (and .csv here; old binary .xls is refused by the server with a hint). */
const SPREADSHEET_TYPES = ".xls,.xlsx,.csv";

/** The WhatsApp validity of an item: checked valid, checked without WhatsApp, or not checked yet. */
export function ValidityIcon({ valid }: { valid: boolean | null }) {
  const { t } = useTranslation();
  const [label, icon] =
    valid === true
      ? [t("contactListItems.validity.valid"), <CheckCircle color="success" fontSize="small" />]
      : valid === false
        ? [t("contactListItems.validity.invalid"), <HighlightOff color="error" fontSize="small" />]
        : [t("contactListItems.validity.unchecked"), <HelpOutline color="disabled" fontSize="small" />];
  return (
    <Tooltip title={label}>
      <span role="img" aria-label={label} data-testid="validity">
        {icon}
      </span>
    </Tooltip>
  );
}

/**
 * Contacts of one list /contact-lists/:contactListId/contacts (spec §2): WhatsApp validity, name, number,
 * email, edit, delete, search, add, spreadsheet import (progress and result with the refused rows), back.
 */
export default function ContactListItemsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const parsed = Number(params.contactListId);
  const contactListId = Number.isInteger(parsed) && parsed > 0 ? parsed : 0;
  const contactList = useContactList(contactListId);
  const search = useListSearch();
  const list = usePagedList(useContactListItems(contactListId, search.searchParam), (page) => page.contacts);
  const remove = useDeleteContactListItem(contactListId);
  const dialog = useRecordDialog<ContactListItemDTO>();
  const importer = useSpreadsheetImport(contactListId);
  const fileInput = useRef<HTMLInputElement>(null);
  useContactListItemsRealtime(contactListId);

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (file) void importer.start(file);
  };

  const title = contactList.data ? t("contactListItems.titleOf", { name: contactList.data.name }) : t("contactListItems.title");
  return (
    <ListPage
      title={title}
      search={search}
      headerActions={
        <>
          <Button variant="outlined" startIcon={<ArrowBack />} onClick={() => void navigate("/contact-lists")}>
            {t("contactListItems.buttons.back")}
          </Button>
          <Button variant="outlined" startIcon={<UploadFileOutlined />} onClick={() => fileInput.current?.click()} disabled={contactListId === 0}>
            {t("contactListItems.buttons.import")}
          </Button>
          <input ref={fileInput} type="file" accept={SPREADSHEET_TYPES} hidden onChange={onFile} data-testid="spreadsheet-input" />
        </>
      }
      add={contactListId ? { label: t("contactListItems.buttons.add"), onClick: dialog.openNew } : undefined}
      list={list}
      testId="contact-list-items-scroll"
      rowProps={() => ({ "data-testid": "contact-list-item-row" })}
      columns={[
        { header: t("contactListItems.table.whatsapp"), align: "center", cell: (row) => <ValidityIcon valid={row.isWhatsappValid} /> },
        { header: t("contactListItems.table.name"), cell: (row) => row.name },
        { header: t("contactListItems.table.number"), cell: (row) => formatPhoneNumber(row.number) },
        { header: t("contactListItems.table.email"), cell: (row) => row.email },
      ]}
      rowActions={{
        header: t("contactListItems.table.actions"),
        actions: (row) => [
          { kind: "edit", label: t("contactListItems.actions.edit", { name: row.name }), onClick: () => dialog.openEdit(row) },
          { kind: "delete", label: t("contactListItems.actions.delete", { name: row.name }) },
        ],
      }}
      deletion={{
        title: (row) => t("contactListItems.confirmationModal.deleteTitle", { name: row.name }),
        message: t("contactListItems.confirmationModal.deleteMessage"),
        run: (row) => remove.mutateAsync(row.id),
        successMessage: t("contactListItems.toasts.deleted"),
      }}
      empty={{
        title: contactList.isError ? t("contactListItems.notFound") : t("contactListItems.empty"),
        description: t("contactListItems.emptyHint"),
      }}
    >
      <ContactListItemModal open={dialog.open} record={dialog.record} contactListId={contactListId} onClose={dialog.close} />
      <ImportDialog state={importer.state} onClose={importer.close} />
    </ListPage>
  );
}
