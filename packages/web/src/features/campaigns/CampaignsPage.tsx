import { isCampaignEditable, type CampaignDTO } from "@balcao/shared";
import { Box, Chip, Tooltip } from "@mui/material";
import WarningAmberOutlined from "@mui/icons-material/WarningAmberOutlined";
import AssessmentOutlined from "@mui/icons-material/AssessmentOutlined";
import PauseCircleOutline from "@mui/icons-material/PauseCircleOutlined";
import PlayCircleOutline from "@mui/icons-material/PlayCircleOutlined";
import VisibilityOutlined from "@mui/icons-material/VisibilityOutlined";
import { enqueueSnackbar } from "../../components/toasts";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ListPage, useRecordDialog } from "../../components/list/ListPage";
import { useListSearch, usePagedList } from "../../components/list/useListData";
import { errorText, toastError } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { DEFAULT_TIME_ZONE } from "../schedules/time";
import { useCampaignCommand, useCampaignsList, useCampaignsRealtime, useDeleteCampaign } from "./api";
import { CampaignModal } from "./CampaignModal";
import { formatCampaignTime, STATUS_COLORS } from "./status";

/**
 * Campaigns /campaigns (spec §2): name, status, contact list, connection, scheduled at, completed at
 * (DD/MM/YYYY HH:mm on the company's clock), confirmation, actions (stop while running, restart when
 * cancelled, report, edit or view, delete); live through the `campaign` event.
 */
export default function CampaignsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const timeZone = user?.company.timeZone || DEFAULT_TIME_ZONE;
  const navigate = useNavigate();
  const search = useListSearch();
  const list = usePagedList(useCampaignsList(search.searchParam), (page) => page.records);
  const remove = useDeleteCampaign();
  const command = useCampaignCommand();
  const dialog = useRecordDialog<CampaignDTO>();
  // The open dialog follows its campaign (a schedule that starts while it is open turns it read-only).
  useCampaignsRealtime((event) => {
    if (dialog.open && dialog.record && (event.action === "create" || event.action === "update") && event.record.id === dialog.record.id)
      dialog.openEdit({ ...dialog.record, ...event.record });
  });

  const run = async (campaign: CampaignDTO, which: "cancel" | "restart") => {
    try {
      await command.mutateAsync({ id: campaign.id, command: which });
      enqueueSnackbar(t(which === "cancel" ? "campaigns.toasts.cancelled" : "campaigns.toasts.restarted"), { variant: "success" });
    } catch (err) {
      // Spec §8: cancel / restart show the server's error message on failure.
      toastError(err);
    }
  };

  return (
    <ListPage
      title={t("campaigns.title")}
      search={search}
      add={{ label: t("campaigns.buttons.add"), onClick: dialog.openNew }}
      list={list}
      testId="campaigns-scroll"
      rowProps={(c) => ({ "data-testid": "campaign-row", "data-status": c.status })}
      columns={[
        { header: t("campaigns.table.name"), cell: (c) => c.name },
        {
          header: t("campaigns.table.status"),
          cell: (c) => (
            <Box sx={{ display: "flex", alignItems: "center", gap: 0.5 }}>
              <Chip size="small" color={STATUS_COLORS[c.status]} label={t(`campaigns.status.${c.status}`)} data-testid="campaign-status" />
              {/* A running campaign waiting for its connection says why (issue 17: a visible reason). */}
              {c.status === "EM_ANDAMENTO" && c.pauseReason && (
                <Tooltip title={t("campaigns.table.paused", { reason: errorText(c.pauseReason) })}>
                  <WarningAmberOutlined
                    color="warning"
                    fontSize="small"
                    aria-label={t("campaigns.table.paused", { reason: errorText(c.pauseReason) })}
                    aria-hidden={false}
                    data-testid="campaign-paused"
                  />
                </Tooltip>
              )}
            </Box>
          ),
        },
        { header: t("campaigns.table.contactList"), cell: (c) => c.contactList?.name ?? t("campaigns.table.none") },
        { header: t("campaigns.table.connection"), cell: (c) => c.whatsapp?.name ?? t("campaigns.table.none") },
        {
          header: t("campaigns.table.scheduledAt"),
          cellProps: { sx: { whiteSpace: "nowrap" } },
          cell: (c) => formatCampaignTime(c.scheduledAt, timeZone) || t("campaigns.table.notScheduled"),
        },
        {
          header: t("campaigns.table.completedAt"),
          cellProps: { sx: { whiteSpace: "nowrap" } },
          cell: (c) => formatCampaignTime(c.completedAt, timeZone) || t("campaigns.table.notCompleted"),
        },
        { header: t("campaigns.table.confirmation"), cell: (c) => t(c.confirmation ? "campaigns.table.enabled" : "campaigns.table.disabled") },
      ]}
      rowActions={{
        header: t("campaigns.table.actions"),
        actions: (c) => [
          c.status === "EM_ANDAMENTO" && {
            label: t("campaigns.actions.stop", { name: c.name }),
            tooltip: t("campaigns.actions.stopTooltip"),
            icon: <PauseCircleOutline fontSize="small" />,
            onClick: () => void run(c, "cancel"),
          },
          c.status === "CANCELADA" && {
            label: t("campaigns.actions.restart", { name: c.name }),
            tooltip: t("campaigns.actions.restartTooltip"),
            icon: <PlayCircleOutline fontSize="small" />,
            onClick: () => void run(c, "restart"),
          },
          {
            label: t("campaigns.actions.report", { name: c.name }),
            tooltip: t("campaigns.actions.reportTooltip"),
            icon: <AssessmentOutlined fontSize="small" />,
            onClick: () => void navigate(`/campaign/${c.id}/report`),
          },
          isCampaignEditable(c)
            ? { kind: "edit", label: t("campaigns.actions.edit", { name: c.name }), onClick: () => dialog.openEdit(c) }
            : {
                label: t("campaigns.actions.view", { name: c.name }),
                tooltip: t("campaigns.actions.viewTooltip"),
                icon: <VisibilityOutlined fontSize="small" />,
                onClick: () => dialog.openEdit(c),
              },
          // The server refuses to delete a running campaign (ERR_CAMPAIGN_RUNNING): stop it first.
          c.status !== "EM_ANDAMENTO" && { kind: "delete", label: t("campaigns.actions.delete", { name: c.name }) },
        ],
      }}
      deletion={{
        title: (c) => t("campaigns.confirmationModal.deleteTitle", { name: c.name }),
        message: t("campaigns.confirmationModal.deleteMessage"),
        run: (c) => remove.mutateAsync(c.id),
        successMessage: t("campaigns.toasts.deleted"),
      }}
      empty={{ title: t("campaigns.empty"), description: t("campaigns.emptyHint") }}
    >
      <CampaignModal open={dialog.open} campaign={dialog.record} onClose={dialog.close} />
    </ListPage>
  );
}
