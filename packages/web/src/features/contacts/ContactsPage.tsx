import { can, formatPhoneNumber, type ContactDTO, type ContactImportResponse } from "@balcao/shared";
import {
  Avatar,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from "@mui/material";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import FileDownloadOutlined from "@mui/icons-material/FileDownloadOutlined";
import ImportContactsOutlined from "@mui/icons-material/ImportContactsOutlined";
import WhatsApp from "@mui/icons-material/WhatsApp";
import { enqueueSnackbar } from "notistack";
import { useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { EmptyState } from "../../components/EmptyState";
import { InfiniteScrollArea } from "../../components/InfiniteScrollArea";
import { LoadingState } from "../../components/LoadingState";
import { uniqueById } from "../../components/uniqueById";
import { SearchField } from "../../components/SearchField";
import { PageHeader } from "../../components/PageHeader";
import { toastError } from "../../components/toastError";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";
import { useSession } from "../auth/SessionProvider";
import { useContactsList, useDeleteContact, useImportContacts } from "./api";
import { ContactModal } from "./ContactModal";
import { exportContactsCsv, type ExportProgress } from "./exportCsv";
import { StartTicketDialog } from "./StartTicketDialog";
import { useContactsRealtime } from "./useContactsRealtime";

/**
 * Contacts of the company (spec §2): avatar, name, number, email; start ticket, edit, delete (allowed roles);
 * search (500 ms), infinite scroll, import from the phone (with confirmation), add, CSV export of every page.
 */
export default function ContactsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const canDelete = can(user, "contacts-page:deleteContact");
  const [search, setSearch] = useState("");
  const searchParam = useDebouncedValue(search.trim().toLowerCase(), 500);
  const list = useContactsList(searchParam);
  const deleteContact = useDeleteContact();
  const importContacts = useImportContacts();
  useContactsRealtime();

  const [modal, setModal] = useState<{ open: boolean; contact: ContactDTO | null }>({ open: false, contact: null });
  const [toDelete, setToDelete] = useState<ContactDTO | null>(null);
  const [toStart, setToStart] = useState<ContactDTO | null>(null);
  const [confirmImport, setConfirmImport] = useState(false);
  const [imported, setImported] = useState<ContactImportResponse | null>(null);
  const [exporting, setExporting] = useState<ExportProgress | null>(null);
  const exportAbort = useRef<AbortController | null>(null);

  const contacts = useMemo(() => uniqueById((list.data?.pages ?? []).map((page) => page.contacts)), [list.data]);

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await deleteContact.mutateAsync(toDelete.id);
      enqueueSnackbar(t("contacts.toasts.deleted"), { variant: "success" });
    } catch (err) {
      toastError(err);
    }
    setToDelete(null);
  };

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
      const count = await exportContactsCsv(searchParam, setExporting, controller.signal);
      enqueueSnackbar(t("contacts.toasts.exported", { count }), { variant: "success" });
    } catch (err) {
      if (!controller.signal.aborted) toastError(err);
    } finally {
      exportAbort.current = null;
      setExporting(null);
    }
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%" }}>
      <PageHeader title={t("contacts.title")}>
        <SearchField value={search} onChange={setSearch} />
        <Button variant="outlined" startIcon={<ImportContactsOutlined />} onClick={() => setConfirmImport(true)}>
          {t("contacts.buttons.import")}
        </Button>
        <Button variant="outlined" startIcon={<FileDownloadOutlined />} onClick={() => void runExport()} disabled={!!exporting}>
          {t("contacts.buttons.export")}
        </Button>
        <Button variant="contained" onClick={() => setModal({ open: true, contact: null })}>
          {t("contacts.buttons.add")}
        </Button>
      </PageHeader>

      <InfiniteScrollArea hasMore={!!list.hasNextPage} loading={list.isFetching} onLoadMore={() => void list.fetchNextPage()} data-testid="contacts-scroll">
        <Table size="small" stickyHeader aria-label={t("contacts.title")}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Box component="span" sx={{ position: "absolute", width: 1, height: 1, overflow: "hidden", clip: "rect(0 0 0 0)" }}>
                  {t("contacts.table.avatar")}
                </Box>
              </TableCell>
              <TableCell>{t("contacts.table.name")}</TableCell>
              <TableCell>{t("contacts.table.number")}</TableCell>
              <TableCell>{t("contacts.table.email")}</TableCell>
              <TableCell align="center">{t("contacts.table.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {contacts.map((contact) => (
              <TableRow key={contact.id} hover data-testid="contact-row">
                <TableCell padding="checkbox" sx={{ pl: 1 }}>
                  <Avatar src={contact.profilePicUrl || undefined} alt={contact.name} sx={{ width: 32, height: 32 }}>
                    {contact.name.charAt(0).toUpperCase()}
                  </Avatar>
                </TableCell>
                <TableCell>{contact.name}</TableCell>
                <TableCell sx={{ whiteSpace: "nowrap" }}>{contact.number ? formatPhoneNumber(contact.number) : "—"}</TableCell>
                <TableCell>{contact.email}</TableCell>
                <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
                  <Tooltip title={t("startTicket.title")}>
                    <IconButton size="small" aria-label={t("contacts.actions.startTicket", { name: contact.name })} onClick={() => setToStart(contact)}>
                      <WhatsApp fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t("common.edit")}>
                    <IconButton size="small" aria-label={t("contacts.actions.edit", { name: contact.name })} onClick={() => setModal({ open: true, contact })}>
                      <EditOutlined fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  {canDelete && (
                    <Tooltip title={t("common.delete")}>
                      <IconButton size="small" aria-label={t("contacts.actions.delete", { name: contact.name })} onClick={() => setToDelete(contact)}>
                        <DeleteOutline fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {list.isFetching && <LoadingState />}
        {list.isError && <EmptyState title={t("errors.listFailed")} />}
        {!list.isFetching && !list.isError && contacts.length === 0 && <EmptyState title={t("contacts.empty")} />}
      </InfiniteScrollArea>

      <ContactModal open={modal.open} contact={modal.contact} onClose={() => setModal({ open: false, contact: null })} />
      <StartTicketDialog contact={toStart} onClose={() => setToStart(null)} />

      <ConfirmationDialog
        open={!!toDelete}
        title={t("contacts.confirmationModal.deleteTitle", { name: toDelete?.name ?? "" })}
        onClose={() => setToDelete(null)}
        onConfirm={() => void confirmDelete()}
        confirmLabel={t("common.delete")}
        loading={deleteContact.isPending}
      >
        {t("contacts.confirmationModal.deleteMessage")}
      </ConfirmationDialog>

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
                    {imported[key].toLocaleString("pt-BR")}
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
    </Box>
  );
}
