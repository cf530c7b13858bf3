import { can, formatPhoneNumber, type ConnectionDTO } from "@balcao/shared";
import { Box, Button, Typography } from "@mui/material";
import LinkIcon from "@mui/icons-material/Link";
import MonitorHeartOutlined from "@mui/icons-material/MonitorHeartOutlined";
import OpenInNew from "@mui/icons-material/OpenInNew";
import Star from "@mui/icons-material/Star";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useSearchParams } from "react-router";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { ListPage, RowActionButtons, useRecordDialog } from "../../components/list/ListPage";
import { queryList } from "../../components/list/useListData";
import { toastError } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { useConnections, useConnectionsRealtime, useDeleteConnection, useSessionCommand, type SessionCommand } from "./api";
import { ConnectionHealthDialog } from "./ConnectionHealthDialog";
import { ConnectionModal } from "./ConnectionModal";
import { ConnectionStatusChip } from "./ConnectionStatusChip";
import { QrCodeDialog } from "./QrCodeDialog";
import { SessionActions } from "./SessionActions";
import { SimulatorLinkDialog } from "./SimulatorLinkDialog";
import { formatDateTime } from "../../app/format";

const formatUpdatedAt = (iso: string): string => formatDateTime(iso);

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
  const connections = useConnections();
  const list = queryList(connections);
  useConnectionsRealtime();
  const deleteConnection = useDeleteConnection();
  const sessionCommand = useSessionCommand();

  const dialog = useRecordDialog<ConnectionDTO>();
  // /connections?new=1 (the onboarding's "try it without a phone"): the add dialog opens, Simulator chosen.
  const [params, setParams] = useSearchParams();
  const openNew = dialog.openNew;
  const handledNew = useRef(false);
  useEffect(() => {
    if (handledNew.current || params.get("new") !== "1") return;
    handledNew.current = true;
    if (canAdd) openNew();
    setParams({}, { replace: true });
  }, [params, setParams, canAdd, openNew]);
  const [qrFor, setQrFor] = useState<number | null>(null);
  const [linkFor, setLinkFor] = useState<ConnectionDTO | null>(null);
  const [healthFor, setHealthFor] = useState<ConnectionDTO | null>(null);
  // /connections?health=<id> (the connection-alert bell): that connection's health dialog opens.
  const healthParam = Number(params.get("health"));
  useEffect(() => {
    if (!healthParam) return;
    const connection = connections.data?.find((c) => c.id === healthParam);
    if (!connection && connections.isPending) return;
    if (connection) setHealthFor(connection);
    setParams({}, { replace: true });
  }, [healthParam, connections.data, connections.isPending, setParams]);
  const [toDisconnect, setToDisconnect] = useState<ConnectionDTO | null>(null);
  const [running, setRunning] = useState<{ id: number; command: SessionCommand } | null>(null);

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

  const session = (connection: ConnectionDTO) => (
    <Box sx={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 0.5 }}>
      {canAct && (
        <Box sx={{ display: "flex", gap: 0.5, alignItems: "center" }}>
          <SessionActions
            connection={connection}
            busy={running?.id === connection.id ? running.command : null}
            onShowQr={() => setQrFor(connection.id)}
            onCommand={(command) => void runCommand(connection, command)}
            onDisconnect={() => setToDisconnect(connection)}
          />
          <RowActionButtons
            actions={[
              {
                label: t("connections.health.buttonFor", { name: connection.name }),
                tooltip: t("connections.health.button"),
                icon: <MonitorHeartOutlined fontSize="small" />,
                onClick: () => setHealthFor(connection),
              },
            ]}
          />
        </Box>
      )}
      {connection.channel === "simulator" && (
        <Box sx={{ display: "flex", gap: 0.5, alignItems: "center" }}>
          <Button
            size="small"
            component={RouterLink}
            to={`/simulator/${connection.id}`}
            target="_blank"
            rel="noopener"
            endIcon={<OpenInNew fontSize="small" />}
          >
            {t("connections.buttons.openSimulator")}
          </Button>
          <RowActionButtons
            actions={[
              canAct && {
                label: t("connections.simulatorLink.buttonFor", { name: connection.name }),
                tooltip: t("connections.simulatorLink.button"),
                icon: <LinkIcon fontSize="small" />,
                onClick: () => setLinkFor(connection),
              },
            ]}
          />
        </Box>
      )}
    </Box>
  );

  return (
    <ListPage
      title={t("connections.title")}
      add={canAdd ? { label: t("connections.buttons.add"), onClick: dialog.openNew } : undefined}
      list={list}
      rowProps={(connection) => ({ "data-testid": "connection-row", "data-connection-id": connection.id })}
      columns={[
        {
          header: t("connections.table.name"),
          cell: (connection) => (
            <>
              <Typography variant="body2">{connection.name}</Typography>
              <Typography variant="caption" color="text.secondary">
                {t(`connections.channels.${connection.channel}`, { defaultValue: connection.channel })}
              </Typography>
            </>
          ),
        },
        { header: t("connections.table.status"), align: "center", cell: (connection) => <ConnectionStatusChip status={connection.status} /> },
        { header: t("connections.table.session"), align: "center", cell: session },
        {
          header: t("connections.table.number"),
          align: "center",
          cell: (connection) => (connection.number ? formatPhoneNumber(connection.number) : "—"),
        },
        { header: t("connections.table.lastUpdate"), align: "center", cell: (connection) => formatUpdatedAt(connection.updatedAt) },
        {
          header: t("connections.table.default"),
          align: "center",
          cell: (connection) =>
            connection.isDefault && <Star color="warning" titleAccess={t("connections.table.isDefault")} data-testid="connection-default" />,
        },
      ]}
      rowActions={
        canEdit
          ? {
              header: t("connections.table.actions"),
              actions: (connection) => [
                { kind: "edit", label: t("connections.actions.edit", { name: connection.name }), onClick: () => dialog.openEdit(connection) },
                { kind: "delete", label: t("connections.actions.delete", { name: connection.name }) },
              ],
            }
          : undefined
      }
      deletion={{
        title: (connection) => t("connections.confirmationModal.deleteTitle", { name: connection.name }),
        message: t("connections.confirmationModal.deleteMessage"),
        run: (connection) => deleteConnection.mutateAsync(connection.id),
        successMessage: t("connections.toasts.deleted"),
      }}
      empty={{
        title: t("connections.empty"),
        description: canAdd ? t("connections.emptyHint") : t("connections.emptyHintReader"),
        action: canAdd ? (
          <Button variant="outlined" onClick={dialog.openNew}>
            {t("connections.emptyAction")}
          </Button>
        ) : undefined,
      }}
      errorAction={<Button onClick={() => void connections.refetch()}>{t("connections.buttons.retryList")}</Button>}
    >
      <ConnectionModal open={dialog.open} connection={dialog.record} onClose={dialog.close} />
      <QrCodeDialog connectionId={qrFor} onClose={() => setQrFor(null)} />
      <ConnectionHealthDialog
        connectionId={healthFor?.id ?? null}
        name={healthFor?.name ?? ""}
        onClose={() => setHealthFor(null)}
        onScanAgain={() => {
          const connection = healthFor;
          setHealthFor(null);
          if (connection) void runCommand(connection, "newQr").then(() => setQrFor(connection.id));
        }}
      />
      <SimulatorLinkDialog connectionId={linkFor?.id ?? null} name={linkFor?.name ?? ""} onClose={() => setLinkFor(null)} />
      <ConfirmationDialog
        open={!!toDisconnect}
        title={t("connections.confirmationModal.disconnectTitle", { name: toDisconnect?.name ?? "" })}
        onClose={() => setToDisconnect(null)}
        onConfirm={() => void confirmDisconnect()}
        confirmLabel={t("connections.buttons.disconnect")}
      >
        {t("connections.confirmationModal.disconnectMessage")}
      </ConfirmationDialog>
    </ListPage>
  );
}
