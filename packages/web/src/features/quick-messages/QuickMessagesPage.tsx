import { isAdmin, type QuickMessageDTO } from "@balcao/shared";
import { Box, Button, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Tooltip } from "@mui/material";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import { enqueueSnackbar } from "notistack";
import { useMemo, useState } from "react";
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
import { useDeleteQuickMessage, useQuickMessagesList, useQuickMessagesRealtime } from "./api";
import { QuickMessageModal } from "./QuickMessageModal";

/** Quick replies of the company (spec §2): shortcode, message, edit/delete (the author or an admin), add, search. */
export default function QuickMessagesPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [search, setSearch] = useState("");
  const searchParam = useDebouncedValue(search.trim().toLowerCase(), 500);
  const list = useQuickMessagesList(searchParam);
  const deleteQuickMessage = useDeleteQuickMessage();
  useQuickMessagesRealtime();
  const [modal, setModal] = useState<{ open: boolean; quickMessage: QuickMessageDTO | null }>({ open: false, quickMessage: null });
  const [toDelete, setToDelete] = useState<QuickMessageDTO | null>(null);

  const records = useMemo(() => uniqueById((list.data?.pages ?? []).map((page) => page.records)), [list.data]);

  // docs/api.md: the author or an admin edits or deletes.
  const canManage = (record: QuickMessageDTO) => isAdmin(user) || (!!user && record.userId === user.id);

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await deleteQuickMessage.mutateAsync(toDelete.id);
      enqueueSnackbar(t("quickMessages.toasts.deleted"), { variant: "success" });
    } catch (err) {
      toastError(err);
    }
    setToDelete(null);
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%" }}>
      <PageHeader title={t("quickMessages.title")}>
        <SearchField value={search} onChange={setSearch} />
        <Button variant="contained" onClick={() => setModal({ open: true, quickMessage: null })}>
          {t("quickMessages.buttons.add")}
        </Button>
      </PageHeader>

      <InfiniteScrollArea hasMore={!!list.hasNextPage} loading={list.isFetching} onLoadMore={() => void list.fetchNextPage()} data-testid="quick-messages-scroll">
        <Table size="small" stickyHeader aria-label={t("quickMessages.title")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("quickMessages.table.shortcode")}</TableCell>
              <TableCell>{t("quickMessages.table.message")}</TableCell>
              <TableCell align="center">{t("quickMessages.table.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {records.map((record) => (
              <TableRow key={record.id} hover data-testid="quick-message-row">
                <TableCell sx={{ fontFamily: "monospace", whiteSpace: "nowrap" }}>/{record.shortcode}</TableCell>
                <TableCell sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>{record.message}</TableCell>
                <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
                  {canManage(record) && (
                    <>
                      <Tooltip title={t("common.edit")}>
                        <IconButton size="small" aria-label={t("quickMessages.actions.edit", { shortcode: record.shortcode })} onClick={() => setModal({ open: true, quickMessage: record })}>
                          <EditOutlined fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={t("common.delete")}>
                        <IconButton size="small" aria-label={t("quickMessages.actions.delete", { shortcode: record.shortcode })} onClick={() => setToDelete(record)}>
                          <DeleteOutline fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {list.isFetching && <LoadingState />}
        {list.isError && <EmptyState title={t("errors.listFailed")} />}
        {!list.isFetching && !list.isError && records.length === 0 && <EmptyState title={t("quickMessages.empty")} />}
      </InfiniteScrollArea>

      <QuickMessageModal open={modal.open} quickMessage={modal.quickMessage} onClose={() => setModal({ open: false, quickMessage: null })} />
      <ConfirmationDialog
        open={!!toDelete}
        title={t("quickMessages.confirmationModal.deleteTitle", { shortcode: toDelete?.shortcode ?? "" })}
        onClose={() => setToDelete(null)}
        onConfirm={() => void confirmDelete()}
        confirmLabel={t("common.delete")}
        loading={deleteQuickMessage.isPending}
      >
        {t("quickMessages.confirmationModal.deleteMessage")}
      </ConfirmationDialog>
    </Box>
  );
}
