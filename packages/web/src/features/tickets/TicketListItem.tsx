import { can, type TicketDTO } from "@balcao/shared";
import { Avatar, Badge, Box, Button, Chip, IconButton, ListItem, ListItemAvatar, ListItemButton, Tooltip, Typography } from "@mui/material";
import AndroidOutlined from "@mui/icons-material/AndroidOutlined";
import VisibilityOutlined from "@mui/icons-material/VisibilityOutlined";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { useSession } from "../auth/SessionProvider";
import { stripWhatsApp } from "../messages/whatsappMarkers";
import { formatTicketTime } from "./time";
import type { TicketTransition } from "./useTicketTransitions";
import { readableTextOn } from "../../app/contrast";

/** The row's last message without WhatsApp markup (issue 16); a location (or its picture) shows 'Localização'. */
export function lastMessagePreview(lastMessage: string, locationLabel: string): string {
  if (!lastMessage) return "";
  if (lastMessage.startsWith("data:image") || /^[^|\s]*\|https?:\/\/maps\./.test(lastMessage)) return locationLabel;
  return stripWhatsApp(lastMessage);
}

interface TicketListItemProps {
  ticket: TicketDTO;
  selected: boolean;
  busy: boolean;
  onOpen: (ticket: TicketDTO) => void;
  onTransition: (ticket: TicketDTO, transition: TicketTransition) => void;
  onSpy: (ticket: TicketDTO) => void;
}

const CHIP_SX = { minWidth: 0, maxWidth: 110, flexShrink: 1 } as const;

/** One row of the ticket manager, exactly as spec §2 lists it. */
export const TicketListItem = memo(function TicketListItem({ ticket, selected, busy, onOpen, onTransition, onSpy }: TicketListItemProps) {
  const { t } = useTranslation();
  const { user } = useSession();
  const pending = ticket.status === "pending";
  const queueColor = ticket.queue?.color ?? "#7C7C7C";
  const time = formatTicketTime(ticket.updatedAt);

  return (
    <ListItem disablePadding divider data-testid="ticket-row" data-ticket-id={ticket.id} sx={{ position: "relative", alignItems: "stretch" }}>
      <Tooltip title={ticket.queue?.name ?? t("tickets.row.noQueue")}>
        <Box aria-hidden sx={{ width: 6, flexShrink: 0, bgcolor: queueColor }} data-testid="queue-strip" />
      </Tooltip>
      <ListItemButton
        selected={selected}
        aria-disabled={pending}
        onClick={pending ? undefined : () => onOpen(ticket)}
        disableRipple={pending}
        sx={{ alignItems: "flex-start", gap: 1, py: 1, pr: 1, cursor: pending ? "default" : "pointer" }}
        aria-label={t("tickets.row.label", { name: ticket.contact.name })}
      >
        <ListItemAvatar sx={{ minWidth: 48, mt: 0.5 }}>
          <Avatar src={ticket.contact.profilePicUrl || undefined} alt={ticket.contact.name}>
            {ticket.contact.name.charAt(0).toUpperCase()}
          </Avatar>
        </ListItemAvatar>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Box sx={{ display: "flex", alignItems: "center", gap: 0.5 }}>
            <Typography variant="subtitle2" noWrap sx={{ flex: 1, minWidth: 0 }}>
              {ticket.contact.name}
            </Typography>
            {ticket.chatbot && (
              <Tooltip title={t("tickets.row.chatbot")}>
                <AndroidOutlined fontSize="small" color="action" aria-label={t("tickets.row.chatbot")} />
              </Tooltip>
            )}
            <Typography
              variant="caption"
              color={ticket.unreadMessages > 0 ? "success.main" : "text.secondary"}
              sx={{ whiteSpace: "nowrap" }}
              data-testid="ticket-time"
            >
              {time}
            </Typography>
          </Box>
          <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
            <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1, minWidth: 0 }} data-testid="ticket-last-message">
              {lastMessagePreview(ticket.lastMessage, t("tickets.row.location"))}
            </Typography>
            {ticket.unreadMessages > 0 && (
              <Badge badgeContent={ticket.unreadMessages} color="success" max={999} sx={{ mr: 1.5 }} data-testid="ticket-unread" />
            )}
          </Box>
          {/* One line of chips (issue 16): each shrinks to an ellipsis, its full text in the title. */}
          <Box sx={{ display: "flex", flexWrap: "nowrap", overflow: "hidden", gap: 0.5, mt: 0.5 }} data-testid="ticket-chips">
            {ticket.whatsapp && <Chip size="small" variant="outlined" label={ticket.whatsapp.name} title={ticket.whatsapp.name} sx={CHIP_SX} />}
            {ticket.user && <Chip size="small" variant="outlined" color="primary" label={ticket.user.name} title={ticket.user.name} sx={CHIP_SX} />}
            <Chip
              size="small"
              label={ticket.queue?.name ?? t("tickets.row.noQueue")}
              title={ticket.queue?.name ?? t("tickets.row.noQueue")}
              sx={{ ...CHIP_SX, bgcolor: ticket.queue?.color ?? "grey.700", color: readableTextOn(ticket.queue?.color) }}
            />
            {ticket.tags.map((tag) => (
              <Chip
                key={tag.id}
                size="small"
                label={tag.name}
                title={tag.name}
                sx={{ ...CHIP_SX, bgcolor: tag.color, color: readableTextOn(tag.color) }}
              />
            ))}
          </Box>
        </Box>
      </ListItemButton>
      <Box sx={{ display: "flex", flexDirection: "column", alignItems: "flex-end", justifyContent: "center", gap: 0.5, pr: 1, py: 0.5 }}>
        {can(user, "tickets:spy") && (
          <Tooltip title={t("tickets.row.spy")}>
            <IconButton size="small" aria-label={t("tickets.row.spy")} onClick={() => onSpy(ticket)}>
              <VisibilityOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        {pending && (
          <Button size="small" variant="contained" color="success" disabled={busy} onClick={() => onTransition(ticket, "accept")}>
            {t("tickets.buttons.accept")}
          </Button>
        )}
        {ticket.status !== "closed" && (
          <Button size="small" variant="outlined" color="error" disabled={busy} onClick={() => onTransition(ticket, "resolve")}>
            {t("tickets.buttons.resolve")}
          </Button>
        )}
        {ticket.status === "closed" && (
          <Button size="small" variant="outlined" disabled={busy} onClick={() => onTransition(ticket, "reopen")}>
            {t("tickets.buttons.reopen")}
          </Button>
        )}
      </Box>
    </ListItem>
  );
});
