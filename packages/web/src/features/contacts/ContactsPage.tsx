import { can, formatPhoneNumber, type ContactDTO, type ContactImportResponse } from "@balcao/shared";
import { Avatar, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, LinearProgress, Typography } from "@mui/material";
import FileDownloadOutlined from "@mui/icons-material/FileDownloadOutlined";
import ImportContactsOutlined from "@mui/icons-material/ImportContactsOutlined";
import WhatsApp from "@mui/icons-material/WhatsApp";
import { enqueueSnackbar } from "../../components/toasts";
import { useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { ListPage, useRecordDialog } from "../../components/list/ListPage";
import { useListSearch, usePagedList } from "../../components/list/useListData";
import { toastError } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { useContactsList, useDeleteContact, useImportContacts } from "./api";
import { ContactModal } from "./ContactModal";
import { exportContactsCsv, type ExportProgress } from "./exportCsv";
import { StartTicketDialog } from "./StartTicketDialog";
import { useContactsRealtime } from "./useContactsRealtime";
import { formatNumber } from "../../app/format";

/**
 * Contacts of the company (spec §2): avatar, name, number, email; start ticket, edit, delete (allowed roles);
 * search (500 ms), infinite scroll, import from the phone (with confirmation), add, CSV export of every page.
 */
export default function ContactsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const canDelete = can(user, "contacts-page:deleteContact");
  // ?search= prefills the search (the command palette's contact results link here, issue 16).
  const [searchParams] = useSearchParams();
  const search = useListSearch(undefined, searchParams.get("search") ?? "");
  const list = usePagedList(useContactsList(search.searchParam), (page) => page.contacts);
  const deleteContact = useDeleteContact();
  const importContacts = useImportContacts();
  useContactsRealtime();

  const dialog = useRecordDialog<ContactDTO>();
  const [toStart, setToStart] = useState<ContactDTO | null>(null);
  const [confirmImport, setConfirmImport] = useState(false);
  const [imported, setImported] = useState<ContactImportResponse | null>(null);
  const [exporting, setExporting] = useState<ExportProgress | null>(null);
  const exportAbort = useRef<AbortController | null>(null);

  const runImport = async () => {
    try {
      const result = await importContacts.mutateAsync();
      setImported(result);
      enqueueSnackbar(t("contacts.toasts.imported", { ...result }), { variant: "success" });
    } catch (err) {
      toastError(err);
    }
    setConfirmImport(false);
  };

  const runExport = async () => {
    const controller = new AbortController();
    exportAbort.current = controller;
    setExporting({ page: 0, count: 0 });
    try {
      const count = await exportContactsCsv(search.searchParam, setExporting, controller.signal);
      enqueueSnackbar(t("contacts.toasts.exported", { count }), { variant: "success" });
    } catch (err) {
      if (!controller.signal.aborted) toastError(err);
    } finally {
      exportAbort.current = null;
      setExporting(null);
    }
  };

  return (
    <ListPage
      title={t("contacts.title")}
      search={search}
      headerActions={
        <>
          <Button variant="outlined" startIcon={<ImportContactsOutlined />} onClick={() => setConfirmImport(true)}>
            {t("contacts.buttons.import")}
          </Button>
          <Button variant="outlined" startIcon={<FileDownloadOutlined />} onClick={() => void runExport()} disabled={!!exporting}>
            {t("contacts.buttons.export")}
          </Button>
        </>
      }
      add={{ label: t("contacts.buttons.add"), onClick: dialog.openNew }}
      list={list}
      testId="contacts-scroll"
      rowProps={() => ({ "data-testid": "contact-row" })}
      columns={[
        {
          header: (
            <Box component="span" sx={{ position: "absolute", width: 1, height: 1, overflow: "hidden", clip: "rect(0 0 0 0)" }}>
              {t("contacts.table.avatar")}
            </Box>
          ),
          headerProps: { padding: "checkbox" },
          cellProps: { padding: "checkbox", sx: { pl: 1 } },
          cell: (contact) => (
            <Avatar src={contact.profilePicUrl || undefined} alt={contact.name} sx={{ width: 32, height: 32 }}>
              {contact.name.charAt(0).toUpperCase()}
            </Avatar>
          ),
        },
        { header: t("contacts.table.name"), cell: (contact) => contact.name },
        {
          header: t("contacts.table.number"),
          cellProps: { sx: { whiteSpace: "nowrap" } },
          cell: (contact) => (contact.number ? formatPhoneNumber(contact.number) : "—"),
        },
        { header: t("contacts.table.email"), cell: (contact) => contact.email },
      ]}
      rowActions={{
        header: t("contacts.table.actions"),
        actions: (contact) => [
          {
            label: t("contacts.actions.startTicket", { name: contact.name }),
            tooltip: t("startTicket.title"),
            icon: <WhatsApp fontSize="small" />,
            onClick: () => setToStart(contact),
          },
          { kind: "edit", label: t("contacts.actions.edit", { name: contact.name }), onClick: () => dialog.openEdit(contact) },
          canDelete && { kind: "delete", label: t("contacts.actions.delete", { name: contact.name }) },
        ],
      }}
      deletion={{
        title: (contact) => t("contacts.confirmationModal.deleteTitle", { name: contact.name }),
        message: t("contacts.confirmationModal.deleteMessage"),
        run: (contact) => deleteContact.mutateAsync(contact.id),
        successMessage: t("contacts.toasts.deleted"),
      }}
      empty={{
        title: t("contacts.empty"),
        description: search.searchParam ? t("contacts.emptySearchHint") : t("contacts.emptyHint"),
        action: search.searchParam ? undefined : (
          <Button variant="outlined" onClick={dialog.openNew}>
            {t("contacts.emptyAction")}
          </Button>
        ),
      }}
    >
      <ContactModal open={dialog.open} contact={dialog.record} onClose={dialog.close} />
      <StartTicketDialog contact={toStart} onClose={() => setToStart(null)} />

      <ConfirmationDialog
        open={confirmImport}
        title={t("contacts.confirmationModal.importTitle")}
        onClose={() => setConfirmImport(false)}
        onConfirm={() => void runImport()}
        confirmLabel={t("contacts.confirmationModal.importConfirm")}
        loading={importContacts.isPending}
      >
        {t("contacts.confirmationModal.importMessage")}
        {importContacts.isPending && <LinearProgress sx={{ mt: 2 }} />}
      </ConfirmationDialog>

      <Dialog open={!!imported} onClose={() => setImported(null)} maxWidth="xs" fullWidth aria-labelledby="import-result-title">
        <DialogTitle id="import-result-title">{t("contacts.import.title")}</DialogTitle>
        <DialogContent>
          {imported && (
            <Box component="dl" sx={{ display: "grid", gridTemplateColumns: "1fr auto", rowGap: 1, columnGap: 2, m: 0 }}>
              {(["created", "existing", "skipped"] as const).map((key) => (
                <Box key={key} sx={{ display: "contents" }}>
                  <Typography component="dt">{t(`contacts.import.${key}`)}</Typography>
                  <Typography component="dd" sx={{ m: 0, fontWeight: 600, textAlign: "right" }} data-testid={`import-${key}`}>
                    {formatNumber(imported[key])}
                  </Typography>
                </Box>
              ))}
            </Box>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setImported(null)} variant="contained" autoFocus>
            {t("contacts.import.close")}
          </Button>
        </DialogActions>
      </Dialog>

      <Dialog open={!!exporting} maxWidth="xs" fullWidth aria-labelledby="export-progress-title">
        <DialogTitle id="export-progress-title">{t("contacts.export.title")}</DialogTitle>
        <DialogContent>
          <LinearProgress aria-label={t("contacts.export.title")} />
          <Typography variant="body2" sx={{ mt: 2 }} role="status">
            {t("contacts.export.progress", { count: exporting?.count ?? 0, page: exporting?.page ?? 0 })}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button color="inherit" onClick={() => exportAbort.current?.abort()}>
            {t("contacts.export.cancel")}
          </Button>
        </DialogActions>
      </Dialog>
    </ListPage>
  );
}
