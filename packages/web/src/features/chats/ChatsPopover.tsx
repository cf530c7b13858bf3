import { unreadsOf } from "@balcao/shared";
import { Badge, Box, Button, CircularProgress, IconButton, List, ListItemButton, ListItemText, Popover, Tooltip, Typography } from "@mui/material";
import ForumOutlined from "@mui/icons-material/ForumOutlined";
import { useMemo, useState, type UIEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { isNearEnd } from "../../components/InfiniteScrollArea";
import { uniqueById } from "../../components/uniqueById";
import { useSession } from "../auth/SessionProvider";
import { useChatsList, useChatsRealtime } from "./api";
import { chatTime } from "./ChatList";

/**
 * Top-bar internal chat popover (spec §2): a badge with the caller's unread messages; the popover lists the
 * recent chats (next page within 100 px of the end, spec §9) and opens one at /chats/:id. Hosts the live
 * `chat` layer (lists, unread counts, the sound while the tab is hidden).
 */
export function ChatsPopover() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  useChatsRealtime();
  const feed = useChatsList("");
  const pages = feed.data?.pages ?? [];
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `pages` is derived from feed.data
  const records = useMemo(() => uniqueById(pages.map((page) => page.records)), [feed.data]);
  const unread = pages[0]?.unreadCount ?? 0;

  const onScroll = (event: UIEvent<HTMLElement>) => {
    if (feed.hasNextPage && !feed.isFetchingNextPage && isNearEnd(event.currentTarget)) void feed.fetchNextPage();
  };
  const go = (path: string) => {
    setAnchor(null);
    navigate(path);
  };

  return (
    <>
      <Tooltip title={t("chats.popover.title")}>
        <IconButton color="inherit" aria-label={t("chats.popover.label", { count: unread })} onClick={(e) => setAnchor(e.currentTarget)}>
          <Badge badgeContent={unread} color="error" data-testid="chats-unread" data-count={unread}>
            <ForumOutlined />
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
        <Box sx={{ display: "flex", alignItems: "center", justifyContent: "space-between", px: 2, pt: 1.5, pb: 0.5 }}>
          <Typography variant="subtitle2">{t("chats.popover.title")}</Typography>
          <Button size="small" onClick={() => go("/chats")}>
            {t("chats.popover.openAll")}
          </Button>
        </Box>
        <List dense sx={{ width: 340, maxHeight: 420, overflowY: "auto" }} aria-label={t("chats.popover.title")} onScroll={onScroll}>
          {feed.isPending && (
            <Box sx={{ display: "flex", justifyContent: "center", p: 2 }}>
              <CircularProgress size={24} aria-label={t("common.loading")} />
            </Box>
          )}
          {feed.isError && (
            <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
              {t("errors.listFailed")}
            </Typography>
          )}
          {!feed.isPending && !feed.isError && records.length === 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
              {t("chats.list.empty")}
            </Typography>
          )}
          {records.map((chat) => {
            const unreads = unreadsOf(chat, user?.id);
            return (
              <ListItemButton key={chat.id} data-testid="chats-popover-item" onClick={() => go(`/chats/${chat.id}`)} sx={{ gap: 1 }}>
                <ListItemText
                  primary={chat.title}
                  secondary={chat.lastMessage || t("chats.list.noMessages")}
                  slotProps={{ primary: { noWrap: true, sx: { fontWeight: unreads ? 700 : 400 } }, secondary: { noWrap: true } }}
                />
                <Box sx={{ display: "flex", flexDirection: "column", alignItems: "flex-end", gap: 1, flexShrink: 0 }}>
                  <Typography variant="caption" color="text.secondary">
                    {chatTime(chat.updatedAt)}
                  </Typography>
                  <Badge
                    badgeContent={unreads}
                    color="primary"
                    aria-label={unreads ? t("chats.list.unread", { count: unreads }) : undefined}
                    sx={{ mr: 1.5 }}
                  />
                </Box>
              </ListItemButton>
            );
          })}
          {feed.isFetchingNextPage && (
            <Box sx={{ display: "flex", justifyContent: "center", p: 1 }}>
              <CircularProgress size={20} aria-label={t("common.loading")} />
            </Box>
          )}
        </List>
      </Popover>
    </>
  );
}
