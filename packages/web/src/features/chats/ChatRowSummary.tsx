import { unreadsOf, type ChatDTO } from "@balcao/shared";
import { Badge, Box, ListItemText, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { formatLocalDate, formatTime } from "../../app/format";
import { isLocalToday } from "../../app/localDate";

export const chatTime = (iso: string) => {
  const date = new Date(iso);
  return isLocalToday(date) ? formatTime(date) : formatLocalDate(date);
};

interface ChatRowSummaryProps {
  chat: ChatDTO;
  userId: number | undefined;
  /** The chats page's list: its unread badge carries data-testid="chat-unread" and data-count. */
  inList?: boolean;
}

/**
 * A chat row's content (spec §2): title (bold while unread), last message, time and unread badge. The chats
 * page's list and the top-bar popover draw the same; each wraps it in its own button.
 */
export function ChatRowSummary({ chat, userId, inList = false }: ChatRowSummaryProps) {
  const { t } = useTranslation();
  const unreads = unreadsOf(chat, userId);
  return (
    <>
      <ListItemText
        primary={chat.title}
        secondary={chat.lastMessage || t("chats.list.noMessages")}
        slotProps={{ primary: { noWrap: true, sx: { fontWeight: unreads > 0 ? 700 : 400 } }, secondary: { noWrap: true } }}
      />
      <Box sx={{ display: "flex", flexDirection: "column", alignItems: "flex-end", gap: inList ? 0.5 : 1, flexShrink: 0 }}>
        <Typography variant="caption" color="text.secondary">
          {chatTime(chat.updatedAt)}
        </Typography>
        <Badge
          badgeContent={unreads}
          color="primary"
          aria-label={unreads ? t("chats.list.unread", { count: unreads }) : undefined}
          {...(inList ? { "data-testid": "chat-unread", "data-count": unreads } : {})}
          sx={inList ? { mr: 1.5, mt: 1 } : { mr: 1.5 }}
        />
      </Box>
    </>
  );
}
