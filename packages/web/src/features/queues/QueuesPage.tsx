import { isAdmin, type QueueDTO } from "@balcao/shared";
import { Box, Button, IconButton, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Tooltip, Typography } from "@mui/material";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import LockOutlined from "@mui/icons-material/LockOutlined";
import { enqueueSnackbar } from "notistack";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { EmptyState } from "../../components/EmptyState";
import { LoadingState } from "../../components/LoadingState";
import { PageHeader } from "../../components/PageHeader";
import { toastError } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { useDeleteQueue, useQueueRealtime, useQueues } from "./api";
import { QueueModal } from "./QueueModal";

/** Queues & chatbot /queues (spec §2, admin): name, colour swatch, greeting, edit, delete; live `queue` events. */
export default function QueuesPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  if (!isAdmin(user)) {
    return (
      <Box>
        <PageHeader title={t("pages.queues")} />
        <EmptyState icon={<LockOutlined sx={{ fontSize: 48 }} />} title={t("queues.adminOnly")} />
      </Box>
    );
  }
  return <QueuesAdmin />;
}

function QueuesAdmin() {
  const { t } = useTranslation();
  const list = useQueues();
  useQueueRealtime();
  const deleteQueue = useDeleteQueue();
  const [modal, setModal] = useState<{ open: boolean; queue: QueueDTO | null }>({ open: false, queue: null });
  const [toDelete, setToDelete] = useState<QueueDTO | null>(null);
  const queues = list.data ?? [];
  // The modal edits the freshest copy (a socket update may arrive while it is open).
  const editing = modal.queue ? (queues.find((q) => q.id === modal.queue?.id) ?? modal.queue) : null;

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await deleteQueue.mutateAsync(toDelete.id);
      enqueueSnackbar(t("queues.toasts.deleted"), { variant: "success" });
    } catch (err) {
      toastError(err);
    }
    setToDelete(null);
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%" }}>
      <PageHeader title={t("pages.queues")}>
        <Button variant="contained" onClick={() => setModal({ open: true, queue: null })}>
          {t("queues.buttons.add")}
        </Button>
      </PageHeader>

      <TableContainer sx={{ flexGrow: 1, overflow: "auto" }}>
        <Table size="small" stickyHeader aria-label={t("pages.queues")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("queues.table.name")}</TableCell>
              <TableCell align="center">{t("queues.table.color")}</TableCell>
              <TableCell>{t("queues.table.greeting")}</TableCell>
              <TableCell align="center">{t("queues.table.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {queues.map((queue) => (
              <TableRow key={queue.id} hover>
                <TableCell>{queue.name}</TableCell>
                <TableCell align="center">
                  <Box
                    role="img"
                    aria-label={t("queues.table.colorOf", { color: queue.color })}
                    title={queue.color}
                    sx={{ width: 60, height: 20, mx: "auto", borderRadius: 1, bgcolor: queue.color, border: 1, borderColor: "divider" }}
                  />
                </TableCell>
                <TableCell sx={{ maxWidth: 420 }}>
                  <Typography variant="body2" noWrap title={queue.greetingMessage}>
                    {queue.greetingMessage || "—"}
                  </Typography>
                </TableCell>
                <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
                  <Tooltip title={t("common.edit")}>
                    <IconButton size="small" aria-label={t("queues.actions.edit", { name: queue.name })} onClick={() => setModal({ open: true, queue })}>
                      <EditOutlined fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t("common.delete")}>
                    <IconButton size="small" aria-label={t("queues.actions.delete", { name: queue.name })} onClick={() => setToDelete(queue)}>
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {list.isPending && <LoadingState />}
        {list.isError && <EmptyState title={t("errors.listFailed")} />}
        {list.isSuccess && queues.length === 0 && <EmptyState title={t("queues.empty")} description={t("queues.emptyDescription")} />}
      </TableContainer>

      <QueueModal open={modal.open} queue={editing} onClose={() => setModal({ open: false, queue: null })} />
      <ConfirmationDialog
        open={!!toDelete}
        title={t("queues.confirmationModal.deleteTitle", { name: toDelete?.name ?? "" })}
        onClose={() => setToDelete(null)}
        onConfirm={() => void confirmDelete()}
        confirmLabel={t("common.delete")}
        loading={deleteQueue.isPending}
      >
        {t("queues.confirmationModal.deleteMessage")}
      </ConfirmationDialog>
    </Box>
  );
}
