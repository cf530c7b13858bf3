import { Badge, IconButton, List, ListItemButton, ListItemText, Popover, Tooltip, Typography } from "@mui/material";
import NotificationsOutlined from "@mui/icons-material/NotificationsOutlined";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useSession } from "../auth/SessionProvider";
import { lastMessagePreview } from "./TicketListItem";
import { useUnreadTickets } from "./api";
import { countsForBell } from "./ticketsCache";
import { useTicketsRealtime } from "./useTicketsRealtime";

/** The top-bar bell (spec §2): count of tickets with unread messages; the list opens them. Also hosts the live layer. */
export function TicketsBell() {
  const { t } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  useTicketsRealtime();
  const unread = useUnreadTickets(!!user);
  const tickets = useMemo(() => (user ? (unread.data?.tickets ?? []).filter((ticket) => countsForBell(ticket, user)) : []), [unread.data, user]);

  return (
    <>
      <Tooltip title={t("topBar.notifications")}>
        <IconButton color="inherit" aria-label={t("tickets.bell.label", { count: tickets.length })} onClick={(e) => setAnchor(e.currentTarget)}>
          <Badge badgeContent={tickets.length} color="error" data-testid="tickets-bell-count">
            <NotificationsOutlined />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
      >
        <List dense sx={{ width: 320, maxHeight: 360, overflowY: "auto" }} aria-label={t("topBar.notifications")}>
          {tickets.length === 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
              {t("tickets.bell.empty")}
            </Typography>
          )}
          {tickets.map((ticket) => (
            <ListItemButton
              key={ticket.id}
              onClick={() => {
                setAnchor(null);
                navigate(ticket.status === "pending" ? "/tickets" : `/tickets/${ticket.uuid}`);
              }}
            >
              <ListItemText
                primary={ticket.contact.name}
                secondary={lastMessagePreview(ticket.lastMessage, t("tickets.row.location"))}
                slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
              />
              <Badge badgeContent={ticket.unreadMessages} color="primary" sx={{ ml: 2 }} />
            </ListItemButton>
          ))}
        </List>
      </Popover>
    </>
  );
}
