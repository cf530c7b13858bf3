import type { ChatDTO } from "@balcao/shared";
import { Box, Button, IconButton, List, ListItem, ListItemButton, Paper, Tooltip } from "@mui/material";
import Add from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../../components/EmptyState";
import { InfiniteScrollArea } from "../../components/InfiniteScrollArea";
import { LoadingState } from "../../components/LoadingState";
import { SearchField } from "../../components/SearchField";
import type { ListSearch, ListState } from "../../components/list/useListData";
import { useSession } from "../auth/SessionProvider";
import { ChatRowSummary } from "./ChatRowSummary";

export { chatTime } from "./ChatRowSummary";

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
            const owner = chat.ownerId !== null && chat.ownerId === user?.id;
            return (
              // The edit and delete buttons sit beside the row's button, not inside it (axe: nested-interactive).
              <ListItem key={chat.id} disablePadding sx={{ borderBottom: 1, borderColor: "divider", alignItems: "stretch" }}>
                <ListItemButton
                  selected={chat.id === selectedId}
                  onClick={() => onSelect(chat)}
                  data-testid="chat-item"
                  sx={{ alignItems: "flex-start", gap: 1, minWidth: 0 }}
                >
                  <ChatRowSummary chat={chat} userId={user?.id} inList />
                </ListItemButton>
                {owner && (
                  <Box sx={{ display: "flex", alignItems: "flex-end", pb: 0.5, pr: 0.5, flexShrink: 0 }}>
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
              </ListItem>
            );
          })}
        </List>
      </InfiniteScrollArea>
    </Paper>
  );
}
