import { can, type TagDTO, type TicketDTO } from "@balcao/shared";
import {
  Autocomplete,
  Avatar,
  Box,
  Button,
  Chip,
  CircularProgress,
  IconButton,
  ListItemButton,
  Menu,
  MenuItem,
  Paper,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import ArrowBack from "@mui/icons-material/ArrowBack";
import MoreVert from "@mui/icons-material/MoreVert";
import { useQueryClient } from "@tanstack/react-query";
import { enqueueSnackbar } from "../../components/toasts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { toastError } from "../../components/toastError";
import { useSession } from "../auth/SessionProvider";
import { openTranscript } from "../dashboard/api";
import { syncTicketTags, useDeleteTicket, useTagOptions } from "./api";
import { patchTicketsCache } from "./ticketsCache";
import { useTicketTransitions } from "./useTicketTransitions";
import { readableTextOn } from "../../app/contrast";
import { useInboxActions } from "../keyboard/inboxActions";
import { lazyWhenOpened } from "../../components/lazyWhenOpened";

// The ticket's dialogs download when first opened (issue 20), not with the conversation.
const TransferTicketModal = lazyWhenOpened(() => import("./TransferTicketModal").then((module) => module.TransferTicketModal));
const ShareTicketDialog = lazyWhenOpened(() => import("../chats/ShareTicketDialog").then((module) => module.ShareTicketDialog));
const ScheduleModal = lazyWhenOpened(() => import("../schedules/ScheduleModal").then((module) => module.ScheduleModal));

/** Tag editor of the ticket header (POST /tags/sync). */
export function TagsEditor({ ticket }: { ticket: TicketDTO }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const tags = useTagOptions();
  const [saving, setSaving] = useState(false);
  const options: Pick<TagDTO, "id" | "name" | "color">[] = tags.data ?? [];

  const change = async (next: Pick<TagDTO, "id" | "name" | "color">[]) => {
    const added = next.length > ticket.tags.length;
    setSaving(true);
    try {
      await syncTicketTags(
        ticket.id,
        next.map((tag) => tag.id),
      );
      if (user)
        patchTicketsCache(
          queryClient,
          { action: "update", ticket: { ...ticket, tags: next.map(({ id, name, color }) => ({ id, name, color })) } },
          user,
        );
      enqueueSnackbar(added ? t("tickets.tags.added") : t("tickets.tags.removed"), { variant: "success", autoHideDuration: 2000 });
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Autocomplete
      multiple
      size="small"
      options={options}
      value={ticket.tags}
      disabled={saving}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_e, value) => void change(value)}
      noOptionsText={tags.isError ? t("tickets.tags.unavailable") : t("tickets.tags.none")}
      renderValue={(value, getItemProps) =>
        value.map((tag, index) => {
          const { key, ...props } = getItemProps({ index });
          return <Chip key={key} size="small" label={tag.name} sx={{ bgcolor: tag.color, color: readableTextOn(tag.color) }} {...props} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          variant="standard"
          placeholder={ticket.tags.length === 0 ? t("tickets.tags.placeholder") : ""}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, "aria-label": t("tickets.tags.label") } }}
        />
      )}
      sx={{ px: 2, pb: 1 }}
    />
  );
}

interface TicketHeaderProps {
  ticket: TicketDTO;
  onOpenContact: () => void;
  onBack?: () => void;
}

/** Header of the ticket view (spec §2): contact, status, the action buttons of the status and the options menu. */
export function TicketHeader({ ticket, onOpenContact, onBack }: TicketHeaderProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const { run, busyId } = useTicketTransitions();
  const busy = busyId === ticket.id;
  const remove = useDeleteTicket();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const [transferOpen, setTransferOpen] = useState(false);
  const [scheduleOpen, setScheduleOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [shareOpen, setShareOpen] = useState(false);

  const confirmDelete = async () => {
    try {
      await remove.mutateAsync(ticket.id);
      enqueueSnackbar(t("tickets.toasts.deleted"), { variant: "success", autoHideDuration: 2000 });
      setDeleteOpen(false);
      navigate("/tickets");
    } catch (err) {
      toastError(err);
      setDeleteOpen(false);
    }
  };

  // Keyboard (issue 16): a accepts a pending ticket, r resolves an open one (also in the command palette).
  useInboxActions({
    accept: ticket.status === "pending" && !busy && (() => void run(ticket, "accept")),
    resolve: ticket.status === "open" && !busy && (() => void run(ticket, "resolve")),
  });

  const subtitle = [
    t(`tickets.status.${ticket.status}`),
    ticket.user ? t("tickets.header.assignedTo", { name: ticket.user.name }) : null,
    ticket.queue?.name ?? t("tickets.row.noQueue"),
  ]
    .filter(Boolean)
    .join(" · ");

  return (
    <Paper
      square
      elevation={0}
      role="region"
      aria-label={t("tickets.header.label", { name: ticket.contact.name })}
      sx={{ borderBottom: 1, borderColor: "divider" }}
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, px: 1, py: 0.5, flexWrap: "wrap" }}>
        {onBack && (
          <IconButton aria-label={t("tickets.header.back")} onClick={onBack}>
            <ArrowBack />
          </IconButton>
        )}
        <ListItemButton
          onClick={onOpenContact}
          sx={{ flex: 1, minWidth: 180, gap: 1.5, borderRadius: 1 }}
          aria-label={t("tickets.header.openContact", { name: ticket.contact.name })}
        >
          <Avatar src={ticket.contact.profilePicUrl || undefined} alt={ticket.contact.name}>
            {ticket.contact.name.charAt(0).toUpperCase()}
          </Avatar>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="subtitle1" noWrap component="h2">
              {ticket.contact.name}{" "}
              <Typography component="span" variant="caption" color="text.secondary">
                #{ticket.id}
              </Typography>
            </Typography>
            <Typography variant="caption" color="text.secondary" noWrap component="p" data-testid="ticket-status">
              {subtitle}
            </Typography>
          </Box>
        </ListItemButton>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, ml: "auto" }}>
          {busy && <CircularProgress size={20} aria-label={t("common.loading")} />}
          {ticket.status === "pending" && (
            <Button variant="contained" color="success" size="small" disabled={busy} onClick={() => void run(ticket, "accept")}>
              {t("tickets.buttons.accept")}
            </Button>
          )}
          {ticket.status === "open" && (
            <>
              <Button variant="outlined" size="small" disabled={busy} onClick={() => void run(ticket, "return")}>
                {t("tickets.buttons.return")}
              </Button>
              <Button variant="contained" color="error" size="small" disabled={busy} onClick={() => void run(ticket, "resolve")}>
                {t("tickets.buttons.resolve")}
              </Button>
            </>
          )}
          {ticket.status === "closed" && (
            <Button variant="contained" size="small" disabled={busy} onClick={() => void run(ticket, "reopen")}>
              {t("tickets.buttons.reopen")}
            </Button>
          )}
          <Tooltip title={t("tickets.options.label")}>
            <IconButton aria-label={t("tickets.options.label")} onClick={(e) => setMenuAnchor(e.currentTarget)}>
              <MoreVert />
            </IconButton>
          </Tooltip>
        </Box>
      </Box>
      <TagsEditor ticket={ticket} />
      <Menu anchorEl={menuAnchor} open={!!menuAnchor} onClose={() => setMenuAnchor(null)}>
        <MenuItem
          onClick={() => {
            setMenuAnchor(null);
            setScheduleOpen(true);
          }}
        >
          {t("tickets.options.schedule")}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setMenuAnchor(null);
            setTransferOpen(true);
          }}
        >
          {t("tickets.options.transfer")}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setMenuAnchor(null);
            openTranscript(ticket.id).catch(toastError);
          }}
        >
          {t("transcript.menu")}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setMenuAnchor(null);
            setShareOpen(true);
          }}
        >
          {t("chats.share.menu")}
        </MenuItem>
        {can(user, "ticket-options:deleteTicket") && (
          <MenuItem
            onClick={() => {
              setMenuAnchor(null);
              setDeleteOpen(true);
            }}
            sx={{ color: "error.main" }}
          >
            {t("tickets.options.delete")}
          </MenuItem>
        )}
      </Menu>
      <TransferTicketModal open={transferOpen} ticket={ticket} onClose={() => setTransferOpen(false)} />
      <ShareTicketDialog open={shareOpen} ticket={ticket} onClose={() => setShareOpen(false)} />
      <ScheduleModal
        open={scheduleOpen}
        contact={{ id: ticket.contact.id, name: ticket.contact.name, number: ticket.contact.number }}
        ticketId={ticket.id}
        onClose={() => setScheduleOpen(false)}
      />
      <ConfirmationDialog
        open={deleteOpen}
        title={t("tickets.confirmDelete.title", { id: ticket.id })}
        onClose={() => setDeleteOpen(false)}
        onConfirm={() => void confirmDelete()}
        confirmLabel={t("common.delete")}
        loading={remove.isPending}
      >
        {t("tickets.confirmDelete.message")}
      </ConfirmationDialog>
    </Paper>
  );
}
