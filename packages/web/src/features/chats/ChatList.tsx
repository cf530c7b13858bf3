import { unreadsOf, type ChatDTO } from "@balcao/shared";
import { Badge, Box, Button, IconButton, List, ListItemButton, ListItemText, Paper, Tooltip, Typography } from "@mui/material";
import Add from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import { isToday } from "date-fns";
import { formatLocalDate, formatTime } from "../../app/format";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../components/EmptyState";
import { InfiniteScrollArea } from "../../components/InfiniteScrollArea";
import { LoadingState } from "../../components/LoadingState";
import { SearchField } from "../../components/SearchField";
import type { ListSearch, ListState } from "../../components/list/useListData";
import { useSession } from "../auth/SessionProvider";

export const chatTime = (iso: string) => {
  const date = new Date(iso);
  return isToday(date) ? formatTime(date) : formatLocalDate(date);
};

interface ChatListProps {
  list: ListState<ChatDTO>;
  search: ListSearch;
  selectedId: number | null;
  onSelect: (chat: ChatDTO) => void;
  onNew: () => void;
  onEdit: (chat: ChatDTO) => void;
  onDelete: (chat: ChatDTO) => void;
}

/** The caller's chats (spec §2): title, last message, time, unread badge; the owner edits or deletes. */
export function ChatList({ list, search, selectedId, onSelect, onNew, onEdit, onDelete }: ChatListProps) {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <Paper variant="outlined" sx={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 0 }}>
      <Box sx={{ display: "flex", gap: 1, p: 1, alignItems: "center" }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <SearchField value={search.search} onChange={search.setSearch} />
        </Box>
        <Button variant="contained" startIcon={<Add />} onClick={onNew} sx={{ flexShrink: 0 }}>
          {t("chats.buttons.new")}
        </Button>
      </Box>
      <InfiniteScrollArea hasMore={list.hasMore} loading={list.loading} onLoadMore={list.loadMore} variant="elevation" elevation={0} square>
        {list.error && <EmptyState title={t("errors.listFailed")} />}
        {!list.error && list.items.length === 0 && (list.loading ? <LoadingState /> : <EmptyState title={t("chats.list.empty")} />)}
        <List dense disablePadding aria-label={t("chats.title")}>
          {list.items.map((chat) => {
            const unreads = unreadsOf(chat, user?.id);
            const owner = chat.ownerId !== null && chat.ownerId === user?.id;
            return (
              <ListItemButton
                key={chat.id}
                selected={chat.id === selectedId}
                onClick={() => onSelect(chat)}
                data-testid="chat-item"
                sx={{ borderBottom: 1, borderColor: "divider", alignItems: "flex-start", gap: 1 }}
              >
                <ListItemText
                  primary={chat.title}
                  secondary={chat.lastMessage || t("chats.list.noMessages")}
                  slotProps={{ primary: { noWrap: true, sx: { fontWeight: unreads > 0 ? 700 : 400 } }, secondary: { noWrap: true } }}
                />
                <Box sx={{ display: "flex", flexDirection: "column", alignItems: "flex-end", gap: 0.5, flexShrink: 0 }}>
                  <Typography variant="caption" color="text.secondary">
                    {chatTime(chat.updatedAt)}
                  </Typography>
                  <Badge
                    badgeContent={unreads}
                    color="primary"
                    aria-label={unreads ? t("chats.list.unread", { count: unreads }) : undefined}
                    data-testid="chat-unread"
                    data-count={unreads}
                    sx={{ mr: 1.5, mt: 1 }}
                  />
                  {owner && (
                    <Box sx={{ display: "flex" }} onClick={(e) => e.stopPropagation()} onMouseDown={(e) => e.stopPropagation()}>
                      <Tooltip title={t("chats.buttons.edit")}>
                        <IconButton size="small" aria-label={t("chats.actions.edit", { title: chat.title })} onClick={() => onEdit(chat)}>
                          <EditOutlined fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={t("chats.buttons.delete")}>
                        <IconButton size="small" aria-label={t("chats.actions.delete", { title: chat.title })} onClick={() => onDelete(chat)}>
                          <DeleteOutline fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </Box>
                  )}
                </Box>
              </ListItemButton>
            );
          })}
        </List>
      </InfiniteScrollArea>
    </Paper>
  );
}
