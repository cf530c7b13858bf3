import { can, formatPhoneNumber, type ConnectionDTO } from "@balcao/shared";
import { Box, Button, IconButton, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Tooltip, Typography } from "@mui/material";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import LinkIcon from "@mui/icons-material/Link";
import OpenInNew from "@mui/icons-material/OpenInNew";
import Star from "@mui/icons-material/Star";
import { format } from "date-fns";
import { enqueueSnackbar } from "notistack";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { EmptyState } from "../../components/EmptyState";
import { LoadingState } from "../../components/LoadingState";
import { PageHeader } from "../../components/PageHeader";
import { toastError } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { useConnections, useConnectionsRealtime, useDeleteConnection, useSessionCommand, type SessionCommand } from "./api";
import { ConnectionModal } from "./ConnectionModal";
import { ConnectionStatusChip } from "./ConnectionStatusChip";
import { QrCodeDialog } from "./QrCodeDialog";
import { SessionActions } from "./SessionActions";
import { SimulatorLinkDialog } from "./SimulatorLinkDialog";

function formatUpdatedAt(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : format(date, "dd/MM/yy HH:mm");
}

/**
 * Connections page (spec §2): table with status, session actions by status, QR dialog, add/edit dialog,
 * live updates from the `whatsapp` / `whatsappSession` events. Admins act; other profiles only read.
 */
export default function ConnectionsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const canAdd = can(user, "connections-page:addConnection");
  const canAct = can(user, "connections-page:actionButtons");
  const canEdit = can(user, "connections-page:editOrDeleteConnection");
  const list = useConnections();
  useConnectionsRealtime();
  const deleteConnection = useDeleteConnection();
  const sessionCommand = useSessionCommand();

  const [modal, setModal] = useState<{ open: boolean; connection: ConnectionDTO | null }>({ open: false, connection: null });
  const [qrFor, setQrFor] = useState<number | null>(null);
  const [linkFor, setLinkFor] = useState<ConnectionDTO | null>(null);
  const [toDelete, setToDelete] = useState<ConnectionDTO | null>(null);
  const [toDisconnect, setToDisconnect] = useState<ConnectionDTO | null>(null);
  const [running, setRunning] = useState<{ id: number; command: SessionCommand } | null>(null);

  const connections = list.data ?? [];

  const runCommand = async (connection: ConnectionDTO, command: SessionCommand) => {
    setRunning({ id: connection.id, command });
    try {
      await sessionCommand.mutateAsync({ connectionId: connection.id, command });
    } catch (err) {
      toastError(err);
    } finally {
      setRunning(null);
    }
  };

  const confirmDisconnect = async () => {
    const connection = toDisconnect;
    if (!connection) return;
    setToDisconnect(null);
    await runCommand(connection, "disconnect");
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await deleteConnection.mutateAsync(toDelete.id);
      enqueueSnackbar(t("connections.toasts.deleted"), { variant: "success" });
    } catch (err) {
      toastError(err);
    }
    setToDelete(null);
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%" }}>
      <PageHeader title={t("connections.title")}>
        {canAdd && (
          <Button variant="contained" onClick={() => setModal({ open: true, connection: null })}>
            {t("connections.buttons.add")}
          </Button>
        )}
      </PageHeader>

      <TableContainer sx={{ flex: 1, minHeight: 0 }}>
        <Table size="small" stickyHeader aria-label={t("connections.title")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("connections.table.name")}</TableCell>
              <TableCell align="center">{t("connections.table.status")}</TableCell>
              <TableCell align="center">{t("connections.table.session")}</TableCell>
              <TableCell align="center">{t("connections.table.number")}</TableCell>
              <TableCell align="center">{t("connections.table.lastUpdate")}</TableCell>
              <TableCell align="center">{t("connections.table.default")}</TableCell>
              {canEdit && <TableCell align="center">{t("connections.table.actions")}</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {connections.map((connection) => (
              <TableRow key={connection.id} hover data-testid="connection-row" data-connection-id={connection.id}>
                <TableCell>
                  <Typography variant="body2">{connection.name}</Typography>
                  <Typography variant="caption" color="text.secondary">
                    {t(`connections.channels.${connection.channel}`, { defaultValue: connection.channel })}
                  </Typography>
                </TableCell>
                <TableCell align="center">
                  <ConnectionStatusChip status={connection.status} />
                </TableCell>
                <TableCell align="center">
                  <Box sx={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 0.5 }}>
                    {canAct && (
                      <SessionActions
                        connection={connection}
                        busy={running?.id === connection.id ? running.command : null}
                        onShowQr={() => setQrFor(connection.id)}
                        onCommand={(command) => void runCommand(connection, command)}
                        onDisconnect={() => setToDisconnect(connection)}
                      />
                    )}
                    {connection.channel === "simulator" && (
                      <Box sx={{ display: "flex", gap: 0.5, alignItems: "center" }}>
                        <Button size="small" component={RouterLink} to={`/simulator/${connection.id}`} target="_blank" rel="noopener" endIcon={<OpenInNew fontSize="small" />}>
                          {t("connections.buttons.openSimulator")}
                        </Button>
                        {canAct && (
                          <Tooltip title={t("connections.simulatorLink.button")}>
                            <IconButton size="small" aria-label={t("connections.simulatorLink.buttonFor", { name: connection.name })} onClick={() => setLinkFor(connection)}>
                              <LinkIcon fontSize="small" />
                            </IconButton>
                          </Tooltip>
                        )}
                      </Box>
                    )}
                  </Box>
                </TableCell>
                <TableCell align="center">{connection.number ? formatPhoneNumber(connection.number) : "—"}</TableCell>
                <TableCell align="center">{formatUpdatedAt(connection.updatedAt)}</TableCell>
                <TableCell align="center">
                  {connection.isDefault && <Star color="warning" titleAccess={t("connections.table.isDefault")} data-testid="connection-default" />}
                </TableCell>
                {canEdit && (
                  <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
                    <Tooltip title={t("common.edit")}>
                      <IconButton size="small" aria-label={t("connections.actions.edit", { name: connection.name })} onClick={() => setModal({ open: true, connection })}>
                        <EditOutlined fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t("common.delete")}>
                      <IconButton size="small" aria-label={t("connections.actions.delete", { name: connection.name })} onClick={() => setToDelete(connection)}>
                        <DeleteOutline fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {list.isLoading && <LoadingState />}
        {list.isError && <EmptyState title={t("errors.listFailed")} action={<Button onClick={() => void list.refetch()}>{t("connections.buttons.retryList")}</Button>} />}
        {list.isSuccess && connections.length === 0 && <EmptyState title={t("connections.empty")} description={canAdd ? t("connections.emptyHint") : undefined} />}
      </TableContainer>

      <ConnectionModal open={modal.open} connection={modal.connection} onClose={() => setModal({ open: false, connection: null })} />
      <QrCodeDialog connectionId={qrFor} onClose={() => setQrFor(null)} />
      <SimulatorLinkDialog connectionId={linkFor?.id ?? null} name={linkFor?.name ?? ""} onClose={() => setLinkFor(null)} />
      <ConfirmationDialog
        open={!!toDelete}
        title={t("connections.confirmationModal.deleteTitle", { name: toDelete?.name ?? "" })}
        onClose={() => setToDelete(null)}
        onConfirm={() => void confirmDelete()}
        confirmLabel={t("common.delete")}
        loading={deleteConnection.isPending}
      >
        {t("connections.confirmationModal.deleteMessage")}
      </ConfirmationDialog>
      <ConfirmationDialog
        open={!!toDisconnect}
        title={t("connections.confirmationModal.disconnectTitle", { name: toDisconnect?.name ?? "" })}
        onClose={() => setToDisconnect(null)}
        onConfirm={() => void confirmDisconnect()}
        confirmLabel={t("connections.buttons.disconnect")}
      >
        {t("connections.confirmationModal.disconnectMessage")}
      </ConfirmationDialog>
    </Box>
  );
}
