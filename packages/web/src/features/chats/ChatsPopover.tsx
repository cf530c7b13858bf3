import { Button, ListItemButton } from "@mui/material";
import ForumOutlined from "@mui/icons-material/ForumOutlined";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { TopBarPopover } from "../../components/TopBarPopover";
import { uniqueById } from "../../components/uniqueById";
import { useSession } from "../auth/SessionProvider";
import { useChatsList, useChatsRealtime } from "./api";
import { ChatRowSummary } from "./ChatRowSummary";

/**
 * Top-bar internal chat popover (spec §2): a badge with the caller's unread messages; the popover lists the
 * recent chats (next page within 100 px of the end, spec §9) and opens one at /chats/:id. Hosts the live
 * `chat` layer (lists, unread counts, the sound while the tab is hidden).
 */
export function ChatsPopover() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  useChatsRealtime();
  const feed = useChatsList("");
  const pages = feed.data?.pages ?? [];
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `pages` is derived from feed.data
  const records = useMemo(() => uniqueById(pages.map((page) => page.records)), [feed.data]);
  const unread = pages[0]?.unreadCount ?? 0;

  const go = (close: () => void, path: string) => {
    close();
    navigate(path);
  };

  return (
    <TopBarPopover
      title={t("chats.popover.title")}
      label={t("chats.popover.label", { count: unread })}
      icon={<ForumOutlined />}
      count={unread}
      badgeData={{ "data-testid": "chats-unread", "data-count": unread }}
      feed={feed}
      empty={t("chats.list.empty")}
      rowCount={records.length}
      width={340}
      action={(close) => (
        <Button size="small" onClick={() => go(close, "/chats")}>
          {t("chats.popover.openAll")}
        </Button>
      )}
    >
      {(close) =>
        records.map((chat) => (
          <ListItemButton key={chat.id} data-testid="chats-popover-item" onClick={() => go(close, `/chats/${chat.id}`)} sx={{ gap: 1 }}>
            <ChatRowSummary chat={chat} userId={user?.id} />
          </ListItemButton>
        ))
      }
    </TopBarPopover>
  );
}
