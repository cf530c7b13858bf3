import { isAdmin, type QueueDTO } from "@balcao/shared";
import { Box, Button, Typography } from "@mui/material";
import LockOutlined from "@mui/icons-material/LockOutlined";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../components/EmptyState";
import { ListPage, useRecordDialog } from "../../components/list/ListPage";
import { queryList } from "../../components/list/useListData";
import { PageHeader } from "../../components/PageHeader";
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
  const list = queryList(useQueues());
  useQueueRealtime();
  const deleteQueue = useDeleteQueue();
  const dialog = useRecordDialog<QueueDTO>();
  // The modal edits the freshest copy (a socket update may arrive while it is open).
  const editing = dialog.record ? (list.items.find((q) => q.id === dialog.record?.id) ?? dialog.record) : null;

  return (
    <ListPage
      title={t("pages.queues")}
      add={{ label: t("queues.buttons.add"), onClick: dialog.openNew }}
      list={list}
      columns={[
        { header: t("queues.table.name"), cell: (queue) => queue.name },
        {
          header: t("queues.table.color"),
          align: "center",
          cell: (queue) => (
            <Box
              role="img"
              aria-label={t("queues.table.colorOf", { color: queue.color })}
              title={queue.color}
              sx={{ width: 60, height: 20, mx: "auto", borderRadius: 1, bgcolor: queue.color, border: 1, borderColor: "divider" }}
            />
          ),
        },
        {
          header: t("queues.table.greeting"),
          cellProps: { sx: { maxWidth: 420 } },
          cell: (queue) => (
            <Typography variant="body2" noWrap title={queue.greetingMessage}>
              {queue.greetingMessage || "—"}
            </Typography>
          ),
        },
      ]}
      rowActions={{
        header: t("queues.table.actions"),
        actions: (queue) => [
          { kind: "edit", label: t("queues.actions.edit", { name: queue.name }), onClick: () => dialog.openEdit(queue) },
          { kind: "delete", label: t("queues.actions.delete", { name: queue.name }) },
        ],
      }}
      deletion={{
        title: (queue) => t("queues.confirmationModal.deleteTitle", { name: queue.name }),
        message: t("queues.confirmationModal.deleteMessage"),
        run: (queue) => deleteQueue.mutateAsync(queue.id),
        successMessage: t("queues.toasts.deleted"),
      }}
      empty={{
        title: t("queues.empty"),
        description: t("queues.emptyDescription"),
        action: (
          <Button variant="outlined" onClick={dialog.openNew}>
            {t("queues.emptyAction")}
          </Button>
        ),
      }}
    >
      <QueueModal open={dialog.open} queue={editing} onClose={dialog.close} />
    </ListPage>
  );
}
